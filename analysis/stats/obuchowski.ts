import { argError } from "../errors.js";
import { levelCodes } from "./level-codes.js";
import { denseRanksInto } from "./ranks.js";

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
  outcomes: ArrayLike<boolean | number>,
  clusterOf: ArrayLike<number>,
  level = 0.95,
): ObuchowskiResult {
  const c = clusterComponents(scores, outcomes, clusterOf, "obuchowskiAuc");
  const base = {
    method: "Obuchowski (1997) clustered AUC variance" as const,
    level,
    clusters: c.clusters,
    clustersWithPositive: c.withPositive,
    clustersWithNegative: c.withNegative,
    nPositive: c.M,
    nNegative: c.N,
  };
  const undefinedVariance = (auc: number, reason: string) => ({
    ...base,
    auc,
    variance: NaN,
    se: NaN,
    ci: [NaN, NaN] as [number, number],
    reason,
  });
  const reason = undefinedEstimatorReason(c);
  if (reason) return undefinedVariance(c.auc, reason); // c.auc is NaN with one outcome class
  const A = c.auc;
  const variance = componentCovariance(c, c);
  if (!(variance >= 0))
    return { ...undefinedVariance(A, `negative variance estimate (${variance.toExponential(3)})`), variance };
  const se = Math.sqrt(variance);
  const z = normalQuantile(1 - (1 - level) / 2);
  return { ...base, auc: A, variance, se, ci: [Math.max(0, A - z * se), Math.min(1, A + z * se)] };
}

/**
 * Why Obuchowski's estimator is undefined on these components (contract rule 15: both outcome
 * classes, and at least 2 clusters holding a positive and 2 holding a negative), or undefined.
 */
export function undefinedEstimatorReason(c: ClusterComponents): string | undefined {
  if (c.M === 0 || c.N === 0) return "only one outcome class";
  if (c.withPositive < 2 || c.withNegative < 2)
    return `fewer than 2 clusters hold a positive (${c.withPositive}) or a negative (${c.withNegative})`;
  return undefined;
}

/** Per-cluster structural components of one method's AUC (DeLong placements summed by cluster). */
export interface ClusterComponents {
  auc: number;
  M: number;
  N: number;
  clusters: number;
  withPositive: number;
  withNegative: number;
  /** Per cluster slot: Σ V10 over its positives, Σ V01 over its negatives, and the counts m_i, n_i. */
  V10: Float64Array;
  V01: Float64Array;
  m: Float64Array;
  n: Float64Array;
}

/**
 * The components of Obuchowski's estimator; clusters are slotted in ascending id order,
 * so two methods scored on the same trajectories share slots (the paired test needs that).
 */
export function clusterComponents(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean | number>,
  clusterOf: ArrayLike<number>,
  caller = "clusterComponents",
): ClusterComponents {
  const total = scores.length;
  if (outcomes.length !== total || clusterOf.length !== total)
    throw argError(caller, "lengths", [total, outcomes.length, clusterOf.length], "must be equal");
  let M = 0;
  for (let i = 0; i < total; i++) {
    if (!Number.isFinite(scores[i])) throw argError(caller, `scores[${i}]`, scores[i], "must be finite");
    if (outcomes[i]) M++;
  }
  const N = total - M;
  // Positives and negatives in row order, as typed indices (the arrays of boxed row numbers
  // and a Map lookup of every row's cluster cost a third of a second an AUC at 100× the demo).
  const pos = new Int32Array(M);
  const neg = new Int32Array(N);
  for (let i = 0, p = 0, q = 0; i < total; i++) {
    if (outcomes[i]) pos[p++] = i;
    else neg[q++] = i;
  }
  const slotOf = clusterSlots(clusterOf);
  const I = slotOf.clusters;
  const slot = slotOf.slot;
  const out: ClusterComponents = {
    auc: NaN,
    M,
    N,
    clusters: I,
    withPositive: distinctSlots(pos, slot, I),
    withNegative: distinctSlots(neg, slot, I),
    V10: new Float64Array(I),
    V01: new Float64Array(I),
    m: new Float64Array(I),
    n: new Float64Array(I),
  };
  if (M === 0 || N === 0) return out;
  // v10[x] = share of negatives below x (+½ ties); v01[y] = share of positives above y (+½ ties). Each
  // score's level (its value's rank among the distinct values, analysis/stats/level-codes.ts) and the
  // classes' counts per level give, by cumulative sums, the very counts a binary search of each class's
  // sorted scores gives (below, and below or equal): the same integers, so the same shares, without
  // sorting either class or a Map lookup of each score (together a third of the estimator's time).
  const { level, values } = levelCodes(scores);
  const L = values.length;
  const negBelow = new Float64Array(L + 1);
  const posBelow = new Float64Array(L + 1);
  for (let i = 0; i < total; i++) {
    if (outcomes[i]) posBelow[level[i] + 1]++;
    else negBelow[level[i] + 1]++;
  }
  for (let l = 0; l < L; l++) {
    negBelow[l + 1] += negBelow[l];
    posBelow[l + 1] += posBelow[l];
  }
  const v10Of = new Float64Array(L);
  const v01Of = new Float64Array(L);
  for (let l = 0; l < L; l++) {
    v10Of[l] = (negBelow[l] + 0.5 * (negBelow[l + 1] - negBelow[l])) / N;
    v01Of[l] = (M - posBelow[l + 1] + 0.5 * (posBelow[l + 1] - posBelow[l])) / M;
  }
  let sum = 0;
  for (let r = 0; r < M; r++) {
    const i = pos[r];
    const v10 = v10Of[level[i]];
    const k = slot[i];
    out.V10[k] += v10;
    out.m[k]++;
    sum += v10;
  }
  for (let r = 0; r < N; r++) {
    const j = neg[r];
    const k = slot[j];
    out.V01[k] += v01Of[level[j]];
    out.n[k]++;
  }
  out.auc = sum / M;
  return out;
}

/**
 * Each row's cluster slot (its cluster id's rank among the distinct ids, ascending) and the number of
 * distinct ids. Ids over a short integer range (the dense task numbers analyses pass) are ranked through
 * an array over that range (`denseRanksInto`); others through a sorted list and a Map.
 */
function clusterSlots(clusterOf: ArrayLike<number>): { slot: Int32Array; clusters: number } {
  const total = clusterOf.length;
  const slot = new Int32Array(total);
  let lo = Infinity;
  let hi = -Infinity;
  let integers = true;
  for (let i = 0; i < total; i++) {
    const c = clusterOf[i];
    if (c < lo) lo = c;
    if (c > hi) hi = c;
    integers &&= Number.isInteger(c);
  }
  if (total > 0 && integers && hi - lo <= 4 * total + 1024)
    return { slot, clusters: denseRanksInto(clusterOf, undefined, slot) };
  const distinct = new Set<number>();
  for (let i = 0; i < total; i++) distinct.add(clusterOf[i]);
  const ids = Array.from(distinct).sort((a, b) => a - b);
  const rankOf = new Map(ids.map((c, k) => [c, k]));
  for (let i = 0; i < total; i++) slot[i] = rankOf.get(clusterOf[i])!;
  return { slot, clusters: ids.length };
}

/** How many distinct slots the rows hold. */
function distinctSlots(rows: Int32Array, slot: Int32Array, clusters: number): number {
  const seen = new Uint8Array(clusters);
  let k = 0;
  for (let r = 0; r < rows.length; r++) {
    const c = slot[rows[r]];
    if (!seen[c]) {
      seen[c] = 1;
      k++;
    }
  }
  return k;
}

/**
 * Obuchowski's covariance of two AUCs on the same trajectories and clusters (eq. 5 of the 1997
 * paper; with a = b it is the variance of eq. 3–4): S10/M + S01/N + (S11 + S11')/(MN), with the
 * I10/(I10−1) and I01/(I01−1) factors of contract rule 15.
 */
export function componentCovariance(
  a: ClusterComponents,
  b: ClusterComponents,
  /** Copies of each cluster slot (a bootstrap draw, analysis/stats/draw-components.ts); 1 each by default. */
  copies?: ArrayLike<number>,
): number {
  const { M, N, clusters: I, withPositive: i10, withNegative: i01 } = a;
  let s10 = 0;
  let s01 = 0;
  let s11 = 0;
  let s11t = 0;
  const slots = a.V10.length;
  for (let k = 0; k < slots; k++) {
    const w = copies ? copies[k] : 1;
    if (w === 0) continue;
    const a10 = a.V10[k] - a.m[k] * a.auc;
    const a01 = a.V01[k] - a.n[k] * a.auc;
    const b10 = b.V10[k] - b.m[k] * b.auc;
    const b01 = b.V01[k] - b.n[k] * b.auc;
    s10 += w * a10 * b10;
    s01 += w * a01 * b01;
    s11 += w * a10 * b01;
    s11t += w * a01 * b10;
  }
  const S10 = (i10 / (i10 - 1) / M) * s10;
  const S01 = (i01 / (i01 - 1) / N) * s01;
  const S11 = (I / (I - 1)) * s11;
  const S11t = (I / (I - 1)) * s11t;
  return S10 / M + S01 / N + (S11 + S11t) / (M * N);
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

export interface PairedAucTest {
  method: "Obuchowski (1997) paired clustered ΔAUC test";
  delta: number;
  /** Var(A₁) + Var(A₂) − 2·Cov(A₁, A₂), each from the cluster components. */
  variance: number;
  se: number;
  z: number;
  /** Two-sided p for H₀: ΔAUC = 0 (normal reference). */
  p: number;
  ci: [number, number];
  level: number;
  reason?: string;
}

/**
 * The clustered paired test of two AUCs on the same trajectories (Obuchowski 1997, the clustered
 * form of DeLong et al. 1988): Δ = A₁ − A₂ with Var(Δ) = V₁ + V₂ − 2C₁₂, z = Δ/SE, two-sided p,
 * and the Wald interval Δ ± z_{1−α/2}·SE. Undefined (NaN, with a reason) when either variance is
 * (contract rule 15) or the variance of Δ is not positive.
 */
export function pairedObuchowskiTest(
  scoresA: ArrayLike<number>,
  scoresB: ArrayLike<number>,
  outcomes: ArrayLike<boolean | number>,
  clusterOf: ArrayLike<number>,
  level = 0.95,
): PairedAucTest {
  const a = clusterComponents(scoresA, outcomes, clusterOf, "pairedObuchowskiTest");
  const b = clusterComponents(scoresB, outcomes, clusterOf, "pairedObuchowskiTest");
  const delta = a.auc - b.auc;
  const none = { method: "Obuchowski (1997) paired clustered ΔAUC test" as const, delta, level };
  const undefinedTest = (reason: string, variance = NaN) => ({
    ...none,
    variance,
    se: NaN,
    z: NaN,
    p: NaN,
    ci: [NaN, NaN] as [number, number],
    reason,
  });
  const reason = undefinedEstimatorReason(a);
  if (reason) return undefinedTest(reason);
  const variance = componentCovariance(a, a) + componentCovariance(b, b) - 2 * componentCovariance(a, b);
  if (!(variance > 0)) return undefinedTest(`variance of Δ not positive (${variance.toExponential(3)})`, variance);
  const se = Math.sqrt(variance);
  const z = delta / se;
  const q = normalQuantile(1 - (1 - level) / 2);
  return { ...none, variance, se, z, p: 2 * normalCdf(-Math.abs(z)), ci: [delta - q * se, delta + q * se] };
}

/**
 * Standard normal CDF via erfc: Φ(x) = ½·erfc(−x/√2), with the Chebyshev approximation erfcc of
 * Numerical Recipes (2nd ed., §6.2; fractional error < 1.2e-7 everywhere, so small p-values keep
 * their relative accuracy). simple-statistics' cumulativeStdNormalProbability reads a table at
 * 0.01 steps of z, too coarse for a p-value.
 */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
