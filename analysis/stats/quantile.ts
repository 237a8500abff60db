import { argError } from "../errors.js";

/**
 * p-quantile of an ascending-sorted array with linear interpolation between
 * order statistics: h = (n−1)p, x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 * This is Hyndman & Fan (1996) type 7, numpy's and R's default, which the
 * contract fixes for percentile bootstrap intervals (rule 5).
 *
 * NaN for an empty array.
 * @example quantileSorted([1, 2, 3, 4], 0.5) // → 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 1)) throw argError("quantileSorted", "p", p, "must be in [0, 1]");
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** Percentile interval [q(α/2), q(1−α/2)] of unsorted values (NaN values are an error). */
export function percentileInterval(values: ArrayLike<number>, level = 0.95): [number, number] {
  // A typed array (the bootstrap's draws, or a batch of them) is copied by slice, not through its iterator.
  const sorted = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  for (let i = 0; i < sorted.length; i++)
    if (Number.isNaN(sorted[i])) throw argError("percentileInterval", "values", sorted[i], "must not contain NaN");
  sorted.sort();
  const tail = (1 - level) / 2;
  return [quantileSorted(sorted, tail), quantileSorted(sorted, 1 - tail)];
}

/** Median (type-7 quantile at ½); NaN when empty. */
export function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  return quantileSorted(sorted, 0.5);
}
