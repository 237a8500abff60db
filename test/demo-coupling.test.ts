// The demo generator's within-pair coupling (store/generate/demo-populations.ts, pairCoupling): when adding the
// skill changes the outcome, the curated trajectory's items move with it; drawn from its own stream, so the
// outcomes and the trajectories without the skill are the ones the demo had without it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const settings = { ...DEFAULT_SETTINGS, resamples: 50, headline_resamples: 50 };
// The within-pair coupling on its own: the verifier coupling (below) also moves the transitions' medians.
const COUPLED = {
  passAssertionYes: 0,
  hiddenFailureCellShare: 0,
  skillLogDamping: 0.5,
  transitionLogShiftUp: 3,
  transitionLogShiftDown: 1.3,
  transitionLogShiftSd: 0.5,
};

const OFF = {
  passAssertionYes: 0,
  hiddenFailureCellShare: 0,
  skillLogDamping: 0,
  transitionLogShiftUp: 0,
  transitionLogShiftDown: 0,
  transitionLogShiftSd: 0,
};

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

// The verifier coupling (demo-populations.ts, labelTrajectory and runCell): on a run whose verifier tests pass,
// assertion-route items follow the tests; a hidden-failure cell fails every condition's run. Both draw from the
// verifier stream, so the main stream's draws (every other label, every other outcome) are those without them.
const VERIFIER_OFF = { passAssertionYes: 0, hiddenFailureCellShare: 0 };

test("verifier coupling: only assertion items of runs whose tests pass move, and PASS propagation adds less", () => {
  // No hidden failures here, so a run whose tests passed is exactly an official PASS.
  const off = generateDemoStore({ seed: 7, model: { ...VERIFIER_OFF, hiddenFailureShare: 0 } });
  const on = generateDemoStore({ seed: 7, model: { ...VERIFIER_OFF, hiddenFailureShare: 0, passAssertionYes: 0.9 } });
  assert.deepEqual(on.trajectories, off.trajectories, "outcomes and every other trajectory field unchanged");
  const route = new Map(off.items.map((i) => [`${i.task_id}/${i.item_id}`, i.route]));
  const taskOf = new Map(off.trajectories.map((t) => [t.trajectory_id, t.task_id]));
  const outcomeOf = new Map(off.trajectories.map((t) => [t.trajectory_id, t.outcome]));
  // The SkillsBench-like runs' first judging (the later stages sample among these labels, so they follow them).
  const firstRuns = (s: typeof off) =>
    s.judgments.filter((j) => /-k\d+-[ncs]1$/.test(j.trajectory_id) && !j.judge && (j.run ?? 1) === 1);
  const [a, b] = [firstRuns(off), firstRuns(on)];
  assert.equal(b.length, a.length);
  let moved = 0;
  a.forEach((j, i) => {
    const k = b[i];
    assert.equal(k.trajectory_id, j.trajectory_id);
    if (k.label === j.label) return;
    moved++;
    const where = `${j.trajectory_id} ${j.item_id}: ${j.label} → ${k.label}`;
    assert.equal(route.get(`${taskOf.get(j.trajectory_id)}/${j.item_id}`), "assertion", where);
    assert.notEqual(j.label, "Abstain", where);
    assert.notEqual(k.label, "Abstain", where);
    assert.equal(outcomeOf.get(j.trajectory_id), "PASS", where);
  });
  assert.ok(moved > 100, `${moved} labels moved`);
  const increment = (s: typeof off) => {
    const rows = analyzeStore(s, settings).rq4.outcome_step as { variant: string; separation: number }[];
    const sep = (v: string) => rows.find((r) => r.variant === v)!.separation;
    return sep("propagation") - sep("none");
  };
  assert.ok(increment(on) < increment(off) - 0.02, `propagation adds ${increment(on)} against ${increment(off)}`);
});

test("verifier coupling: a hidden-failure cell fails its runs in every condition and changes no other outcome", () => {
  const off = generateDemoStore({ seed: 7, model: VERIFIER_OFF });
  const on = generateDemoStore({ seed: 7, model: { ...VERIFIER_OFF, hiddenFailureCellShare: 0.3 } });
  const cell = (id: string) => id.replace(/-[ncs]1$/, "");
  const failedCells = new Set<string>();
  on.trajectories.forEach((t, i) => {
    const was = off.trajectories[i];
    assert.equal(t.trajectory_id, was.trajectory_id);
    if (t.outcome === was.outcome) return;
    assert.deepEqual([was.outcome, t.outcome], ["PASS", "FAIL"], t.trajectory_id);
    failedCells.add(cell(t.trajectory_id));
  });
  assert.ok(failedCells.size > 50, `${failedCells.size} cells`);
  for (const t of on.trajectories)
    if (failedCells.has(cell(t.trajectory_id)) && t.outcome) assert.equal(t.outcome, "FAIL", t.trajectory_id);
  // The runs without the skill keep every label: the main stream's draws are unchanged.
  const without = (s: typeof off) => s.judgments.filter((j) => /-k\d+-n1$/.test(j.trajectory_id) && !j.judge);
  assert.deepEqual(without(on), without(off));
});

test("verifier coupling keys on the verifier's tests, not on the official outcome: hidden failures move too (issue 55.5)", () => {
  // Hidden failures per run (the tests pass, the official outcome is FAIL) are drawn from the main stream whatever
  // their share, so the same seed's runs whose tests passed are the PASS runs of the store without them.
  const base = { passAssertionYes: 0, hiddenFailureCellShare: 0 };
  const truth = generateDemoStore({ seed: 7, model: { ...base, hiddenFailureShare: 0 } });
  const testsPassed = new Set(truth.trajectories.filter((t) => t.outcome === "PASS").map((t) => t.trajectory_id));
  const off = generateDemoStore({ seed: 7, model: { ...base, hiddenFailureShare: 0.3 } });
  const on = generateDemoStore({ seed: 7, model: { ...base, hiddenFailureShare: 0.3, passAssertionYes: 0.9 } });
  assert.deepEqual(on.trajectories, off.trajectories, "outcomes unchanged by the coupling");
  const outcomeOf = new Map(off.trajectories.map((t) => [t.trajectory_id, t.outcome]));
  const hidden = [...testsPassed].filter((id) => outcomeOf.get(id) === "FAIL");
  assert.ok(hidden.length > 100, `${hidden.length} hidden failures`);
  const firstRuns = (s: typeof off) =>
    s.judgments.filter((j) => /-k\d+-[ncs]1$/.test(j.trajectory_id) && !j.judge && (j.run ?? 1) === 1);
  const [a, b] = [firstRuns(off), firstRuns(on)];
  let movedOnFail = 0;
  a.forEach((j, i) => {
    if (b[i].label === j.label) return;
    assert.ok(testsPassed.has(j.trajectory_id), `${j.trajectory_id} ${j.item_id} moved, but its tests failed`);
    if (outcomeOf.get(j.trajectory_id) === "FAIL") movedOnFail++;
  });
  // A run whose tests passed shows them passing in its log, whatever the official outcome says.
  assert.ok(movedOnFail > 50, `${movedOnFail} labels moved on hidden failures`);
});
