import { test } from "node:test";
import assert from "node:assert/strict";
import type { Trajectory, Judgment, Label } from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/store.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { decodeLabels } from "../analysis/schema/label-vectors.js";
import { rq1Discrimination } from "../analysis/rq/rq1-discrimination.js";
import { rq2Human } from "../analysis/rq/rq2-human.js";
import { rq3SkillEffects } from "../analysis/rq/rq3-skill-effects.js";
import { rq4Ablations } from "../analysis/rq/rq4-ablations.js";
import { rq5Reliability } from "../analysis/rq/rq5-reliability.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { outcomeLevel } from "../analysis/rq/outcome-level.js";
import { matchPairs } from "../analysis/rq/matched-pairs.js";
import { thresholdShares } from "../analysis/stats/shares.js";
import { MATERIAL_CHANGE } from "../analysis/rq/rq3-skill-effects.js";

const settings = { seed: 1, resamples: 200, headline_resamples: 200, level: 0.95, interval: "percentile" as const };

/** Two tasks of 4 items (items 1–2 assertion, 3–4 judge); labels given as strings like "YYNA". */
function tinyStore(): Store {
  const tasks = ["t1", "t2"].map((task_id) => ({
    task_id,
    benchmark: "bench",
    instruction: "Do X. Then do Y.",
    verifier_tests: ["test_a", "test_b"],
  }));
  const items = tasks.flatMap((t) =>
    [1, 2, 3, 4].map((i) => ({
      task_id: t.task_id,
      item_id: `i${i}`,
      text: `req ${i}`,
      quote: i === 4 ? "not in instruction" : "Do X.",
      route: (i <= 2 ? "assertion" : "judge") as "assertion" | "judge",
      assertion_ref: i === 1 ? "test_a" : i === 2 ? "test_missing" : undefined,
    })),
  );
  const trajectories: Trajectory[] = [];
  const judgments: Judgment[] = [];
  const add = (
    id: string,
    task: string,
    condition: Trajectory["condition"],
    outcome: "PASS" | "FAIL" | null,
    labels: string,
    extra: Partial<Trajectory> = {},
  ) => {
    trajectories.push({
      trajectory_id: id,
      task_id: task,
      harness: "h",
      model: "m",
      condition,
      trial: 1,
      outcome,
      ...extra,
    });
    const map: Record<string, Label> = { Y: "Yes", N: "No", A: "Abstain" };
    for (const [i, c] of [...labels].entries())
      judgments.push({ trajectory_id: id, item_id: `i${i + 1}`, label: map[c] });
  };
  // t1: matched pair FAIL→FAIL, Δ = 3/4 − 1/4 = +0.5
  add("a1", "t1", "none", "FAIL", "YNNN");
  add("a2", "t1", "curated", "FAIL", "YYYN");
  // t1: PASS trajectory, trial 2 (unmatched)
  add("a3", "t1", "none", "PASS", "YYYA", { trial: 2 });
  // t2: FAIL→PASS pair, Δ = 1 − 1/2 = +0.5
  add("b1", "t2", "none", "FAIL", "YNAA", { log_hash: "h1" });
  add("b2", "t2", "curated", "PASS", "YYYY");
  // duplicate of b1 by log hash: dropped (b1 < b9 in code-point order)
  add("b9", "t2", "none", "FAIL", "NNNN", { log_hash: "h1", trial: 3 });
  // zero-evidence and non-binary trajectories
  add("c1", "t2", "none", "FAIL", "AAAA", { trial: 4 });
  add("c2", "t2", "none", null, "YYNN", { trial: 5 });
  return {
    manifest: { name: "tiny" },
    tasks,
    items,
    trajectories,
    judgments,
    method_scores: [
      { trajectory_id: "a1", method: "holistic", score: 0.2 },
      { trajectory_id: "a2", method: "holistic", score: 0.6 },
      { trajectory_id: "a3", method: "holistic", score: 0.6 },
      { trajectory_id: "b1", method: "holistic", score: 0.5 },
      { trajectory_id: "b2", method: "holistic", score: 0.9 },
    ],
    human_preferences: [
      { annotator: "x", trajectory_a: "a1", trajectory_b: "a2", preference: "b" },
      { annotator: "y", trajectory_a: "a2", trajectory_b: "a3", preference: "a" },
      { annotator: "y", trajectory_a: "a1", trajectory_b: "a3", preference: "tie" },
    ],
    evidence_replacements: [
      { trajectory_id: "a2", item_id: "i1", before: "Yes", after: "No" },
      { trajectory_id: "a2", item_id: "i2", before: "Yes", after: "Abstain" },
      { trajectory_id: "a2", item_id: "i3", before: "Yes", after: "Yes" },
      { trajectory_id: "a2", item_id: "i4", before: "No", after: "No" },
    ],
    schema_audit: [
      { scheme: "real", requirement_id: "r1", covered: true },
      { scheme: "real", requirement_id: "r2", covered: false },
    ],
  };
}

test("deduplication keeps the first trajectory_id of a log hash and counts the rest", () => {
  const p = prepareStore(tinyStore());
  assert.equal(p.counts.duplicates_dropped, 1);
  assert.ok(!p.byId.has("b9"));
  assert.deepEqual(
    [p.counts.unique_trajectories, p.counts.binary, p.counts.non_binary, p.counts.zero_evidence],
    [7, 6, 1, 1],
  );
});

test("RQ3 pairs by trial index and computes Δ per transition (hand computed)", () => {
  const p = prepareStore(tinyStore());
  const pairing = matchPairs(p);
  assert.deepEqual(
    pairing.pairs.map((x) => [x.without_id, x.with_id]),
    [
      ["a1", "a2"],
      ["b1", "b2"],
    ],
  );
  // Each pair's slots name its two trajectories in the prepared store (RQ3 reads their metrics by slot).
  assert.deepEqual(
    [...pairing.slots].map((k) => p.trajectories[k].trajectory_id),
    ["a1", "a2", "b1", "b2"],
  );
  const r = rq3SkillEffects(p, settings);
  const ff = r.transitions.find((t) => t.group === "FAIL→FAIL")!;
  const fp = r.transitions.find((t) => t.group === "FAIL→PASS")!;
  assert.deepEqual([ff.n, ff.median_delta, ff.improved_share, ff.regressed_share], [1, 0.5, 1, 0]);
  assert.deepEqual([fp.n, fp.median_delta], [1, 0.5]);
  assert.equal(r.transitions.find((t) => t.group === "PASS→PASS")!.median_delta, null);
});

test("a Δ of exactly 0.10 is not a material change even when float subtraction says otherwise", () => {
  // 0.4 − 0.3 = 0.10000000000000003 and 1 − 0.9 = 0.09999999999999998 in floating point
  const shares = thresholdShares([0.4 - 0.3, 1 - 0.9, 0.3 - 0.4, 0.1000001], MATERIAL_CHANGE);
  assert.equal(shares.above, 1 / 4);
  assert.equal(shares.below, 0);
});

test("RQ1 reports AUC per method on its own sample and a paired Δ on the shared subset", () => {
  const p = prepareStore(tinyStore());
  const r = rq1Discrimination(p, settings);
  const g = r.auc.find((a) => a.method === "gcpc")!;
  // gcpc own sample: a1 .25 F, a2 .75 F, a3 1 P, b1 .5 F, b2 1 P → both PASS above every FAIL → 1
  assert.equal(g.n, 5);
  assert.equal(g.auc, 1);
  const h = r.auc.find((a) => a.method === "holistic")!;
  // holistic: P {.6, .9}, F {.2, .6, .5}: (.6>.2)(.6=.6→½)(.6>.5)(.9>all) = 5.5/6
  assert.ok(Math.abs(h.auc! - 5.5 / 6) < 1e-12);
  assert.ok(r.paired && "delta" in r.paired);
  if ("delta" in r.paired) {
    assert.ok(Math.abs(r.paired.delta - (1 - 5.5 / 6)) < 1e-12);
    assert.equal(r.paired.bootstrap?.resamples ?? null, r.paired.ci === null ? null : 200);
  }
});

test("RQ2 agreement counts strict wins and skips ties and unscored", () => {
  const p = prepareStore(tinyStore());
  const r = rq2Human(p, settings);
  assert.ok(Array.isArray(r.methods));
  const g = (r.methods as any[]).find((m) => m.method === "gcpc");
  // row1: prefers a2 (.75) over a1 (.25) → agree; row2: prefers a2 (.75) over a3 (1) → disagree
  assert.deepEqual([g.agreeing, g.comparable, g.comparisons], [1, 2, 2]);
  const h = (r.methods as any[]).find((m) => m.method === "holistic");
  // holistic a2 .6 = a3 .6 → tie, not comparable
  assert.deepEqual([h.agreeing, h.comparable], [1, 1]);
  assert.equal((r.alpha_q1 as any).available, false);
});

test("RQ4 separations of the outcome-step ablation (hand computed)", () => {
  const p = prepareStore(tinyStore());
  const r = rq4Ablations(p, settings, []);
  assert.ok(Array.isArray(r.outcome_step));
  const rows = r.outcome_step as any[];
  // population: a1 F .25, a2 F .75, a3 P (YYYA → 1), b1 F (YNAA → .5), b2 P 1
  // none: mean P 1 − mean F .5 = .5
  assert.ok(Math.abs(rows[0].separation - 0.5) < 1e-12);
  // endpoint: a1 1/5, a2 3/5, b1 1/3 → F mean 17/45; a3 4/4, b2 5/5 → 1; separation 28/45
  assert.ok(Math.abs(rows[1].separation - 28 / 45) < 1e-12);
  assert.ok(Math.abs(rows[1].increment - (28 / 45 - 0.5)) < 1e-12);
  const er = r.evidence_replacement as any;
  assert.deepEqual([er.n, er.strict_share, er.incl_abstain_share], [3, 1 / 3, 2 / 3]);
  assert.deepEqual((r.schema_audit as any[])[0], { scheme: "real", n: 2, covered: 1, covered_share: 0.5 });
  assert.equal((r.idle_floor as any).available, false);
});

test("RQ4 adds per-test propagation rows when verifier results exist (hand computed)", () => {
  const store = tinyStore();
  store.verifier_results = [
    { trajectory_id: "a1", test_id: "test_a", status: "failed" },
    { trajectory_id: "b1", test_id: "test_missing", status: "passed" },
  ];
  const rows = rq4Ablations(prepareStore(store), settings, []).outcome_step as any[];
  const perTest = rows.find((r) => r.variant === "per_test");
  // FAIL: a1 i1 Yes→No (test_a failed) → 0/4; a2 no results → 3/4; b1 i2 No→Yes (passed) → 2/2. PASS a3, b2 → 1.
  // separation = 1 − (0 + 0.75 + 1)/3
  assert.ok(Math.abs(perTest.separation - (1 - 1.75 / 3)) < 1e-12);
  assert.equal(rows.length, 6);
});

test("outcome-level pass rates, uplift and cell transitions (hand computed)", () => {
  const p = prepareStore(tinyStore());
  const r = outcomeLevel(p, settings);
  assert.ok("overall" in r);
  // binary none/curated after dedup: none a1 F, a3 P, b1 F, c1 F; curated a2 F, b2 P
  assert.deepEqual(
    [r.overall.trials_none, r.overall.passes_none, r.overall.trials_curated, r.overall.passes_curated],
    [4, 1, 2, 1],
  );
  assert.equal(r.overall.uplift, 1 / 2 - 1 / 4);
  // cells (task, harness, model, source): t1 none {F, P} = mixed → curated {F} = FAIL-only; t2 none {F, F} → curated {P}
  const cell = (from: string, to: string) => r.cell_transitions.find((c) => c.from === from && c.to === to)!.cells;
  assert.equal(cell("mixed", "FAIL-only"), 1);
  assert.equal(cell("FAIL-only", "PASS-only"), 1);
  assert.deepEqual([r.cells_paired, r.gained, r.lost], [2, 1, 1]);
});

test("RQ5 transfer gates and the same-task pair check", () => {
  const p = prepareStore(tinyStore());
  const r = rq5Reliability(p, settings);
  const t = r.transfer[0];
  // per task: i1 valid; i2 assertion_ref missing; i3 valid; i4 quote not verbatim → 2 of 4 valid
  assert.deepEqual([t.tasks, t.items, t.valid_items, t.failed_quote, t.failed_assertion], [2, 8, 4, 2, 2]);
  const pc = r.pair_check[0];
  // t1: first PASS a3 (1) vs first FAIL a1 (.25) → higher; t2: b2 (1) vs b1 (.5) → higher
  assert.deepEqual(
    [pc.tasks_with_both, pc.decidable, pc.higher, pc.lower, pc.equal, pc.median_delta],
    [2, 2, 2, 0, 0, 0.625],
  );
  assert.equal(pc.sign_test_p, 0.5);
  assert.equal((r.reliability as any).available, false);
  assert.equal((r.judge_substitution as any).available, false);
});

test("analyzeStore is deterministic: same store and seed → identical JSON", () => {
  const a = JSON.stringify(analyzeStore(tinyStore(), settings, { perTrajectory: true }));
  const b = JSON.stringify(analyzeStore(tinyStore(), settings, { perTrajectory: true }));
  assert.equal(a, b);
});

test("degenerate samples give explicit notes, never NaN: one class, one task, empty, all tied", async () => {
  const { aucWithCI } = await import("../analysis/rq/common.js");
  const oneClass = aucWithCI(
    "m",
    [
      { score: 0.1, pass: true, task: "a" },
      { score: 0.2, pass: true, task: "b" },
    ],
    settings,
    "x",
  );
  assert.deepEqual([oneClass.auc, oneClass.ci, oneClass.note], [null, null, "AUC undefined: only one outcome class"]);
  const empty = aucWithCI("m", [], settings, "x");
  assert.deepEqual([empty.auc, empty.n, empty.note], [null, 0, "no scored trajectories"]);
  const oneTask = aucWithCI(
    "m",
    [
      { score: 0.1, pass: false, task: "a" },
      { score: 0.9, pass: true, task: "a" },
    ],
    settings,
    "x",
  );
  assert.equal(oneTask.auc, 1);
  assert.equal(oneTask.ci, null);
  assert.match(oneTask.note!, /not estimable \(contract rule 14\): 1 task\(s\)/);
  const tied = aucWithCI(
    "m",
    [0, 1, 2, 3].map((k) => ({ score: 0.5, pass: k % 2 === 0, task: `t${k}` })),
    settings,
    "x",
  );
  assert.equal(tied.auc, 0.5);
  assert.ok(tied.ci === null || (tied.ci[0] === 0.5 && tied.ci[1] === 0.5));
  assert.ok(JSON.stringify([oneClass, empty, oneTask, tied]).indexOf("NaN") === -1);
});

// Contract rules 12 (no trial index, never matched) and 14 (an interval that cannot be computed is null).
import { aucWithCI } from "../analysis/rq/common.js";

test("rule 14: no bootstrap is redrawn around a sample where < 2 tasks hold a PASS: the CI is null with a reason", () => {
  // One task holds both classes, the other only FAILs: the old code redrew until it found a
  // draw with both classes and printed a degenerate interval.
  const rows = [
    { score: 0.9, pass: true, task: "a" },
    { score: 0.2, pass: false, task: "a" },
    { score: 0.6, pass: false, task: "a" },
    { score: 0.4, pass: false, task: "b" },
    { score: 0.7, pass: false, task: "b" },
  ];
  const r = aucWithCI(
    "gcpc",
    rows,
    { seed: 1, resamples: 200, headline_resamples: 200, level: 0.95, interval: "percentile" as const },
    "t",
  );
  assert.equal(r.auc, 1);
  assert.equal(r.ci, null);
  assert.equal(r.bootstrap, null);
  assert.match(r.note!, /not estimable \(contract rule 14\): 2 task\(s\), 1 holding a PASS, 2 holding a FAIL/);
  assert.equal(r.few_clusters, true);
});

test("rule 14: with 2..9 tasks the interval is shown and flagged few_clusters; with 10 it is not flagged", () => {
  const rows = (tasks: number) =>
    Array.from({ length: tasks * 4 }, (_, i) => ({
      score: ((i * 7919) % 13) / 13,
      pass: i % 2 === 0,
      task: `t${i % tasks}`,
    }));
  const few = aucWithCI(
    "gcpc",
    rows(4),
    { seed: 1, resamples: 200, headline_resamples: 200, level: 0.95, interval: "percentile" as const },
    "t",
  );
  assert.ok(few.ci !== null && few.few_clusters);
  assert.match(few.note!, /few_clusters: 4 tasks/);
  const enough = aucWithCI(
    "gcpc",
    rows(10),
    { seed: 1, resamples: 200, headline_resamples: 200, level: 0.95, interval: "percentile" as const },
    "t",
  );
  assert.ok(enough.ci !== null && !enough.few_clusters && enough.note === undefined);
});

test("rule 12: a trajectory without a trial index is never matched and is counted as unmatched_no_trial", () => {
  const s = tinyStore();
  for (const t of s.trajectories) delete (t as { trial?: number }).trial;
  const r = matchPairs(prepareStore(s));
  assert.equal(r.pairs.length, 0, "null-to-null is not a match");
  assert.equal(r.duplicate_trials, 0, "not counted as duplicates");
  const binaryNoneOrCurated = prepareStore(s).trajectories.filter(
    (t) => t.outcome && (t.condition === "none" || t.condition === "curated"),
  ).length;
  assert.equal(r.unmatched_no_trial, binaryNoneOrCurated);
});

test("RQ5 α's interval resamples tasks, not trajectories (trajectories nest in tasks)", async () => {
  const { readStore } = await import("../store/read-store.js");
  const { analyzeStore } = await import("../analysis/rq/report.js");
  const { store } = await readStore(new URL("../data/demo", import.meta.url).pathname);
  const rel = analyzeStore(store, { ...settings, resamples: 300, headline_resamples: 300 }).rq5.reliability;
  assert.ok("tasks" in rel);
  assert.ok(rel.tasks < rel.units, `${rel.tasks} tasks, ${rel.units} units`);
  assert.equal(rel.bootstrap?.clusters, rel.tasks);
  assert.match(rel.bootstrap?.estimator ?? "", /tasks resampled/);
});

test("scoreColumns gives, per variant, what scores gives trajectory by trajectory (read and in-memory stores)", async () => {
  const { readStore } = await import("../store/read-store.js");
  const { generateDemoStore } = await import("../store/generate/demo-store.js");
  const { OUTCOME_STEP_VARIANTS, PER_TEST_VARIANTS } = await import("../analysis/rq/rq4-ablations.js");
  const variants = [
    ...OUTCOME_STEP_VARIANTS,
    ...PER_TEST_VARIANTS,
    { step: { propagation: false, endpoint: false }, abstention: "forced_no" as const },
  ];
  const read = (await readStore(new URL("../data/demo", import.meta.url).pathname)).store;
  for (const store of [read, generateDemoStore({ seed: 3, scale: 0.2 })]) {
    const p = prepareStore(store);
    // Every kept trajectory, one the store does not keep, and one it never had.
    const list = [...p.trajectories, ...store.trajectories.filter((t) => !p.byId.has(t.trajectory_id)).slice(0, 1)];
    list.push({ ...p.trajectories[0], trajectory_id: "not-in-the-store" });
    const columns = p.scoreColumns(list, variants);
    let finite = 0;
    list.forEach((t, i) => {
      const one = p.scores(t.trajectory_id, variants);
      variants.forEach((_, v) => {
        assert.ok(Object.is(columns[v][i], one[v]), `${t.trajectory_id}, variant ${v}: ${columns[v][i]} vs ${one[v]}`);
        if (Number.isFinite(one[v])) finite++;
      });
    });
    assert.ok(finite > list.length, "most trajectories score");
    // Given the kept trajectories' slots, the same columns without their ids looked up.
    const bySlot = p.scoreColumns(p.trajectories, variants, Int32Array.from(p.trajectories.keys()));
    for (let v = 0; v < variants.length; v++)
      for (let k = 0; k < p.trajectories.length; k++)
        assert.ok(Object.is(bySlot[v][k], columns[v][k]), `slot ${k}, variant ${v}`);
  }
});

test("by slot, runsAt, labelsAt and scoreAt give what runsOf, labelsOf and score give by id (every judge, run and variant)", async () => {
  const { generateDemoStore } = await import("../store/generate/demo-store.js");
  const { PLAIN, WITH_OFFICIAL_OUTCOME } = await import("../analysis/scoring/official-outcome.js");
  const { readStore } = await import("../store/read-store.js");
  // Read from disk, the runs also come by position (LabelVectors.byPosition); generated, through the Map.
  const read = (await readStore(new URL("../data/demo", import.meta.url).pathname)).store;
  assert.ok(read.labels?.byPosition, "the Parquet reader gives the runs by position");
  for (const store of [read, generateDemoStore({ seed: 3 })])
    checkBySlot(prepareStore(store), PLAIN, WITH_OFFICIAL_OUTCOME);
});

function checkBySlot(
  p: ReturnType<typeof prepareStore>,
  ...steps: Parameters<ReturnType<typeof prepareStore>["score"]>[1][]
) {
  let repeated = 0;
  let otherJudge = 0;
  for (const [k, t] of p.trajectories.entries()) {
    const id = t.trajectory_id;
    const runs = p.runsAt(k) ?? [];
    assert.deepEqual(
      runs.map(({ judge, run }) => ({ judge, run })),
      p.runsOf(id),
    );
    if (runs.length > 1) repeated++;
    if (runs.some((r) => r.judge !== p.primaryJudge)) otherJudge++;
    const decoded = (labels: string | undefined) => (labels === undefined ? undefined : decodeLabels(labels));
    assert.deepEqual(decoded(p.labelsAt(k)), p.labelsOf(id));
    for (const { judge, run } of [...runs, { judge: "no such judge", run: 1 }]) {
      assert.deepEqual(decoded(p.labelsAt(k, judge, run)), p.labelsOf(id, judge, run), `${id} ${judge} ${run}`);
      for (const step of steps)
        for (const abstention of ["exclude", "forced_no"] as const) {
          const byId = p.score(id, step, abstention, judge, run);
          assert.ok(Object.is(p.scoreAt(k, step, abstention, judge, run), byId), `${id} ${judge} ${run}`);
          if (p.labelsOf(id, judge, run) === undefined) assert.ok(Number.isNaN(byId));
        }
    }
  }
  // The demo holds repeated runs and a second judge, so both paths are exercised.
  assert.ok(repeated > 0 && otherJudge > 0, `${repeated} repeated, ${otherJudge} with another judge`);
}
