import {
  bootstrapIntervals,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { clusterSignTest } from "../stats/cluster-sign-test.js";
import { signTestPValue } from "../stats/sign-test.js";
import { quantileSorted } from "../stats/quantile.js";
import { compareCodePoints } from "../order.js";
import type { Trajectory } from "../schema/tables.js";
import { taskClusters } from "./common.js";
import { criterionEffects, type CriterionEffect } from "./criterion-effects.js";
import { methodScoreMaps } from "./method-scores.js";
import { noiseFloor } from "./noise-floor.js";
import { isBinary, type PreparedStore } from "./prepared.js";
import { transitionTests, type TransitionTests } from "./rq3-skill-effects.js";

/** The descriptive fields an arm, a filter or the matching can name (benchmark and domain are the task's). */
export const ARM_FIELDS = ["harness", "model", "source", "condition", "benchmark", "domain"] as const;
export type ArmField = (typeof ARM_FIELDS)[number];
export type Selector = Partial<Record<ArmField, string>>;
export type Pairing = "trial" | "task";

export interface ArmSummary {
  selector: Selector;
  trajectories: number;
  tasks: number;
  pass_rate: number | null;
}

export interface TransitionCell extends TransitionTests {
  n: number;
  /** Δ = score(b) − score(a) over the cell's pairs: quartiles, mean, and how many moved beyond the noise floor. */
  delta: { mean: number | null; q25: number | null; median: number | null; q75: number | null };
  improved_share: number | null;
  regressed_share: number | null;
  tasks: number;
}

export interface CompareResult {
  method: string;
  a: ArmSummary;
  b: ArmSummary;
  where: Selector;
  /** The fields both sides of a pair share (besides the task; and the trial index under trial pairing). */
  matched_on: string[];
  pairing: { mode: Pairing; chosen: "given" | "automatic"; reason: string };
  matched: { tasks: number; pairs: number; unmatched_a: number; unmatched_b: number; no_trial: number };
  pass_rate_delta: {
    estimate: number | null;
    ci: [number, number] | null;
    /** Exact McNemar (trial pairs) or the exact task-level sign-flip test (task pairs), two-sided. */
    p: number | null;
    test: string;
    bootstrap: BootstrapDescriptor | null;
  };
  transitions: Record<string, TransitionCell> | NotAvailable;
  items: { fail_fail: CriterionEffect[]; all: CriterionEffect[] } | NotAvailable;
  noise_floor: {
    value: number;
    source: "measured between attempts" | "measured between runs" | "paper";
    n: number;
    definition: string;
  };
}

/** A pair: the two sides' slots in the prepared store (task pairing: the cell's attempts, averaged). */
interface Pair {
  task: string;
  a: number[];
  b: number[];
}

/** A trajectory's value of a descriptive field (benchmark and domain through its task). */
export function fieldOf(p: PreparedStore, t: Trajectory, field: ArmField): string | null {
  if (field === "benchmark") return p.tasks.get(t.task_id)?.benchmark ?? null;
  if (field === "domain") return p.tasks.get(t.task_id)?.domain ?? null;
  return (t[field] as string | null | undefined) ?? null;
}

const matches = (p: PreparedStore, t: Trajectory, s: Selector) =>
  (Object.entries(s) as [ArmField, string][]).every(([f, v]) => fieldOf(p, t, f) === v);

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
  o: { a: Selector; b: Selector; where?: Selector; pair?: Pairing; method?: string; settings: BootstrapSettings },
): CompareResult | NotAvailable {
  const where = o.where ?? {};
  const method = o.method ?? "gcpc";
  const scores = methodScoreMaps(p).get(method);
  if (!scores) return notAvailable(`no scores for method "${method}"`);
  const named = new Set<string>([...Object.keys(o.a), ...Object.keys(o.b), ...Object.keys(where)]);
  const shared = ARM_FIELDS.filter((f) => !named.has(f));
  // An arm compared with itself pairs each trajectory with itself (every Δ is 0); other overlaps are refused.
  const itself = JSON.stringify(o.a) === JSON.stringify(o.b);
  const sides = { a: [] as number[], b: [] as number[] };
  for (const [k, t] of p.trajectories.entries()) {
    if (!isBinary(t) || !matches(p, t, where)) continue;
    const inA = matches(p, t, o.a);
    const inB = matches(p, t, o.b);
    if (inA && inB && !itself) return notAvailable(`trajectory ${t.trajectory_id} matches both arms: the arms overlap`);
    if (inA) sides.a.push(k);
    if (inB && (!inA || itself)) sides.b.push(k);
  }
  if (sides.a.length === 0 || sides.b.length === 0)
    return notAvailable(`arm ${sides.a.length === 0 ? "a" : "b"} selects no binary trajectory`);
  const pairing = choosePairing(p, sides, shared, o.pair);
  const built = buildPairs(p, sides, shared, pairing.mode);
  if (built.pairs.length === 0) return notAvailable("no unit matches between the arms (everything else equal)");
  const score = (k: number) => scores.get(p.trajectories[k].trajectory_id) ?? NaN;
  const floor = measuredFloor(p, sides, shared, score);
  const figure = `compare:${[JSON.stringify(o.a), JSON.stringify(o.b)].sort().join("|")}:${JSON.stringify(where)}`;
  return {
    method,
    a: summary(p, o.a, sides.a),
    b: summary(p, o.b, sides.b),
    where,
    matched_on: shared,
    pairing,
    matched: {
      tasks: new Set(built.pairs.map((x) => x.task)).size,
      pairs: built.pairs.length,
      unmatched_a: built.unmatched.a,
      unmatched_b: built.unmatched.b,
      no_trial: built.noTrial,
    },
    pass_rate_delta: passRateDelta(p, built.pairs, pairing.mode, o.settings, `${figure}:pass_rate`),
    transitions:
      pairing.mode === "trial"
        ? transitions(p, built.pairs, score, floor.value, o.settings, figure)
        : notAvailable("task pairing: an attempt has no partner, so outcomes do not pair into transitions"),
    items:
      pairing.mode === "trial"
        ? items(p, built.pairs)
        : notAvailable("task pairing: per-item changes need attempt-level pairs (use --pair trial)"),
    noise_floor: floor,
  };
}

function summary(p: PreparedStore, selector: Selector, slots: number[]): ArmSummary {
  const passes = slots.filter((k) => p.trajectories[k].outcome === "PASS").length;
  return {
    selector,
    trajectories: slots.length,
    tasks: new Set(slots.map((k) => p.trajectories[k].task_id)).size,
    pass_rate: slots.length ? passes / slots.length : null,
  };
}

/** The key of a trajectory's matching cell: its task and the shared fields. */
const cellKey = (p: PreparedStore, t: Trajectory, shared: readonly ArmField[]) =>
  JSON.stringify([t.task_id, ...shared.map((f) => fieldOf(p, t, f))]);

/** Trial pairing when every arm holds at most one attempt per cell, else task pairing (unless given). */
function choosePairing(
  p: PreparedStore,
  sides: { a: number[]; b: number[] },
  shared: readonly ArmField[],
  given?: Pairing,
): CompareResult["pairing"] {
  if (given) return { mode: given, chosen: "given", reason: `--pair ${given}` };
  const repeated = (slots: number[]) => {
    const seen = new Set<string>();
    for (const k of slots) {
      const key = cellKey(p, p.trajectories[k], shared);
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  };
  if (repeated(sides.a) || repeated(sides.b))
    return {
      mode: "task",
      chosen: "automatic",
      reason:
        "an arm holds several attempts per task: attempt k of one arm has no special relation to attempt k of " +
        "the other, so each matched task's mean over its attempts is compared",
    };
  return {
    mode: "trial",
    chosen: "automatic",
    reason: "one attempt per task and arm: the attempts pair by trial index",
  };
}

function buildPairs(p: PreparedStore, sides: { a: number[]; b: number[] }, shared: readonly ArmField[], mode: Pairing) {
  let noTrial = 0;
  const cells = new Map<string, { task: string; a: number[]; b: number[] }>();
  for (const side of ["a", "b"] as const)
    for (const k of sides[side]) {
      const t = p.trajectories[k];
      if (mode === "trial" && (t.trial === null || t.trial === undefined)) {
        noTrial++;
        continue;
      }
      const key = cellKey(p, t, shared) + (mode === "trial" ? `#${t.trial}` : "");
      if (!cells.has(key)) cells.set(key, { task: t.task_id, a: [], b: [] });
      cells.get(key)![side].push(k);
    }
  const pairs: Pair[] = [];
  const unmatched = { a: 0, b: 0 };
  for (const key of [...cells.keys()].sort(compareCodePoints)) {
    const c = cells.get(key)!;
    if (c.a.length === 0 || c.b.length === 0) {
      unmatched.a += c.a.length;
      unmatched.b += c.b.length;
      continue;
    }
    // Trial pairing: the first trajectory of each side (slot order = trajectory_id order), as RQ3 does.
    pairs.push(mode === "trial" ? { task: c.task, a: [c.a[0]], b: [c.b[0]] } : c);
  }
  return { pairs, unmatched, noTrial };
}

const passOf = (p: PreparedStore, slots: number[]) =>
  slots.reduce((n, k) => n + (p.trajectories[k].outcome === "PASS" ? 1 : 0), 0) / slots.length;

/** Mean over pairs of pass(b) − pass(a); a task-clustered bootstrap of that mean; the exact paired test. */
function passRateDelta(p: PreparedStore, pairs: Pair[], mode: Pairing, settings: BootstrapSettings, figure: string) {
  const d = pairs.map((x) => passOf(p, x.b) - passOf(p, x.a));
  const { clusterOf, clusters } = taskClusters(pairs.map((x) => x.task));
  const sum = new Float64Array(clusters);
  const count = new Float64Array(clusters);
  d.forEach((x, i) => {
    sum[clusterOf[i]] += x;
    count[clusterOf[i]]++;
  });
  const estimate = d.reduce((a, b) => a + b, 0) / d.length;
  let test: { p: number; name: string };
  if (mode === "trial") {
    const up = d.filter((x) => x > 0).length;
    const down = d.filter((x) => x < 0).length;
    test = {
      p: up + down === 0 ? NaN : signTestPValue(Math.min(up, down), up + down),
      name: `exact McNemar (binomial on the ${up + down} discordant pairs: ${up} FAIL→PASS, ${down} PASS→FAIL)`,
    };
  } else
    test = {
      p: clusterSignTest(d, clusterOf).pValue,
      name: "exact task-level sign-flip test of the per-cell pass-rate differences",
    };
  const base = { estimate, p: finite(test.p), test: test.name };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator: "mean over matched units of pass(b) − pass(a); task-clustered paired percentile bootstrap (type-7)",
    statistics: {
      delta: (w) => {
        let s = 0;
        let n = 0;
        for (let c = 0; c < clusters; c++) {
          s += w[c] * sum[c];
          n += w[c] * count[c];
        }
        return n > 0 ? s / n : NaN;
      },
    },
  });
  return { ...base, ci: res.ci.delta, bootstrap: res.bootstrap };
}

const TRANSITIONS = ["FAIL→FAIL", "FAIL→PASS", "PASS→FAIL", "PASS→PASS"] as const;

function transitions(
  p: PreparedStore,
  pairs: Pair[],
  score: (k: number) => number,
  floor: number,
  settings: BootstrapSettings,
  figure: string,
): Record<string, TransitionCell> {
  const out: Record<string, TransitionCell> = {};
  for (const cell of TRANSITIONS) {
    const members = pairs.filter((x) => {
      const from = p.trajectories[x.a[0]].outcome;
      const to = p.trajectories[x.b[0]].outcome;
      return `${from}→${to}` === cell;
    });
    const scored = members
      .map((x) => ({ task: x.task, delta: score(x.b[0]) - score(x.a[0]) }))
      .filter((x) => Number.isFinite(x.delta));
    const deltas = Float64Array.from(scored, (x) => x.delta);
    const { clusterOf, clusters } = taskClusters(scored.map((x) => x.task));
    const sorted = Float64Array.from(deltas).sort();
    const q = (pr: number) => (sorted.length ? quantileSorted(sorted, pr) : null);
    const tests = transitionTests({
      columns: { deltas, clusterOf, clusters },
      settings,
      figure: `${figure}:${cell}`,
      threshold: floor,
    });
    const n = deltas.length;
    out[cell] = {
      n: members.length,
      delta: { mean: n ? deltas.reduce((a, b) => a + b, 0) / n : null, q25: q(0.25), median: q(0.5), q75: q(0.75) },
      improved_share: n ? deltas.filter((x) => x > floor).length / n : null,
      regressed_share: n ? deltas.filter((x) => x < -floor).length / n : null,
      tasks: clusters,
      ...tests,
    };
  }
  return out;
}

function items(p: PreparedStore, pairs: Pair[]) {
  if (!p.hasJudgments) return notAvailable("the store holds no judgments");
  const rows = pairs.map((x) => ({
    task_id: x.task,
    without_id: p.trajectories[x.a[0]].trajectory_id,
    with_id: p.trajectories[x.b[0]].trajectory_id,
    failFail: p.trajectories[x.a[0]].outcome === "FAIL" && p.trajectories[x.b[0]].outcome === "FAIL",
  }));
  return {
    fail_fail: criterionEffects(
      p,
      rows.filter((r) => r.failFail),
    ),
    all: criterionEffects(p, rows),
  };
}

/**
 * The noise floor "material" is measured against: where an arm has two or more attempts of a task (in the
 * same cell), the mean |score(attempt i) − score(attempt j)| over those attempt pairs of both arms, with its
 * n; else the store's repeated scoring runs, else the paper's constant (analysis/rq/noise-floor.ts).
 */
function measuredFloor(
  p: PreparedStore,
  sides: { a: number[]; b: number[] },
  shared: readonly ArmField[],
  score: (k: number) => number,
): CompareResult["noise_floor"] {
  let sum = 0;
  let n = 0;
  for (const slots of [sides.a, sides.b]) {
    const cells = new Map<string, number[]>();
    for (const k of slots) {
      const v = score(k);
      if (!Number.isFinite(v)) continue;
      const key = cellKey(p, p.trajectories[k], shared);
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
      value: sum / n,
      source: "measured between attempts",
      n,
      definition: `mean |score(attempt i) − score(attempt j)| over ${n} pairs of attempts of the same arm and task`,
    };
  const store = noiseFloor(p);
  return {
    value: store.value,
    source: store.source === "measured" ? "measured between runs" : "paper",
    n: store.trajectories,
    definition: store.definition,
  };
}
