// The demo generator's within-pair coupling (store/generate/demo-populations.ts, pairCoupling): when adding the
// skill changes the outcome, the curated trajectory's items move with it; drawn from its own stream, so the
// outcomes and the trajectories without the skill are the ones the demo had without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const settings = { ...DEFAULT_SETTINGS, resamples: 50, headline_resamples: 50 };
const COUPLED = {
  skillLogDamping: 0.5,
  transitionLogShiftUp: 3,
  transitionLogShiftDown: 1.3,
  transitionLogShiftSd: 0.5,
};

const OFF = { skillLogDamping: 0, transitionLogShiftUp: 0, transitionLogShiftDown: 0, transitionLogShiftSd: 0 };

test("coupling moves the items of pairs whose outcome changed; outcomes and the runs without the skill stay", () => {
  const off = generateDemoStore({ seed: 7, model: OFF });
  const on = generateDemoStore({ seed: 7, model: COUPLED });
  assert.deepEqual(on.trajectories, off.trajectories, "outcomes and every other trajectory field unchanged");
  // Drawn from its own stream: the runs' other draws are the ones they were, so every trajectory without the
  // skill keeps its labels (the later stages that sample among labels, such as evidence replacement, follow them).
  // The SkillsBench-like runs without the skill (runCell's ids end in -kNNN-n1; the transfer benchmarks come later).
  const without = new Set(
    off.trajectories.filter((t) => /-k\d+-n1$/.test(t.trajectory_id)).map((t) => t.trajectory_id),
  );
  const firstRun = (s: typeof off) =>
    s.judgments.filter((j) => without.has(j.trajectory_id) && !j.judge && (j.run ?? 1) === 1);
  assert.deepEqual(firstRun(on), firstRun(off), "the trajectories without the skill keep every label");
  assert.notDeepEqual(on.judgments, off.judgments);
  const median = (s: typeof off, group: string) =>
    analyzeStore(s, settings).rq3.transitions.find((t) => t.group === group)!.median_delta!;
  assert.ok(median(on, "FAIL→PASS") > median(off, "FAIL→PASS") + 0.1, `FAIL→PASS median ${median(on, "FAIL→PASS")}`);
  assert.ok(median(on, "PASS→FAIL") < median(off, "PASS→FAIL") - 0.1, `PASS→FAIL median ${median(on, "PASS→FAIL")}`);
});
