import { gradeTableOf } from "../../schema/grades.js";
import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  seedFor,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import { signTestPValue } from "../../stats/sign-test.js";
import { quantileSorted } from "../../stats/quantile.js";
import { taskClusters } from "../common.js";
import { criterionEffects, type CriterionEffect } from "../criterion-effects.js";
import {
  armSides,
  pairArms,
  type ArmField,
  type ArmPair,
  type ArmView,
  type Pairing,
  type Selector,
  ARM_FIELDS,
} from "./arm-pairs.js";
import { fieldOf } from "./arm-view.js";
import { methodScoreMaps } from "../method-scores.js";
import { noiseFloor, type FloorName } from "../noise-floor.js";
import { isOutcomeFree, NOT_OUTCOME_FREE } from "../outcome-free.js";
import { isBinary, scoringJudge, type PreparedStore } from "../prepared.js";
import { PLAIN } from "../../scoring/official-outcome.js";
import { compareCodePoints } from "../../order.js";
import { transitionTests, type PairOutcome, type TransitionGroup, type TransitionTests } from "./transition-tests.js";
import { cellKeyOf, comparePairs, type PairingChoice } from "./compare-pairs.js";
import { judgeCorrectedDelta, referenceJudgeOf, type CorrectionOptions } from "./judge-corrected.js";
import { unpairedCompare, type UnpairedCompareResult } from "./unpaired-compare.js";
import type { ArmSummary } from "./arm-summary.js";
import type { PpiEstimate } from "../../stats/ppi-mean.js";

export { ARM_FIELDS, type ArmField, type Pairing, type Selector } from "./arm-pairs.js";
export { fieldOf } from "./arm-view.js";

export type { ArmSummary } from "./arm-summary.js";

export interface TransitionCell extends TransitionTests {
  /** Pairs with a score on both sides: every figure of the cell (Δ, shares, tests, per-item tests) is over these. */
  n: number;
  /** Pairs of this transition left out because a side has no score (e.g. a zero-evidence run). */
  unscored: number;
  /** Δ = score(b) − score(a) over the cell's pairs: quartiles, mean, and how many moved beyond the noise floor. */
  delta: { mean: number | null; q25: number | null; median: number | null; q75: number | null };
  improved_share: number | null;
  regressed_share: number | null;
  tasks: number;
}

export interface CompareResult {
  method: string;
  /**
   * What every view prints beside the figures: the score is not outcome-free, few matched tasks, the arms ran
   * different task sets. Empty when there is nothing to say.
   */
  caveats: string[];
  a: ArmSummary;
  b: ArmSummary;
  where: Selector;
  /** The fields both sides of a pair share (besides the task; and the trial index under trial pairing). */
  matched_on: string[];
  pairing: PairingChoice;
  matched: { tasks: number; pairs: number; unmatched_a: number; unmatched_b: number; no_trial: number };
  pass_rate_delta: {
    /**
     * Each side's pass rate over the matched units (the mean over units of the unit's pass rate): the two
     * figures the Δ is the difference of. ArmSummary.pass_rate is over all of the arm's runs, matched or not.
     */
    rate_a: number | null;
    rate_b: number | null;
    estimate: number | null;
    ci: [number, number] | null;
    /**
     * Two-sided: exact McNemar when every task holds one trial pair; else the task-level sign-flip test of the
     * per-task differences (clustered: repeated attempts of a task are not independent).
     */
    p: number | null;
    test: string;
    /** Whether the test treats the task as the unit (true) or the pairs as independent (McNemar). */
    clustered: boolean;
    bootstrap: BootstrapDescriptor | null;
    /** Set when there is no pass-rate Δ (a store with no binary outcome): why, in one line. */
    reason?: string;
  };
  /**
   * The score's Δ (b − a; GCPC by default) over the same matched units: per unit the mean score of each side's
   * attempts, the mean over units, a task-clustered CI and the task-level sign-flip test.
   */
  score_delta: {
    method: string;
    estimate: number | null;
    ci: [number, number] | null;
    degenerate?: true;
    p: number | null;
    test: string;
    test_mc_se?: number | null;
    tasks: number;
    units: number;
    bootstrap?: BootstrapDescriptor | null;
    /** `--judge-corrected`: the Δ as the reference judge (`reference_judge`) would have scored both arms. */
    corrected?: PpiEstimate | NotAvailable;
    reference_judge?: string;
  };
  transitions: Record<string, TransitionCell> | NotAvailable;
  items: { fail_fail: CriterionEffect[]; all: CriterionEffect[] } | NotAvailable;
  /** The attempt floor when an arm repeats attempts, else the judge retest floor (analysis/rq/noise-floor.ts). */
  noise_floor: {
    name: FloorName;
    value: number;
    source: "measured between attempts" | "measured between runs" | "paper";
    n: number;
    definition: string;
  };
}

/**
 * One trajectory as a comparison of arms reads it: its fields, attempt, outcome and score. The binary ones only,
 * unless the store has no binary outcome at all (a rubric table imported without --outcome): then every
 * trajectory, its outcome null, and only the score is compared (GCPC needs no outcome).
 */
export interface ArmRow {
  id: string;
  task: string;
  fields: Record<ArmField, string | null>;
  trial: number | null;
  outcome: "PASS" | "FAIL" | null;
  /** The compared score (NaN-free: null when the trajectory has none, e.g. zero-evidence GCPC). */
  score: number | null;
  /**
   * The judge whose labels give a GCPC score (prepared.ts, scoringJudge; the named one with `--judge`); absent
   * for other methods and when the store has one judge.
   */
  judge?: string;
}

/**
 * Everything `compareArmTable` reads, plain data: what the CLI builds from a prepared store ({@link armTable})
 * and what the site ships to the browser, so both compute the same numbers with the same code and seeds.
 */
export interface ArmTable {
  method: string;
  /** Whether the method's score is free of the outcome (analysis/rq/outcome-free.ts; Terminal-Bench's aren't). */
  outcome_free: boolean;
  /** The binary trajectories in trajectory_id order. */
  rows: ArmRow[];
  /** Each row's primary-run label string (label-vectors.ts) and each task's checklist, for the per-item tests. */
  labels: string[] | null;
  /** The grade of each grade character the labels use (schema_version 2 grades; absent when none). */
  grades?: Record<string, number>;
  checklist: Record<string, { item_id: string; text: string; category?: string | null; route: string }[]>;
  /** The noise floor when no arm repeats attempts: the store's repeated scoring runs, or the paper's constant. */
  fallbackFloor: {
    name: "judge retest floor";
    value: number;
    source: "measured between runs" | "paper";
    n: number;
    definition: string;
  };
}

/** The arm table of a prepared store for a method's scores (GCPC by default). */
export function armTable(p: PreparedStore, method = "gcpc", judge?: string): ArmTable | NotAvailable {
  const scores = methodScoreMaps(p).get(method);
  if (!scores) return notAvailable(`no scores for method "${method}"`);
  if (judge !== undefined && method !== "gcpc") return notAvailable("--judge scores GCPC: drop --method");
  if (judge !== undefined && !p.counts.judges.includes(judge))
    return notAvailable(`no judge "${judge}" in the store (its judges: ${p.counts.judges.join(", ") || "none"})`);
  // Which judge scores each row (issue 45.2): said beside a Δ whose arms were scored by different judges.
  const severalJudges = method === "gcpc" && p.counts.judges.length > 1;
  const scoreOf = (k: number, id: string) =>
    judge === undefined ? scores.get(id) : p.scoreAt(k, PLAIN, "exclude", judge);
  const rows: ArmRow[] = [];
  const labels: string[] = [];
  const anyBinary = p.trajectories.some(isBinary);
  for (const [k, t] of p.trajectories.entries()) {
    if (anyBinary && !isBinary(t)) continue;
    const fields = Object.fromEntries(ARM_FIELDS.map((f) => [f, fieldOf(p, t, f)])) as Record<ArmField, string | null>;
    const score = scoreOf(k, t.trajectory_id);
    rows.push({
      id: t.trajectory_id,
      task: t.task_id,
      fields,
      trial: t.trial ?? null,
      outcome: isBinary(t) ? (t.outcome as "PASS" | "FAIL") : null,
      score: score === undefined || !Number.isFinite(score) ? null : score,
      ...(severalJudges ? { judge: judge ?? scoringJudge(p.runsAt(k), p.primaryJudge) } : {}),
    });
    labels.push(p.labelsAt(k, judge) ?? "");
  }
  const checklist = Object.fromEntries(
    [...p.checklist].map(([task, items]) => [
      task,
      items.map((it) => ({ item_id: it.item_id, text: it.text, category: it.category ?? null, route: it.route })),
    ]),
  );
  const store = noiseFloor(p);
  const grades = p.hasJudgments ? gradeTableOf(labels) : undefined;
  return {
    method,
    outcome_free: isOutcomeFree(p, method),
    rows,
    labels: p.hasJudgments ? labels : null,
    ...(grades ? { grades } : {}),
    checklist,
    fallbackFloor: {
      name: "judge retest floor",
      value: store.value,
      source: store.source === "measured" ? "measured between runs" : "paper",
      n: store.trajectories,
      definition: store.definition,
    },
  };
}

/**
 * Any two arms of a store compared on matched units (paper §4.3's with/without-skill pairs, generalised): a
 * pair shares its task and every descriptive field that neither arm nor the filter names ("everything else
 * equal"). Trial pairing matches attempt k with attempt k (a trajectory without a trial index is never
 * matched, contract rule 12); task pairing compares each matched cell's mean over its attempts. The pass-rate
 * Δ (b − a) is the mean over pairs, its CI a task-clustered paired bootstrap, with an exact paired test
 * beside it; under trial pairing the four outcome transitions carry the score's Δ distribution, its median
 * with a task-clustered CI and the shares beyond the noise floor, and every checklist item gets an exact
 * McNemar test with BH q (FAIL→FAIL pairs and all pairs).
 */
export function compareArms(
  p: PreparedStore,
  o: {
    a: Selector;
    b: Selector;
    where?: Selector;
    pair?: Pairing;
    method?: string;
    /** GCPC scored by this judge on every trajectory (one it did not label has no score). */
    judge?: string;
    settings: BootstrapSettings;
    /** The GCPC Δ corrected towards the store's reference judge (judge-corrected.ts). */
    corrected?: CorrectionOptions;
  },
): CompareResult | UnpairedCompareResult | NotAvailable {
  const table = armTable(p, o.method ?? "gcpc", o.judge);
  if ("available" in table) return table;
  const r = compareArmTable(table, o);
  if ("available" in r || "unpaired" in r || !o.corrected) return r;
  if (table.method !== "gcpc") return notAvailable("--judge-corrected corrects the GCPC Δ: drop --method");
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") return reference;
  const units = armMatchedUnits(table, o);
  if ("available" in units) return units;
  const byId = new Map(table.rows.map((row) => [row.id, row.score ?? NaN]));
  const ids = (ks: number[]) => ks.map((k) => table.rows[k].id);
  const sides = [JSON.stringify(o.a), JSON.stringify(o.b)].sort().join("|");
  const figure = `compare:${sides}:${JSON.stringify(o.where ?? {})}`;
  const corrected = judgeCorrectedDelta(
    p,
    units.units.map((u) => ({ task: u.task, a: ids(u.a), b: ids(u.b) })),
    (id) => byId.get(id) ?? NaN,
    reference,
    o.settings,
    figure,
    o.corrected,
  );
  return { ...r, score_delta: { ...r.score_delta, corrected, reference_judge: reference } };
}

/**
 * The matched pairs of two arms by trial index (as `gcpc compare --pair trial` matches them): each pair's task
 * and the two rows of the arm table (arms that overlap, even an arm with itself, are refused). What the
 * explorer's arms mode lists.
 */
export function armTrialPairs(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector },
): { task: string; a: number; b: number }[] | NotAvailable {
  const view = tableView(table.rows);
  const chosen = armSides(view, o, false);
  if ("available" in chosen) return chosen;
  const { pairs } = pairArms(view, chosen.sides, chosen.shared, "trial");
  return pairs.map((x) => ({ task: x.task, a: x.a[0], b: x.b[0] }));
}

/**
 * The matched units of a comparison as `compareArmTable` pairs them with the same options (trial pairs, or under
 * task pairing each matched cell's attempts): the task and the arm table's rows on each side. What the Compare
 * page's per-task table, scatter and drill-down show, so that they hold exactly the units the Δ is over.
 */
export function armMatchedUnits(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector; pair?: Pairing },
): { mode: Pairing; units: { task: string; a: number[]; b: number[] }[] } | NotAvailable {
  const rows = table.rows;
  const compared = comparePairs(tableView(rows), o, {
    pair: o.pair,
    selfPairs: true,
    // The units only: outcomes pair into transitions, which this does not read.
    outcome: (k) => rows[k].outcome ?? "FAIL",
    score: (k) => rows[k].score ?? NaN,
  });
  if ("available" in compared) return compared;
  return {
    mode: compared.pairing.mode,
    units: compared.built.pairs.map((x) => ({ task: x.task, a: [...x.a], b: [...x.b] })),
  };
}

/** The arm table's rows as the pairing reads them (analysis/rq/arm-pairs.ts). */
export function tableView(rows: readonly ArmRow[]): ArmView {
  return {
    slots: rows.map((_, k) => k),
    id: (k) => rows[k].id,
    task: (k) => rows[k].task,
    column: (f) => (k) => rows[k].fields[f],
    trial: (k) => rows[k].trial,
  };
}

/** {@link compareArms} on an arm table: the same code the site's Compare page runs in the browser. */
export function compareArmTable(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector; pair?: Pairing; settings: BootstrapSettings },
): CompareResult | UnpairedCompareResult | NotAvailable {
  const where = o.where ?? {};
  const rows = table.rows;
  const score = (k: number) => rows[k].score ?? NaN;
  // The comparison verb (analysis/rq/arms/compare-pairs.ts), as RQ3 calls it with the paper's options.
  const hasOutcome = rows.some((r) => r.outcome !== null);
  const compared = comparePairs(tableView(rows), o, {
    pair: o.pair,
    selfPairs: true,
    // Without any outcome the transitions are not computed (below): the placeholder is never read.
    outcome: (k) => rows[k].outcome ?? "FAIL",
    score,
  });
  if ("available" in compared) return compared;
  const { sides, shared, pairing, built } = compared;
  const figure = `compare:${[JSON.stringify(o.a), JSON.stringify(o.b)].sort().join("|")}:${JSON.stringify(where)}`;
  const a = summary(rows, o.a, sides.a);
  const b = summary(rows, o.b, sides.b);
  // No unit matches (e.g. each arm ran its own tasks): each arm over its own tasks, labelled unpaired.
  if (built.pairs.length === 0) return unpairedCompare(table, sides, { a, b }, { where, settings: o.settings, figure });
  const floor = measuredFloor(table, sides, shared, score);
  const tasks = new Set(built.pairs.map((x) => x.task)).size;
  return {
    method: table.method,
    caveats: [...caveatsOf(table, a, b, tasks), ...judgeCaveat(rows, built.pairs)],
    a,
    b,
    where,
    matched_on: shared,
    pairing,
    matched: {
      tasks,
      pairs: built.pairs.length,
      unmatched_a: built.unmatched.a,
      unmatched_b: built.unmatched.b,
      no_trial: built.noTrial,
    },
    pass_rate_delta: hasOutcome
      ? passRateDelta(rows, built.pairs, pairing.mode, o.settings, `${figure}:pass_rate`)
      : noPassRateDelta(),
    score_delta: scoreDelta(table, built.pairs, o.settings, `${figure}:score`),
    transitions: !hasOutcome
      ? notAvailable(NO_OUTCOME)
      : pairing.mode === "trial"
        ? transitions(compared.groups, floor.value, o.settings, figure)
        : notAvailable("task pairing: an attempt has no partner, so outcomes do not pair into transitions"),
    items:
      pairing.mode === "trial"
        ? items(
            table,
            // The transitions' pairs: a side without a score (zero-evidence) has no verdicts to compare either.
            built.pairs.filter((x) => Number.isFinite(score(x.a[0])) && Number.isFinite(score(x.b[0]))),
          )
        : notAvailable("task pairing: per-item changes need attempt-level pairs (use --pair trial)"),
    noise_floor: floor,
  };
}

/**
 * Issue 45.2: an arm scored by another judge than the arm it is compared with (InfoBench-style data, each model
 * judged by another): which judge scored each side's matched attempts, when the sides differ.
 */
function judgeCaveat(rows: ArmRow[], pairs: ArmPair[]): string[] {
  const judges = (side: "a" | "b") => {
    const counts = new Map<string, number>();
    for (const x of pairs)
      for (const k of x[side]) if (rows[k].judge) counts.set(rows[k].judge!, (counts.get(rows[k].judge!) ?? 0) + 1);
    return [...counts].sort((p, q) => q[1] - p[1] || compareCodePoints(p[0], q[0]));
  };
  const a = judges("a");
  const b = judges("b");
  const text = (js: [string, number][]) => js.map(([j, n]) => `${j} (${n})`).join(", ");
  if (a.length === 0 || b.length === 0 || JSON.stringify(a.map(([j]) => j)) === JSON.stringify(b.map(([j]) => j)))
    return [];
  return [
    `the arms were scored by different judges (a: ${text(a)}; b: ${text(b)}): the score Δ mixes the arms with ` +
      "their judges; --judge NAME scores both by one",
  ];
}

/** The caveats a reader needs beside the figures (CompareResult.caveats). */
function caveatsOf(table: ArmTable, a: ArmSummary, b: ArmSummary, tasks: number): string[] {
  const out: string[] = [];
  if (!table.outcome_free)
    out.push(
      `${table.method} is ${NOT_OUTCOME_FREE}: a FAIL→PASS pair gains on them by definition, so its Δ and the ` +
        "transitions restate the outcome, not evidence beyond it",
    );
  if (tasks < 2) out.push(`${tasks} matched task: no interval and no test can rest on it`);
  else if (tasks < FEW_CLUSTERS)
    out.push(`few tasks: ${tasks} matched tasks (fewer than ${FEW_CLUSTERS}): the intervals cover less often than 95%`);
  if (a.tasks !== tasks || b.tasks !== tasks)
    out.push(
      `different task sets: a ran ${a.tasks} tasks, b ${b.tasks}; every figure is on their ${tasks} common tasks`,
    );
  return out;
}

function summary(rows: ArmRow[], selector: Selector, slots: number[]): ArmSummary {
  const passes = slots.filter((k) => rows[k].outcome === "PASS").length;
  const binary = slots.filter((k) => rows[k].outcome !== null).length;
  return {
    selector,
    trajectories: slots.length,
    tasks: new Set(slots.map((k) => rows[k].task)).size,
    pass_rate: binary ? passes / binary : null,
  };
}

/** What a comparison without any binary outcome says of the pass rate and the transitions, in one line. */
export const NO_OUTCOME = "the store has no binary outcome (PASS/FAIL): the pass rate and its transitions need one";

/** The pass-rate Δ of a store with no outcome: its reason, no figure. */
function noPassRateDelta() {
  return {
    rate_a: null,
    rate_b: null,
    estimate: null,
    ci: null,
    p: null,
    test: NO_OUTCOME,
    clustered: false,
    bootstrap: null,
    reason: NO_OUTCOME,
  };
}

const passOf = (rows: ArmRow[], slots: number[]) =>
  slots.reduce((n, k) => n + (rows[k].outcome === "PASS" ? 1 : 0), 0) / slots.length;

/** Per task (dense clusters in order of first appearance): the sum of the units' Δ and their count. */
function taskSums(d: readonly number[], units: readonly { task: string }[]) {
  const { clusterOf, clusters } = taskClusters(units.map((x) => x.task));
  const sum = new Float64Array(clusters);
  const count = new Float64Array(clusters);
  d.forEach((x, i) => {
    sum[clusterOf[i]] += x;
    count[clusterOf[i]]++;
  });
  return { sum, count, clusters };
}

/** Mean over pairs of pass(b) − pass(a); a task-clustered bootstrap of that mean; the exact paired test. */
function passRateDelta(rows: ArmRow[], pairs: ArmPair[], mode: Pairing, settings: BootstrapSettings, figure: string) {
  const rateA = pairs.map((x) => passOf(rows, x.a));
  const rateB = pairs.map((x) => passOf(rows, x.b));
  const d = pairs.map((_, i) => rateB[i] - rateA[i]);
  const { sum, count, clusters } = taskSums(d, pairs);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const estimate = mean(d);
  const test = pairedTest(d, sum, count, mode, seedFor(settings, `${figure}:sign-flip`));
  const base = {
    rate_a: mean(rateA),
    rate_b: mean(rateB),
    estimate,
    p: finite(test.p),
    test: test.name,
    clustered: test.clustered,
  };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator: "mean over matched units of pass(b) − pass(a); task-clustered paired percentile bootstrap (type-7)",
    statistics: { delta: (w) => weightedRatio(w, sum, count) },
  });
  return { ...base, ci: res.ci.delta, bootstrap: res.bootstrap };
}

/** Mean of the finite scores of a side's slots (null when none has a score). */
function meanScore(rows: ArmRow[], slots: number[]): number | null {
  let s = 0;
  let n = 0;
  for (const k of slots) {
    const v = rows[k].score;
    if (v !== null) {
      s += v;
      n++;
    }
  }
  return n ? s / n : null;
}

/**
 * The score's Δ (partial credit, GCPC by default) paired like the pass rate: per matched unit the mean score of
 * b's attempts minus a's (units where a side has no score left out); the mean over units; a task-clustered
 * paired bootstrap CI; the task-level sign-flip test of each task's summed Δ (Monte Carlo unless the scores
 * share a small grid). Under task pairing it is the partial-credit answer the pass rate cannot give.
 */
function scoreDelta(table: ArmTable, pairs: ArmPair[], settings: BootstrapSettings, figure: string) {
  const rows = table.rows;
  const kept = pairs
    .map((x) => ({ task: x.task, a: meanScore(rows, x.a), b: meanScore(rows, x.b) }))
    .filter((x): x is { task: string; a: number; b: number } => x.a !== null && x.b !== null);
  const method = table.method;
  if (kept.length === 0)
    return {
      method,
      estimate: null,
      ci: null,
      p: null,
      test: "no unit with a score on both sides",
      tasks: 0,
      units: 0,
    };
  const d = kept.map((x) => x.b - x.a);
  const { sum, count, clusters } = taskSums(d, kept);
  const flip = signFlipTest(sum, { seed: seedFor(settings, `${figure}:sign-flip`) });
  const base = {
    method,
    estimate: d.reduce((x, y) => x + y, 0) / d.length,
    p: finite(flip.pValue),
    test: `each task's summed ${method} Δ is one unit of the ${flip.method}`,
    test_mc_se: flip.mc_se,
    tasks: clusters,
    units: d.length,
  };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator:
      `mean over matched units of mean ${method}(b) − mean ${method}(a); ` +
      "task-clustered paired percentile bootstrap (type-7)",
    statistics: { delta: (w) => weightedRatio(w, sum, count) },
  });
  return { ...base, ci: res.ci.delta, ...degenerateMark(res.bootstrap), bootstrap: res.bootstrap };
}

/**
 * The paired test of the pass-rate Δ. Trial pairs, one per task: exact McNemar. Several pairs in a task
 * (repeated attempts, or several cells), or task pairing: the units are not independent, so the test is the
 * task-level sign-flip test of each task's summed difference D_t = Σ (pass(b) − pass(a)) over its pairs
 * (its discordance FAIL→PASS − PASS→FAIL under trial pairing), exact on the grid of the task means.
 */
function pairedTest(
  d: number[],
  perTask: Float64Array,
  count: Float64Array,
  mode: Pairing,
  seed: string,
): { p: number; name: string; clustered: boolean } {
  const clusters = count.length;
  const repeated = count.reduce((n, c) => n + (c > 1 ? 1 : 0), 0);
  if (mode === "trial" && repeated === 0) {
    const up = d.filter((x) => x > 0).length;
    const down = d.filter((x) => x < 0).length;
    return {
      p: up + down === 0 ? NaN : signTestPValue(Math.min(up, down), up + down),
      name: `exact McNemar (binomial on the ${up + down} discordant pairs: ${up} FAIL→PASS, ${down} PASS→FAIL)`,
      clustered: false,
    };
  }
  const flip = signFlipTest(perTask, { seed });
  const what =
    mode === "trial"
      ? `task-clustered: ${repeated} of ${clusters} tasks hold several trial pairs, which are not independent, so ` +
        "each task's discordance (FAIL→PASS − PASS→FAIL) is one unit of"
      : "each task's summed per-cell pass-rate difference is one unit of";
  return { p: flip.pValue, name: `${what} the ${flip.method}`, clustered: true };
}

/** The four transitions (RQ3's grouping, analysis/rq/arms/transition-tests.ts) in compare's columns. */
function transitions(
  groups: readonly TransitionGroup<PairOutcome>[],
  floor: number,
  settings: BootstrapSettings,
  figure: string,
): Record<string, TransitionCell> {
  const out: Record<string, TransitionCell> = {};
  for (const g of groups) {
    const cell = `${g.from}→${g.to}`;
    const deltas = g.columns.deltas;
    const sorted = Float64Array.from(deltas).sort();
    const q = (pr: number) => (sorted.length ? quantileSorted(sorted, pr) : null);
    const tests = transitionTests({ columns: g.columns, settings, figure: `${figure}:${cell}`, threshold: floor });
    const n = deltas.length;
    out[cell] = {
      n,
      unscored: g.unscored,
      delta: { mean: n ? deltas.reduce((a, b) => a + b, 0) / n : null, q25: q(0.25), median: q(0.5), q75: q(0.75) },
      improved_share: n ? deltas.filter((x) => x > floor).length / n : null,
      regressed_share: n ? deltas.filter((x) => x < -floor).length / n : null,
      tasks: g.columns.clusters,
      ...tests,
    };
  }
  return out;
}

function items(table: ArmTable, pairs: ArmPair[]) {
  const labels = table.labels;
  if (!labels) return notAvailable("the store holds no judgments");
  const rows = table.rows;
  // The per-item test reads label strings by row: the table's rows stand in for the prepared store's slots.
  const source = {
    slots: new Map(rows.map((r, k) => [r.id, k])),
    labelsAt: (k: number | undefined) => (k === undefined ? undefined : labels[k]),
    checklist: new Map(Object.entries(table.checklist)),
  };
  const list = pairs.map((x) => ({
    task_id: x.task,
    without_id: rows[x.a[0]].id,
    with_id: rows[x.b[0]].id,
    failFail: rows[x.a[0]].outcome === "FAIL" && rows[x.b[0]].outcome === "FAIL",
  }));
  return {
    fail_fail: criterionEffects(
      source,
      list.filter((r) => r.failFail),
    ),
    all: criterionEffects(source, list),
  };
}

/**
 * The noise floor "material" is measured against: where an arm has two or more attempts of a task (in the
 * same cell), the mean |score(attempt i) − score(attempt j)| over those attempt pairs of both arms, with its
 * n; else the store's repeated scoring runs, else the paper's constant (analysis/rq/noise-floor.ts).
 */
function measuredFloor(
  table: ArmTable,
  sides: { a: number[]; b: number[] },
  shared: readonly ArmField[],
  score: (k: number) => number,
): CompareResult["noise_floor"] {
  const cellKey = cellKeyOf(tableView(table.rows), shared);
  let sum = 0;
  let n = 0;
  for (const slots of [sides.a, sides.b]) {
    const cells = new Map<string, number[]>();
    for (const k of slots) {
      const v = score(k);
      if (!Number.isFinite(v)) continue;
      const key = cellKey(k);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key)!.push(v);
    }
    for (const values of cells.values())
      for (let i = 0; i < values.length; i++)
        for (let j = i + 1; j < values.length; j++) {
          sum += Math.abs(values[i] - values[j]);
          n++;
        }
  }
  if (n > 0)
    return {
      name: "attempt floor",
      value: sum / n,
      source: "measured between attempts",
      n,
      definition: `mean |score(attempt i) − score(attempt j)| over ${n} pairs of attempts of the same arm and task`,
    };
  return table.fallbackFloor;
}
