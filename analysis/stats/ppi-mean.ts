import { clusterDraws } from "./cluster-draws.js";
import { percentileCI } from "./bootstrap.js";
import { expandedPercentileLevel } from "./expanded-percentile.js";
import { endpointMcSe } from "./monte-carlo-error.js";

/**
 * Per task (cluster) of one arm: the judge's credit f summed over every trajectory with one (`fAll`, `nAll`), and
 * over the trajectories that also carry the reference judge's credit h (`hRef`, `fRef`, `nRef`).
 */
export interface PpiClusters {
  fAll: Float64Array;
  nAll: Float64Array;
  hRef: Float64Array;
  fRef: Float64Array;
  nRef: Float64Array;
}

/** Per-task sums of `tasks` clusters, all zero: what a caller adds its trajectories (or units) into. */
export function emptyPpiClusters(tasks: number): PpiClusters {
  return {
    fAll: new Float64Array(tasks),
    nAll: new Float64Array(tasks),
    hRef: new Float64Array(tasks),
    fRef: new Float64Array(tasks),
    nRef: new Float64Array(tasks),
  };
}

export interface PpiEstimate {
  /** θ̂(λ) = mean_ref(h) + λ·(mean_all(f) − mean_ref(f)). */
  estimate: number;
  ci: [number, number];
  /** The Monte Carlo standard error of the interval's endpoints (null below 250 resamples). */
  ci_mc_se: [number, number] | null;
  lambda: number;
  /**
   * "power-tuned": the plug-in λ of least variance, re-tuned on every draw and shrunk towards 0 by
   * n_L / (n_L + LAMBDA_SHRINK) for n_L labelled tasks; "fixed": given; "classic": classic PPI's N / (N − n).
   */
  lambda_rule: "power-tuned" | "fixed" | "classic";
  /** Trajectories with a reference credit, and the tasks they are in. */
  n_reference: number;
  reference_tasks: number;
  /** Every trajectory with a judge credit, and the tasks. */
  n_all: number;
  tasks: number;
  /** λ = 0: the reference judge's mean on the labelled trajectories alone, on the same draws. */
  classical: { estimate: number; ci: [number, number]; ci_mc_se: [number, number] | null };
  /** The judge's mean over every trajectory (what an uncorrected leaderboard prints), on the same draws. */
  judge_only: { estimate: number; ci: [number, number] };
  /**
   * n_reference × (classical width / corrected width)²: how many reference labels the classical estimate would
   * need for the corrected interval's width (null when the corrected interval has zero width).
   */
  effective_reference: number | null;
  resamples: number;
  seed: string;
}

/**
 * λ's shrinkage towards 0 by n_L / (n_L + LAMBDA_SHRINK) for n_L labelled tasks. A judge whose errors sit in a few
 * tasks (broken environments it calls solved) looks perfect on a small labelled sample that misses them, and a λ
 * trusted fully there made the interval cover 84.7–90.5% at 5–10 labelled tasks (issue 55.1). Shrinking a
 * control-variate coefficient by a fraction s keeps 1 − (1 − s)² of its variance reduction (at 10 labelled tasks
 * s = 1/2 keeps 75%, at 40 s = 0.8 keeps 96%), and bench/ppi-task-judges.ts chose 10 as the smallest value that
 * held the coverage target on its two tuning designs; a third design, added after, checks it (docs/statistics.md).
 */
export const LAMBDA_SHRINK = 10;

/**
 * Below this many labelled tasks no judge-corrected interval is given (analysis/rq/arms/judge-corrected.ts): a
 * bootstrap over 2, 3 or 4 labelled tasks covered 48–50%, 73–77% and 85–88% at 95% nominal, the reference-only
 * interval alike (bench/ppi-task-judges.ts, docs/statistics.md).
 */
export const FEW_LABELLED_TASKS = 5;

/**
 * Prediction-powered inference for a mean (Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, Science 2023) with a
 * power-tuned λ (PPI++: Angelopoulos, Duchi & Zrnic 2024): the reference judge's mean on the labelled subset,
 * corrected by λ times the judge's mean on every trajectory minus its mean on the same subset.
 *
 * Interval: a task-clustered expanded percentile bootstrap (Hesterberg 2015, on the number of labelled tasks n_L;
 * for a tuned λ, t on n_L − 1 − s degrees of freedom, s = n_L / (n_L + LAMBDA_SHRINK) the share of a degree of
 * freedom the shrunk coefficient spends: expandedPercentileLevel's `spent`),
 * stratified: the labelled tasks (those holding a reference credit) are resampled among themselves and the other
 * tasks among themselves, so each draw keeps the design's number of labelled tasks; a task's trajectories,
 * labelled or not, move together. λ (unless fixed) is the plug-in −Cov(A, B)/Var(B) of A = mean_ref(h) and
 * B = mean_all(f) − mean_ref(f) from the tasks' linearised contributions (plugInLambda), clipped to [0, 1] and
 * shrunk by n_L / (n_L + LAMBDA_SHRINK); it is **re-tuned on every draw**, so the interval carries λ's own
 * variability (a λ tuned once on the draws and held fixed left it out: issue 55.1). λ = 0 is the reference-only
 * (classical) estimate; classic PPI, which averages the judge over the unlabelled trajectories only, is
 * λ = N / (N − n) here (`lambda: "classic"`). Null when fewer than 2 tasks hold a reference credit, or for classic
 * PPI when every trajectory is labelled.
 */
export function ppiMean(
  c: PpiClusters,
  o: { seed: string; resamples: number; level: number; lambda?: number | "classic" },
): PpiEstimate | null {
  const tasks = c.nAll.length;
  const labelled: number[] = [];
  const other: number[] = [];
  for (let t = 0; t < tasks; t++)
    if (c.nRef[t] > 0) labelled.push(t);
    else if (c.nAll[t] > 0) other.push(t);
  if (labelled.length < 2) return null;
  const nRef = c.nRef.reduce((x, y) => x + y, 0);
  const nAll = c.nAll.reduce((x, y) => x + y, 0);
  if (o.lambda === "classic" && !(nAll > nRef)) return null;
  const fixed = o.lambda === "classic" ? nAll / (nAll - nRef) : o.lambda;
  const shrink = labelled.length / (labelled.length + LAMBDA_SHRINK);
  // λ of a weighting from that weighting's terms (computed once per draw, for the estimate and for λ).
  const tuned = (wL: Float64Array, wU: Float64Array, x: Terms) => shrink * plugInLambda(c, labelled, other, wL, wU, x);
  const ones = (n: number) => new Float64Array(n).fill(1);
  const [oneL, oneU] = [ones(labelled.length), ones(other.length)];
  const sample = terms(c, labelled, other, oneL, oneU);
  const lambda = fixed ?? tuned(oneL, oneU, sample);
  const B = o.resamples;
  const a = new Float64Array(B);
  const corrected = new Float64Array(B);
  const judge = new Float64Array(B);
  const drawL = clusterDraws(`${o.seed}:labelled tasks`, labelled.length);
  const drawU = other.length ? clusterDraws(`${o.seed}:other tasks`, other.length) : null;
  const wL = new Float64Array(labelled.length);
  const wU = new Float64Array(other.length);
  for (let d = 0; d < B; d++) {
    drawL.draw(wL);
    drawU?.draw(wU);
    const x = terms(c, labelled, other, wL, wU);
    a[d] = x.a;
    corrected[d] = x.a + (fixed ?? tuned(wL, wU, x)) * x.b;
    judge[d] = x.judge;
  }
  // Expanded percentile (Hesterberg 2015) on the labelled tasks' count: a plain percentile interval over 10
  // labelled tasks covered 89-92% at 95% nominal in the coverage runs (bench/ppi-coverage.ts). A tuned λ spends
  // `shrink` of a degree of freedom (expandedPercentileLevel's `spent`); without it the interval covered 92.3%
  // where the reference-only one covered 93.2% (bench/ppi-task-judges.ts, "unseen", broken tasks, 8 labelled).
  const level = expandedPercentileLevel(o.level, labelled.length);
  // Every trajectory labelled: B is 0 on every draw, λ multiplies nothing and spends nothing.
  const spendsDf = fixed === undefined && nAll > nRef;
  const correctedLevel = spendsDf ? expandedPercentileLevel(o.level, labelled.length, shrink) : level;
  const ci = percentileCI(corrected, correctedLevel);
  const classicalCi = percentileCI(a, level);
  const width = ci[1] - ci[0];
  return {
    estimate: sample.a + lambda * sample.b,
    ci,
    ci_mc_se: endpointMcSe(corrected, correctedLevel),
    lambda,
    lambda_rule: o.lambda === "classic" ? "classic" : fixed === undefined ? "power-tuned" : "fixed",
    n_reference: nRef,
    reference_tasks: labelled.length,
    n_all: nAll,
    tasks: labelled.length + other.length,
    classical: { estimate: sample.a, ci: classicalCi, ci_mc_se: endpointMcSe(a, level) },
    judge_only: {
      estimate: sample.judge,
      ci: percentileCI(judge, expandedPercentileLevel(o.level, labelled.length + other.length)),
    },
    effective_reference: width > 0 ? nRef * ((classicalCi[1] - classicalCi[0]) / width) ** 2 : null,
    resamples: B,
    seed: o.seed,
  };
}

/** A weighting's sums (n_ref, f_ref, n_all) and the ratios built from them. */
type Terms = ReturnType<typeof terms>;

/** A = mean_ref(h), B = mean_all(f) − mean_ref(f) and mean_all(f) on task weights (wL over labelled, wU other). */
function terms(c: PpiClusters, labelled: number[], other: number[], wL: Float64Array, wU: Float64Array) {
  let h = 0;
  let fRef = 0;
  let nRef = 0;
  let fAll = 0;
  let nAll = 0;
  labelled.forEach((t, i) => {
    const w = wL[i];
    h += w * c.hRef[t];
    fRef += w * c.fRef[t];
    nRef += w * c.nRef[t];
    fAll += w * c.fAll[t];
    nAll += w * c.nAll[t];
  });
  other.forEach((t, i) => {
    fAll += wU[i] * c.fAll[t];
    nAll += wU[i] * c.nAll[t];
  });
  const judge = fAll / nAll;
  return { a: h / nRef, b: judge - fRef / nRef, judge, nRef, fRef, nAll };
}

/** −Cov(A, B)/Var(B), clipped to [0, 1]; 0 when B does not vary. */
export function clippedLambda(cov: number, varB: number): number {
  if (!(varB > 0)) return 0;
  return Math.min(1, Math.max(0, -cov / varB));
}

/**
 * The plug-in λ of one weighting of the tasks (a draw, or the sample with every weight 1): −Cov(A, B)/Var(B) from
 * the tasks' linearised contributions to the ratios A = mean_ref(h) = Σh/Σn and B = mean_all(f) − mean_ref(f) (a
 * ratio's contribution: (x_t − R·n_t)/Σn), each stratum's (labelled, other) variance of a sum of its resampled
 * tasks being Σ w (x − x̄)² (with replacement, the stratum's size fixed), clipped to [0, 1]. `s`: the weighting's
 * terms when the caller has them already (a draw computes them once for the estimate and for λ).
 */
export function plugInLambda(
  c: PpiClusters,
  labelled: number[],
  other: number[],
  wL: Float64Array,
  wU: Float64Array,
  s: Terms = terms(c, labelled, other, wL, wU),
): number {
  const { nRef, nAll, fRef } = s;
  const A = s.a;
  const F = fRef / nRef;
  const G = s.judge;
  const z = (t: number) => (c.hRef[t] - A * c.nRef[t]) / nRef;
  const yAll = (t: number) => (c.fAll[t] - G * c.nAll[t]) / nAll;
  const yL = (t: number) => yAll(t) - (c.fRef[t] - F * c.nRef[t]) / nRef;
  const moments = (ids: number[], w: Float64Array, x: (t: number) => number, y: (t: number) => number) => {
    let m = 0;
    let mx = 0;
    let my = 0;
    ids.forEach((t, i) => {
      m += w[i];
      mx += w[i] * x(t);
      my += w[i] * y(t);
    });
    mx /= m;
    my /= m;
    let cov = 0;
    let vy = 0;
    ids.forEach((t, i) => {
      cov += w[i] * (x(t) - mx) * (y(t) - my);
      vy += w[i] * (y(t) - my) ** 2;
    });
    return { cov, vy };
  };
  const L = moments(labelled, wL, z, yL);
  const U = other.length ? moments(other, wU, yAll, yAll) : { vy: 0 };
  return clippedLambda(L.cov, L.vy + U.vy);
}
