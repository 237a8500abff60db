import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { normalCdf } from "../../stats/obuchowski.js";
import { Xor4096 } from "../../stats/xor4096.js";
import type { Selector } from "./arm-pairs.js";
import { comparePairs } from "./compare-pairs.js";
import { tableView, type ArmTable } from "./compare-arms.js";

/** One matched task as the simulation resamples it: each arm's attempts (outcome 0/1 and score or NaN). */
interface TaskAttempts {
  task: string;
  a: { pass: number[]; score: number[] };
  b: { pass: number[]; score: number[] };
}

export interface ArmPowerRow {
  metric: "pass_rate" | "score";
  /** "store": the arms' own attempts resampled; a number: that Δ imposed (see ArmPowerResult.effects_rule). */
  effect: "store" | number;
  /** The mean Δ the simulated studies hold (for "store", the store's own; for a pass-rate δ, after clamping). */
  realized_effect: number;
  tasks: number;
  attempts: number;
  /** Share of simulated studies whose two-sided p < alpha, and its binomial Monte Carlo SE. */
  power: number;
  mc_se: number;
}

export interface ArmPowerResult {
  a: Selector;
  b: Selector;
  where: Selector;
  matched_tasks: number;
  /** pass_rate null: the store has no binary outcome, so only the score's power is simulated. */
  store_effect: { pass_rate: number | null; score: number | null; method: string };
  simulations: number;
  seed: string;
  alpha: number;
  design: string;
  tests: string;
  effects_rule: string;
  rows: ArmPowerRow[];
}

/**
 * Power of the two-arm comparison `gcpc compare` runs (task pairing), for other numbers of tasks and attempts,
 * from the store's own tasks and attempts: each simulated study draws `tasks` of the matched tasks with
 * replacement and, per drawn task, `attempts` attempts of each arm with replacement from that task's own
 * attempts; it then tests the paired Δ per task. Pass rate: the exact task-level sign-flip test of the task
 * means' differences (on the grid 1/attempts). Score (GCPC by default): the sign-flip test's normal limit,
 * z = Σd_t / √Σd_t² (the randomization distribution's mean 0 and variance Σd_t²; the exact one is Monte
 * Carlo per study, too slow for thousands of studies). Power = the share of studies with p < alpha.
 */
export function armPower(
  table: ArmTable,
  o: {
    a: Selector;
    b: Selector;
    where?: Selector;
    tasks: number[];
    attempts: number[];
    effects: number[];
    simulations: number;
    seed: string;
    alpha?: number;
  },
): ArmPowerResult | NotAvailable {
  const alpha = o.alpha ?? 0.05;
  const matched = matchedTasks(table, o);
  if ("available" in matched) return matched;
  if (matched.length < 2) return notAvailable(`${matched.length} matched task(s): power needs at least 2`);
  const scored = matched.filter((t) => t.a.score.length > 0 && t.b.score.length > 0);
  // A store with no binary outcome (a rubric table): the score's power only (issue 45.1).
  const hasOutcome = table.rows.some((r) => r.outcome !== null);
  if (!hasOutcome && scored.length < 2) return notAvailable("no binary outcome and fewer than 2 scored matched tasks");
  const storeEffect = {
    pass_rate: hasOutcome ? mean(matched.map((t) => mean(t.b.pass) - mean(t.a.pass))) : null,
    score: scored.length ? mean(scored.map((t) => mean(t.b.score) - mean(t.a.score))) : null,
    method: table.method,
  };
  const rows: ArmPowerRow[] = [];
  for (const tasks of o.tasks)
    for (const attempts of o.attempts)
      for (const effect of ["store" as const, ...o.effects]) {
        const design = { tasks, attempts, effect, simulations: o.simulations, alpha };
        const seed = `${o.seed}:arm-power:${tasks}:${attempts}:${effect}`;
        if (storeEffect.pass_rate !== null)
          rows.push(simulate(matched, { ...design, metric: "pass_rate", seed }, storeEffect.pass_rate));
        if (scored.length >= 2) rows.push(simulate(scored, { ...design, metric: "score", seed }, storeEffect.score!));
      }
  return {
    a: o.a,
    b: o.b,
    where: o.where ?? {},
    matched_tasks: matched.length,
    store_effect: storeEffect,
    simulations: o.simulations,
    seed: o.seed,
    alpha,
    design:
      "each study: `tasks` of the store's matched tasks drawn with replacement; per task, `attempts` attempts of " +
      "each arm drawn with replacement from the task's own attempts (score: from its attempts with a score)",
    tests:
      "pass rate: exact task-level sign-flip test of d_t = mean pass(b) − mean pass(a) (grid 1/attempts); score: " +
      "its normal limit z = Σd_t/√Σd_t², two-sided",
    effects_rule:
      "a given δ: per task, both arms draw from the task's pooled attempts (no effect), then pass rate: attempts " +
      "of a pass with q_t − δ/2 and of b with q_t + δ/2 (q_t the pooled pass rate, clamped to [0, 1], so the " +
      "realized Δ can be smaller); score: δ is added to b's scores. δ = 0 gives the test's false-positive rate",
    rows,
  };
}

function matchedTasks(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector },
): TaskAttempts[] | NotAvailable {
  // The units `gcpc compare --pair task` compares: the comparison verb's pairs of the same arms.
  const compared = comparePairs(tableView(table.rows), o, {
    pair: "task",
    selfPairs: false,
    requireBothSides: false,
    // Task pairing: the outcomes are read by the pass rates below, not by the verb (no transitions).
    outcome: (k) => table.rows[k].outcome ?? "FAIL",
    score: (k) => table.rows[k].score ?? NaN,
  });
  if ("available" in compared) return compared;
  const pairs = compared.built.pairs;
  const byTask = new Map<string, TaskAttempts>();
  for (const x of pairs) {
    if (!byTask.has(x.task))
      byTask.set(x.task, { task: x.task, a: { pass: [], score: [] }, b: { pass: [], score: [] } });
    const t = byTask.get(x.task)!;
    for (const [side, slots] of [
      [t.a, x.a],
      [t.b, x.b],
    ] as const)
      for (const k of slots) {
        const row = table.rows[k];
        side.pass.push(row.outcome === "PASS" ? 1 : 0);
        if (row.score !== null) side.score.push(row.score);
      }
  }
  return [...byTask.values()];
}

function simulate(
  units: TaskAttempts[],
  d: {
    metric: "pass_rate" | "score";
    effect: "store" | number;
    tasks: number;
    attempts: number;
    simulations: number;
    alpha: number;
    seed: string;
  },
  storeEffect: number,
): ArmPowerRow {
  const rng = new Xor4096(`${d.seed}:${d.metric}`);
  const pick = (n: number) => Math.floor(rng.uniform() * n);
  const diffs = new Float64Array(d.tasks);
  const given = d.effect === "store" ? null : d.effect;
  let rejected = 0;
  for (let s = 0; s < d.simulations; s++) {
    for (let i = 0; i < d.tasks; i++) {
      const u = units[pick(units.length)];
      diffs[i] =
        d.metric === "pass_rate" ? passDiff(u, d.attempts, given, rng, pick) : scoreDiff(u, d.attempts, given, pick);
    }
    const p = d.metric === "pass_rate" ? signFlipTest(diffs, { seed: "unused: exact" }).pValue : normalFlipP(diffs);
    if (p < d.alpha) rejected++;
  }
  const power = rejected / d.simulations;
  return {
    metric: d.metric,
    effect: d.effect,
    realized_effect: given === null ? storeEffect : realized(units, d.metric, given),
    tasks: d.tasks,
    attempts: d.attempts,
    power,
    mc_se: Math.sqrt((power * (1 - power)) / d.simulations),
  };
}

/** One task's pass-rate difference over `attempts` drawn attempts per arm (under a given δ: from the pool). */
function passDiff(u: TaskAttempts, k: number, delta: number | null, rng: Xor4096, pick: (n: number) => number) {
  let a = 0;
  let b = 0;
  if (delta === null) {
    for (let j = 0; j < k; j++) {
      a += u.a.pass[pick(u.a.pass.length)];
      b += u.b.pass[pick(u.b.pass.length)];
    }
    return (b - a) / k;
  }
  const [qa, qb] = shifted(pooledRate(u), delta);
  for (let j = 0; j < k; j++) {
    a += rng.uniform() < qa ? 1 : 0;
    b += rng.uniform() < qb ? 1 : 0;
  }
  return (b - a) / k;
}

function scoreDiff(u: TaskAttempts, k: number, delta: number | null, pick: (n: number) => number) {
  let a = 0;
  let b = 0;
  const pool = delta === null ? null : [...u.a.score, ...u.b.score];
  for (let j = 0; j < k; j++) {
    a += pool ? pool[pick(pool.length)] : u.a.score[pick(u.a.score.length)];
    b += pool ? pool[pick(pool.length)] + delta! : u.b.score[pick(u.b.score.length)];
  }
  return (b - a) / k;
}

const pooledRate = (u: TaskAttempts) => (sum(u.a.pass) + sum(u.b.pass)) / (u.a.pass.length + u.b.pass.length);
const clamp = (x: number) => Math.min(1, Math.max(0, x));
const shifted = (q: number, delta: number): [number, number] => [clamp(q - delta / 2), clamp(q + delta / 2)];

/** The mean Δ a given δ imposes over the store's tasks (pass rate: after clamping; score: δ itself). */
function realized(units: TaskAttempts[], metric: "pass_rate" | "score", delta: number): number {
  if (metric === "score") return delta;
  return mean(
    units.map((u) => {
      const [qa, qb] = shifted(pooledRate(u), delta);
      return qb - qa;
    }),
  );
}

/** Two-sided p of the sign-flip test's normal limit: z = Σd / √Σd² (NaN when every d is 0). */
export function normalFlipP(d: ArrayLike<number>): number {
  let s = 0;
  let ss = 0;
  for (let i = 0; i < d.length; i++) {
    s += d[i];
    ss += d[i] * d[i];
  }
  if (ss === 0) return NaN;
  return 2 * (1 - normalCdf(Math.abs(s) / Math.sqrt(ss)));
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;
