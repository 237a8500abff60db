import jStat from "jstat";
import { rejectNaN, selectInPlace } from "./quantile.js";

/** Batches used for the Monte Carlo error of BCa's endpoints (at least 5, each of ≥ 50 draws). */
export const MC_BATCHES = 20;

/**
 * Monte Carlo standard error of the percentile-interval endpoints (how far each printed endpoint would move
 * with another seed), by the Maritz–Jarrett estimator of a sample quantile's standard error (Maritz & Jarrett
 * 1978, JASA 73:194–196; Wilcox, Introduction to Robust Estimation, §3.5.2): the q-quantile of R fresh draws
 * from the bootstrap distribution is its m-th order statistic, m = round(q·R), and F(X₍ₘ₎) ~ Beta(m, R − m + 1);
 * with F estimated by the R draws themselves, the endpoint is x₍ᵢ₎ with probability
 * W_i = I_{i/R}(m, R − m + 1) − I_{(i−1)/R}(m, R − m + 1), so SE² = Σ W_i x₍ᵢ₎² − (Σ W_i x₍ᵢ₎)².
 *
 * It replaced batch means (sd of 20 batches' endpoints / √20), which assumes an endpoint's variance falls
 * as 1/draws: true for smooth draws, false for lumpy ones (a median of few pairs, a share k/n), whose
 * endpoint snaps between a few values. There batch means understated the spread over seeds 2.7× (RQ3's
 * median) or overstated it where the endpoint never moved; Maritz–Jarrett reads the atoms directly (0 when
 * the ranks around m hold one value), and agrees with batch means on smooth draws (test/monte-carlo-error.test.ts
 * checks both against the spread over seeds). Null below 250 draws (a 2.5% tail of fewer than 7 draws).
 */
export function endpointMcSe(draws: Float64Array, level: number): [number, number] | null {
  const n = draws.length;
  if (n < 250) return null;
  rejectNaN(draws, "endpointMcSe");
  const tail = (1 - level) / 2;
  const low = betaWeights(n, tail);
  const high = betaWeights(n, 1 - tail);
  // Only the ranks each estimate reads need their order: quickselect puts the window's bounds in place, then
  // each window alone is sorted (a full sort of every statistic's draws cost 0.1 ms a call, 26,000 calls at 100×
  // the paper). The values read are the sorted array's, so every bit is the same.
  const a = draws.slice();
  if (low.to >= high.from) a.sort();
  else {
    selectInPlace(a, low.to - 1, 0, n - 1);
    a.subarray(0, low.to).sort();
    selectInPlace(a, high.from - 1, low.to, n - 1);
    a.subarray(high.from - 1, n).sort();
  }
  return [weightedSe(a, low), weightedSe(a, high)];
}

/** The Maritz–Jarrett standard error of the q-quantile of sorted draws (see {@link endpointMcSe}). */
export function quantileMcSe(sorted: Float64Array, q: number): number {
  return weightedSe(sorted, betaWeights(sorted.length, q));
}

interface BetaWeights {
  /** The order statistic m the estimate centres on, and the 1-based ranks [from, to] it reads. */
  m: number;
  from: number;
  to: number;
  /** W_i for i = from..to. */
  w: Float64Array;
}

/**
 * The weights of the ranks around the q-quantile of n draws. They depend on (n, q) alone, and a report asks for
 * the same few pairs thousands of times (2,000 or 10,000 draws at 2.5% and 97.5%): computed once per pair.
 */
const weightsOf = new Map<string, BetaWeights>();
function betaWeights(n: number, q: number): BetaWeights {
  const key = `${n}:${q}`;
  let found = weightsOf.get(key);
  if (!found) weightsOf.set(key, (found = computeWeights(n, q)));
  return found;
}

function computeWeights(n: number, q: number): BetaWeights {
  // The order statistic nearest to the type-7 position (n − 1)·q + 1 the interval reads.
  const m = Math.min(n, Math.max(1, Math.round((n - 1) * q + 1)));
  const [a, b] = [m, n - m + 1];
  // Beta(m, n − m + 1) has SD ≈ √(q(1 − q)/n): beyond 12 SDs (in ranks) the weights are below 1e-30.
  const reach = Math.ceil(12 * Math.sqrt(n * q * (1 - q))) + 2;
  const from = Math.max(1, m - reach);
  const to = Math.min(n, m + reach);
  const w = new Float64Array(to - from + 1);
  let below = from === 1 ? 0 : jStat.ibeta((from - 1) / n, a, b);
  for (let i = from; i <= to; i++) {
    const upTo = i === n ? 1 : jStat.ibeta(i / n, a, b);
    // ibeta is good to about 1e-8 relative: weights far below that are rounding, not probability (they put
    // 1e-24 on an atom 12 SDs away and printed an SE of 4e-24 for an endpoint no seed moves).
    w[i - from] = upTo - below > 1e-12 ? upTo - below : 0;
    below = upTo;
  }
  return { m, from, to, w };
}

/** SE² = Σ W_i x₍ᵢ₎² − (Σ W_i x₍ᵢ₎)², over the weights' ranks of draws sorted at least there (centred on x₍ₘ₎). */
function weightedSe(sorted: Float64Array, o: BetaWeights): number {
  const centre = sorted[o.m - 1];
  let mass = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = o.from; i <= o.to; i++) {
    const w = o.w[i - o.from];
    const x = sorted[i - 1] - centre;
    mass += w;
    s1 += w * x;
    s2 += w * x * x;
  }
  if (!(mass > 0)) return 0;
  const mean = s1 / mass;
  return Math.sqrt(Math.max(0, s2 / mass - mean * mean));
}

function sd(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/**
 * The batch-means Monte Carlo SE of any interval read from the draws: `interval` gives the endpoints of one
 * batch (each batch is that many independent draws), and SE ≈ sd(batch endpoints) / √B as above. For a BCa
 * interval the batch recomputes its own bias correction z₀ from its draws (the acceleration comes from the
 * jackknife, which no seed moves), so the spread it measures is that of the endpoints actually printed.
 * Null with too few draws, or when the interval is undefined on a batch.
 */
export function intervalMcSe(
  draws: Float64Array,
  interval: (batch: Float64Array) => [number, number] | null,
  batches = MC_BATCHES,
): [number, number] | null {
  const b = Math.min(batches, Math.floor(draws.length / 50));
  if (b < 5) return null;
  const size = Math.floor(draws.length / b);
  const lows: number[] = [];
  const highs: number[] = [];
  for (let k = 0; k < b; k++) {
    const ends = interval(draws.subarray(k * size, (k + 1) * size));
    if (!ends || !Number.isFinite(ends[0]) || !Number.isFinite(ends[1])) return null;
    lows.push(ends[0]);
    highs.push(ends[1]);
  }
  return [sd(lows) / Math.sqrt(b), sd(highs) / Math.sqrt(b)];
}
