import { argError } from "../errors.js";

export interface ClusterSignTestResult {
  method: "task-clustered sign-flip test (exact randomization distribution)";
  /** Σ sign(Δ) over all pairs (zeros count 0). */
  statistic: number;
  /** Clusters with a non-zero sign sum: the only ones whose flip changes the statistic. */
  informative_clusters: number;
  pValue: number;
}

/**
 * A cluster-robust sign test for paired differences nested in clusters (tasks).
 *
 * Under H₀ the signs within a task are symmetric as a block: flipping every sign of one task
 * leaves their joint law unchanged, whatever the correlation inside the task. The statistic is
 * S = Σ_t S_t with S_t = Σ_{i∈t} sign(Δ_i); its randomization distribution is that of Σ_t ε_t S_t
 * with independent fair ε_t = ±1 (a cluster randomization test in the sense of e.g. Canay, Romano &
 * Shaikh 2017). Two-sided p = P(|Σ ε_t S_t| ≥ |S|), computed exactly by convolving the clusters'
 * two-point distributions (O(clusters × n)); no Monte Carlo. With every pair its own cluster it is
 * the exact binomial sign test. NaN when no cluster has a non-zero sign sum.
 */
export function clusterSignTest(differences: ArrayLike<number>, clusterOf: ArrayLike<number>): ClusterSignTestResult {
  if (differences.length !== clusterOf.length)
    throw argError("clusterSignTest", "lengths", [differences.length, clusterOf.length], "must be equal");
  const sums = new Map<number, number>();
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i];
    if (Number.isNaN(d)) throw argError("clusterSignTest", `differences[${i}]`, d, "must not be NaN");
    sums.set(clusterOf[i], (sums.get(clusterOf[i]) ?? 0) + Math.sign(d));
  }
  const blocks = [...sums.values()].filter((s) => s !== 0).map(Math.abs);
  const statistic = [...sums.values()].reduce((a, b) => a + b, 0);
  const base = { method: "task-clustered sign-flip test (exact randomization distribution)" as const, statistic };
  if (blocks.length === 0) return { ...base, informative_clusters: 0, pValue: NaN };
  const total = blocks.reduce((a, b) => a + b, 0);
  // dist[k] = P(Σ ε_t |S_t| = k − total), built one cluster at a time. After the clusters so far, whose
  // blocks sum to `reach`, only total ± reach can be non-zero: each step walks that span of two reused
  // buffers, not the whole array (the cost was clusters × total, quadratic in the store's size). The
  // same additions happen in the same order, so every probability is bit-identical to the full walk.
  let dist = new Float64Array(2 * total + 1);
  let next = new Float64Array(2 * total + 1);
  dist[total] = 1;
  let reach = 0;
  for (const b of blocks) {
    const from = total - reach;
    const to = total + reach;
    next.fill(0, Math.max(0, from - b), Math.min(dist.length, to + b + 1));
    for (let k = from; k <= to; k++) {
      if (dist[k] === 0) continue;
      if (k + b < dist.length) next[k + b] += 0.5 * dist[k];
      if (k - b >= 0) next[k - b] += 0.5 * dist[k];
    }
    [dist, next] = [next, dist];
    reach += b;
  }
  let p = 0;
  for (let k = 0; k < dist.length; k++) if (Math.abs(k - total) >= Math.abs(statistic)) p += dist[k];
  return { ...base, informative_clusters: blocks.length, pValue: Math.min(1, p) };
}
