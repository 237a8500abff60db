// The demo generator's within-pair coupling (store/generate/demo-populations.ts, pairCoupling): when adding the
// skill changes the outcome, the curated trajectory's items move with it; drawn from its own stream, so every
// other trajectory's labels are the ones the demo had without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const settings = { ...DEFAULT_SETTINGS, resamples: 50, headline_resamples: 50 };
const COUPLED = { skillLogDamping: 0.5, transitionLogShiftUp: 3, transitionLogShiftDown: 1.3, transitionLogShiftSd: 0.5 };

test("coupling moves the items of pairs whose outcome changed, and only the curated trajectories' labels", () => {
  const off = generateDemoStore({ seed: 7 });
  const on = generateDemoStore({ seed: 7, model: COUPLED });
  assert.deepEqual(on.trajectories, off.trajectories, "outcomes and every other trajectory field unchanged");
  const curated = new Set(off.trajectories.filter((t) => t.condition === "curated").map((t) => t.trajectory_id));
  const rest = (s: typeof off) => s.judgments.filter((j) => !curated.has(j.trajectory_id));
  assert.deepEqual(rest(on), rest(off), "every label outside the curated trajectories is the one it was");
  const median = (s: typeof off, group: string) =>
    analyzeStore(s, settings).rq3.transitions.find((t) => t.group === group)!.median_delta!;
  assert.equal(median(off, "FAIL→PASS"), 0);
  assert.ok(median(on, "FAIL→PASS") > 0.1, `FAIL→PASS median ${median(on, "FAIL→PASS")}`);
  assert.ok(median(on, "PASS→FAIL") < -0.1, `PASS→FAIL median ${median(on, "PASS→FAIL")}`);
});
