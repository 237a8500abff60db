import { clusterDraws } from "./cluster-draws.js";
import { percentileCI } from "./bootstrap.js";
import { weightedRatio } from "./weighted-ratio.js";
import { endpointMcSe } from "./monte-carlo-error.js";

/** One sample's clusters (tasks): per cluster the sum of the values and their number. */
export interface ClusterSumsOf {
  sum: Float64Array;
  count: Float64Array;
}

export interface TwoSampleDelta {
  /** mean(b) − mean(a), each the ratio of its sums over its own clusters. */
  estimate: number;
  mean_a: number;
  mean_b: number;
  ci: [number, number] | null;
  /** The Monte Carlo standard error of the interval's endpoints (null below 250 resamples, or with no interval). */
  ci_mc_se: [number, number] | null;
  /** Every draw gave the same Δ. */
  degenerate?: true;
  resamples: number;
  seed: string;
}

/**
 * The difference of two means from independent samples, each clustered (an arm over its own tasks): a two-sample
 * task-clustered percentile bootstrap, each sample's tasks resampled from its own (two seeded streams), the
 * draw's Δ = mean_b − mean_a. What `gcpc compare` reports when two arms share no task, so no pair exists (issue
 * 45.5). No interval when a sample holds fewer than 2 tasks.
 */
export function twoSampleDelta(
  a: ClusterSumsOf,
  b: ClusterSumsOf,
  o: { seed: string; resamples: number; level: number },
): TwoSampleDelta {
  const ones = (n: number) => new Float64Array(n).fill(1);
  const meanA = weightedRatio(ones(a.sum.length), a.sum, a.count);
  const meanB = weightedRatio(ones(b.sum.length), b.sum, b.count);
  const base = { estimate: meanB - meanA, mean_a: meanA, mean_b: meanB, resamples: o.resamples, seed: o.seed };
  if (a.sum.length < 2 || b.sum.length < 2) return { ...base, ci: null, ci_mc_se: null };
  const drawA = clusterDraws(`${o.seed}:a`, a.sum.length);
  const drawB = clusterDraws(`${o.seed}:b`, b.sum.length);
  const wA = new Float64Array(a.sum.length);
  const wB = new Float64Array(b.sum.length);
  const deltas = new Float64Array(o.resamples);
  for (let d = 0; d < o.resamples; d++) {
    drawA.draw(wA);
    drawB.draw(wB);
    deltas[d] = weightedRatio(wB, b.sum, b.count) - weightedRatio(wA, a.sum, a.count);
  }
  const ci = percentileCI(deltas, o.level);
  const same = deltas.every((x) => x === deltas[0]);
  return { ...base, ci, ci_mc_se: endpointMcSe(deltas, o.level), ...(same ? { degenerate: true as const } : {}) };
}
