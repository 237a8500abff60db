// The leaderboard's arms: the trajectories grouped by the chosen fields, per task their sums and counts.
import { finite } from "../../estimates/not-defined.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import { compareCodePoints } from "../../order.js";
import { fieldOf, type ArmField } from "./compare-arms.js";
import type { PreparedStore } from "../prepared.js";
import { attemptMetric, type AttemptMetric } from "../../stats/pass-at-k.js";
import type { LeaderboardRow } from "./leaderboard-types.js";

export interface Arm {
  arm: string;
  fields: Record<string, string | null>;
  /** Per task (cluster index): the sum of values and the number of trajectories. */
  sum: Float64Array;
  count: Float64Array;
  byRun: Map<number, { sum: number; n: number }>;
  trajectories: number;
  /** The arm's trajectories (store slots) and each one's task cluster, in the order they were grouped. */
  slots: number[];
  slotClusters: number[];
}

export function groupArms(
  p: PreparedStore,
  slots: number[],
  by: ArmField[],
  scoreOf: (k: number) => number,
  clusterOf: Int32Array,
  clusters: number,
): Arm[] {
  const arms = new Map<string, Arm>();
  slots.forEach((k, i) => {
    const t = p.trajectories[k];
    const fields = Object.fromEntries(by.map((f) => [f, fieldOf(p, t, f)]));
    const arm = by.map((f) => fields[f] ?? "").join(" / ");
    if (!arms.has(arm))
      arms.set(arm, {
        arm,
        fields,
        sum: new Float64Array(clusters),
        count: new Float64Array(clusters),
        byRun: new Map(),
        trajectories: 0,
        slots: [],
        slotClusters: [],
      });
    const a = arms.get(arm)!;
    const v = scoreOf(k);
    a.sum[clusterOf[i]] += v;
    a.count[clusterOf[i]]++;
    a.trajectories++;
    a.slots.push(k);
    a.slotClusters.push(clusterOf[i]);
    if (t.trial !== null && t.trial !== undefined) {
      const r = a.byRun.get(t.trial) ?? { sum: 0, n: 0 };
      r.sum += v;
      r.n++;
      a.byRun.set(t.trial, r);
    }
  });
  return [...arms.keys()].sort(compareCodePoints).map((k) => arms.get(k)!);
}

/** An arm's pooled value on a draw's task weights (null: every weight 1). */
export function ratio(a: Arm, w: ArrayLike<number> | null): number {
  // On the sample (no draw) every task weighs 1.
  return weightedRatio(w ?? new Float64Array(a.sum.length).fill(1), a.sum, a.count);
}

/**
 * `ratio(a, w)` as a function of the draw `w`, summing only over the tasks the arm holds (a sum or a count not 0), in
 * task order. A task it does not hold adds w·0 to both sums, which leaves their bits as they are (each starts at +0
 * and stays non-negative zero or a number), so the value is ratio(a, w)'s bit for bit. At scale 100 an arm holds
 * about a third of the board's 8,886 tasks, and the dense sums were 3.9 s of the leaderboard's 10.7 s.
 */
export function drawRatio(a: Arm): (w: ArrayLike<number>) => number {
  const held: number[] = [];
  for (let t = 0; t < a.sum.length; t++) if (a.sum[t] !== 0 || a.count[t] !== 0) held.push(t);
  const tasks = Int32Array.from(held);
  const sum = Float64Array.from(held, (t) => a.sum[t]);
  const count = Float64Array.from(held, (t) => a.count[t]);
  return (w) => {
    let s = 0;
    let n = 0;
    for (let k = 0; k < tasks.length; k++) {
      const x = w[tasks[k]];
      s += x * sum[k];
      n += x * count[k];
    }
    return n > 0 ? s / n : NaN;
  };
}

/** Mean over runs (trial indices) of the run's value, and the SE over runs (sd / √runs). */
export function runFigure(a: Arm): LeaderboardRow["runs"] {
  const values = [...a.byRun.values()].map((r) => r.sum / r.n);
  const k = values.length;
  if (k === 0) return { k, mean: null, se: null };
  const mean = values.reduce((x, y) => x + y, 0) / k;
  const sd = k > 1 ? Math.sqrt(values.reduce((x, v) => x + (v - mean) ** 2, 0) / (k - 1)) : NaN;
  return { k, mean, se: finite(sd / Math.sqrt(k)) };
}

/**
 * An arm's per-task pass^k or pass@k: each task with n ≥ k attempts weighs 1 and holds its value, the others
 * nothing, so the pooled ratio is the mean over its tasks (on a draw, weighted by the task's draw count). The
 * runs figure (mean over trial indices) does not apply.
 */
export function perTaskAttempts(a: Arm, metric: AttemptMetric, k: number): Arm {
  const sum = new Float64Array(a.sum.length);
  const count = new Float64Array(a.count.length);
  for (let t = 0; t < a.count.length; t++) {
    const n = a.count[t];
    if (n < k) continue;
    sum[t] = attemptMetric(metric, n, a.sum[t], k);
    count[t] = 1;
  }
  return { ...a, sum, count, byRun: new Map() };
}
