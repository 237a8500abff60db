/**
 * Per-task consistency and coverage over repeated attempts, from a task's n attempts with c passes:
 *
 * - pass^k = C(c, k) / C(n, k): the chance that k attempts drawn without replacement all pass (τ-bench, Yao et
 *   al. 2024, "τ-bench: A Benchmark for Tool-Agent-User Interaction in Real-World Domains", §4: pass^k, the
 *   unbiased estimate from n ≥ k trials);
 * - pass@k = 1 − C(n − c, k) / C(n, k): the chance that at least one of k such attempts passes (Chen et al.
 *   2021, "Evaluating Large Language Models Trained on Code", eq. 1, the unbiased estimator).
 *
 * Both are undefined (NaN) when n < k. The ratio of binomial coefficients is the product Π_{i<k} (c − i)/(n − i),
 * evaluated as Chen et al.'s numerically stable product rather than through factorials.
 */
export type AttemptMetric = "pass^k" | "pass@k";

export function passHatK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n < k) return NaN;
  return chooseRatio(c, n, k);
}

export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n < k) return NaN;
  return 1 - chooseRatio(n - c, n, k);
}

export function attemptMetric(metric: AttemptMetric, n: number, c: number, k: number): number {
  return metric === "pass^k" ? passHatK(n, c, k) : passAtK(n, c, k);
}

/** C(m, k) / C(n, k) for 0 ≤ m ≤ n, k ≤ n: 0 when m < k. */
function chooseRatio(m: number, n: number, k: number): number {
  if (m < k) return 0;
  let r = 1;
  for (let i = 0; i < k; i++) r *= (m - i) / (n - i);
  return r;
}

function checkCounts(n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || n < 0 || c < 0 || c > n || k < 1)
    throw new RangeError(`pass^k/pass@k need integers n ≥ c ≥ 0 and k ≥ 1; got n ${n}, c ${c}, k ${k}`);
}
