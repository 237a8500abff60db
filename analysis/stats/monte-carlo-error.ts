import { percentileIntervalInPlace, percentileKeepsOrder, rejectNaN } from "./quantile.js";

/** Batches used for the Monte Carlo error of bootstrap endpoints (at least 5, each of ≥ 50 draws). */
export const MC_BATCHES = 20;

/**
 * Monte Carlo standard error of the percentile-interval endpoints by batch means: the R draws
 * are split, in draw order, into B consecutive batches; each batch gives its own endpoints, and
 * SE(endpoint from all R draws) ≈ sd(batch endpoints) / √B (batch means, e.g. Flegal & Jones 2010;
 * the draws are independent, so batches are too). It says how far the printed endpoint would move
 * with another seed: with 2,000 draws a 2.5% endpoint rests on ~50 draws beyond it.
 * Null when there are too few draws for ≥ 5 batches of 50.
 */
export function endpointMcSe(draws: Float64Array, level: number, batches = MC_BATCHES): [number, number] | null {
  const b = Math.min(batches, Math.floor(draws.length / 50));
  if (b < 5) return null;
  const size = Math.floor(draws.length / b);
  const lows: number[] = [];
  const highs: number[] = [];
  rejectNaN(draws, "endpointMcSe");
  // Batches of 50 or more at a 95% level are read in place; selection reorders each batch within its own
  // range of one copy.
  const scratch = percentileKeepsOrder(size, level) ? draws : draws.slice();
  for (let k = 0; k < b; k++) {
    const [lo, hi] = percentileIntervalInPlace(scratch, k * size, (k + 1) * size, level);
    lows.push(lo);
    highs.push(hi);
  }
  return [sd(lows) / Math.sqrt(b), sd(highs) / Math.sqrt(b)];
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
