import { argError } from "../errors.js";

export interface ObuchowskiResult {
  method: "Obuchowski (1997) clustered AUC variance";
  auc: number;
  variance: number;
  se: number;
  /** Normal-theory interval auc ± z·se, clipped to [0, 1]. */
  ci: [number, number];
  level: number;
  clusters: number;
  /** Clusters holding at least one positive (I10) and at least one negative (I01). */
  clustersWithPositive: number;
  clustersWithNegative: number;
  nPositive: number;
  nNegative: number;
  /** Why the variance is not defined (NaN fields), when it is not. */
  reason?: string;
}

/**
 * Analytic variance of the AUC for clustered data (Obuchowski 1997,
 * Biometrics 53:567–578, eqs. 3–5), a cross-check beside the bootstrap CI.
 *
 * Method: ψ(x, y) = 1 if x > y, ½ if equal, 0 otherwise. For cluster i with
 * m_i positives and n_i negatives, V10_i = Σ_{x∈i} (1/N) Σ_y ψ(x, y) and
 * V01_i = Σ_{y∈i} (1/M) Σ_x ψ(x, y); A = Σ V10_i / M. With I clusters, of which
 * I10 hold a positive and I01 a negative (contract rule 15; Obuchowski 1997 and the
 * widely used funcs_clusteredROC.R count them so):
 *   S10 = I10/((I10−1)M) Σ (V10_i − m_i A)²,  S01 = I01/((I01−1)N) Σ (V01_i − n_i A)²,
 *   S11 = I/(I−1) Σ (V10_i − m_i A)(V01_i − n_i A),
 *   Var(A) = S10/M + S01/N + 2·S11/(MN).
 * Undefined (NaN, with a reason) when I10 < 2 or I01 < 2, and when the estimate is
 * negative: it is never clamped to 0.
 * The per-observation structural components are computed from midranks in
 * O(n log n) (DeLong et al. 1988), not by the O(MN) double sum.
 *
 * NaN fields when a class is absent or fewer than 2 clusters exist.
 */
export function obuchowskiAuc(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean>,
  clusterOf: ArrayLike<number>,
  level = 0.95,
): ObuchowskiResult {
  const n = scores.length;
  if (outcomes.length !== n || clusterOf.length !== n)
    throw argError("obuchowskiAuc", "lengths", [n, outcomes.length, clusterOf.length], "must be equal");
  const pos: number[] = [],
    neg: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(scores[i])) throw argError("obuchowskiAuc", `scores[${i}]`, scores[i], "must be finite");
    (outcomes[i] ? pos : neg).push(i);
  }
  const M = pos.length,
    N = neg.length;
  const clusterIds = Array.from(new Set(Array.from(clusterOf))).sort((a, b) => a - b);
  const I = clusterIds.length;
  const withPos = new Set(pos.map((i) => clusterOf[i])).size,
    withNeg = new Set(neg.map((j) => clusterOf[j])).size;
  const base = {
    method: "Obuchowski (1997) clustered AUC variance" as const,
    level,
    clusters: I,
    clustersWithPositive: withPos,
    clustersWithNegative: withNeg,
    nPositive: M,
    nNegative: N,
  };
  if (M === 0 || N === 0)
    return { ...base, auc: NaN, variance: NaN, se: NaN, ci: [NaN, NaN], reason: "only one outcome class" };
  // v10[x] = share of negatives below x (+½ ties); v01[y] = share of positives above y (+½ ties).
  const negSorted = Float64Array.from(neg, (i) => scores[i]).sort();
  const posSorted = Float64Array.from(pos, (i) => scores[i]).sort();
  const v10 = new Map<number, number>(),
    v01 = new Map<number, number>();
  for (const i of pos) {
    const s = scores[i];
    v10.set(i, (lowerBound(negSorted, s) + 0.5 * (upperBound(negSorted, s) - lowerBound(negSorted, s))) / N);
  }
  for (const j of neg) {
    const s = scores[j];
    v01.set(j, (M - upperBound(posSorted, s) + 0.5 * (upperBound(posSorted, s) - lowerBound(posSorted, s))) / M);
  }
  let A = 0;
  for (const x of v10.values()) A += x;
  A /= M;
  const slot = new Map(clusterIds.map((c, k) => [c, k]));
  const V10 = new Float64Array(I),
    V01 = new Float64Array(I),
    m = new Float64Array(I),
    nn = new Float64Array(I);
  for (const i of pos) {
    const k = slot.get(clusterOf[i])!;
    V10[k] += v10.get(i)!;
    m[k]++;
  }
  for (const j of neg) {
    const k = slot.get(clusterOf[j])!;
    V01[k] += v01.get(j)!;
    nn[k]++;
  }
  const undefinedVariance = (reason: string) => ({
    ...base,
    auc: A,
    variance: NaN,
    se: NaN,
    ci: [NaN, NaN] as [number, number],
    reason,
  });
  if (withPos < 2 || withNeg < 2)
    return undefinedVariance(`fewer than 2 clusters hold a positive (${withPos}) or a negative (${withNeg})`);
  let s10 = 0,
    s01 = 0,
    s11 = 0;
  for (let k = 0; k < I; k++) {
    const a = V10[k] - m[k] * A,
      b = V01[k] - nn[k] * A;
    s10 += a * a;
    s01 += b * b;
    s11 += a * b;
  }
  const S10 = (withPos / (withPos - 1) / M) * s10,
    S01 = (withNeg / (withNeg - 1) / N) * s01,
    S11 = (I / (I - 1)) * s11;
  const variance = S10 / M + S01 / N + (2 * S11) / (M * N);
  if (!(variance >= 0))
    return { ...undefinedVariance(`negative variance estimate (${variance.toExponential(3)})`), variance };
  const se = Math.sqrt(variance);
  const z = normalQuantile(1 - (1 - level) / 2);
  return { ...base, auc: A, variance, se, ci: [Math.max(0, A - z * se), Math.min(1, A + z * se)] };
}

function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function upperBound(sorted: Float64Array, x: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Standard normal quantile, Acklam's rational approximation (relative error
 * < 1.2e-9). simple-statistics' `probit` is not
 * used: its inverse-erf approximation gives 1.95716 for p = 0.975 (true
 * 1.959964), which would visibly shift a 95% interval.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw argError("normalQuantile", "p", p, "must be in (0, 1)");
  const a = [
    -3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1,
    2.506628277459239,
  ];
  const b = [
    -5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1,
  ];
  const c = [
    -7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const pl = 0.02425;
  let x: number;
  if (p < pl) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - pl) {
    const q = p - 0.5,
      r = q * q;
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  return x;
}
