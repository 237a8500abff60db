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
  const a = values instanceof Float64Array ? values : Float64Array.from(values);
  rejectNaN(a, "percentileInterval");
  // Short tails are read in place (tailPair does not reorder); otherwise selection reorders a copy.
  // A typed array (the bootstrap's draws, or a batch of them) is copied by slice, not through its iterator.
  const n = a.length;
  const inPlace = a !== values || percentileKeepsOrder(n, level);
  return percentileIntervalInPlace(inPlace ? a : a.slice(), 0, n, level);
}

/** Whether {@link percentileIntervalInPlace} of n values at `level` only reads them (short tails). */
export function percentileKeepsOrder(n: number, level: number): boolean {
  const tail = (1 - level) / 2;
  return shortTails(n, (n - 1) * tail, (n - 1) * (1 - tail));
}

/** Throws when `values` holds a NaN (a percentile of NaN-bearing draws is undefined). */
export function rejectNaN(values: Float64Array, fn: string): void {
  for (let i = 0; i < values.length; i++)
    if (Number.isNaN(values[i])) throw argError(fn, "values", values[i], "must not contain NaN");
}

/**
 * {@link percentileInterval} of `a[from, to)`, which it may reorder (no NaN there). The two type-7
 * quantiles need four order statistics: the two around each tail's position. Two ways, the same values,
 * since an order statistic does not depend on how it is found (−0 and +0 compare equal here, and print
 * alike):
 * - short tails (a 95% interval of 100 or more draws): one read-only pass keeps each tail's k + 2 most
 *   extreme values in a binary heap (Knuth, TAOCP vol. 3, §5.3.3), n + O(k log k log n) comparisons a tail;
 *   2–3× faster than selection on bootstrap draws (with 2,000 draws and its 20 Monte Carlo
 *   batches, an uplift row's intervals had cost as much as its 2,000 draws), and both tails in the same pass
 *   (one read of the draws instead of two);
 * - otherwise Hoare's quickselect for each order statistic: O(n) instead of a full sort's O(n log n).
 */
export function percentileIntervalInPlace(a: Float64Array, from: number, to: number, level: number): [number, number] {
  const n = to - from;
  if (n === 0) return [NaN, NaN];
  const tail = (1 - level) / 2;
  const low = (n - 1) * tail;
  const high = (n - 1) * (1 - tail);
  if (shortTails(n, low, high)) {
    const kLow = Math.floor(low);
    const kHigh = Math.floor(high);
    const t = tails(a, from, to, kLow + 2, n - kHigh);
    return [t[0] + (low - kLow) * (t[1] - t[0]), t[2] + (high - kHigh) * (t[3] - t[2])];
  }
  const quantile = (h: number, searchFrom: number) => {
    const k = from + Math.floor(h);
    selectInPlace(a, k, searchFrom, to - 1);
    // Everything right of k is ≥ a[k], so the next order statistic is their minimum.
    let next = a[k];
    if (k + 1 < to) {
      next = a[k + 1];
      for (let i = k + 2; i < to; i++) if (a[i] < next) next = a[i];
    }
    return { value: a[k] + (h - Math.floor(h)) * (next - a[k]), k };
  };
  const lower = quantile(low, from);
  // The upper order statistic's index is ≥ the lower's, and a[lower.k + 1 ..] holds exactly the values above it.
  const upper = quantile(high, Math.min(lower.k + 1, to - 1));
  return [lower.value, upper.value];
}

/**
 * Whether the quantiles at positions `low` ≤ `high` of n values lie in short tails: the lower needs the
 * ⌊low⌋ + 2 smallest values, the upper the n − ⌊high⌋ largest, each between 2 and n/8, for
 * {@link tails}' heaps.
 */
function shortTails(n: number, low: number, high: number): boolean {
  const lowCount = Math.floor(low) + 2;
  const highCount = n - Math.floor(high);
  return n >= 16 && lowCount <= n / 8 && highCount >= 2 && highCount <= n / 8;
}

/**
 * In one read-only pass over a[from, to) (n values, 2 ≤ m ≤ n/8 for each tail): the (mLow−1)-th and
 * mLow-th smallest values, and the mHigh-th and (mHigh−1)-th largest, i.e. the order statistics mLow − 2,
 * mLow − 1, n − mHigh and n − mHigh + 1 (0-based, ascending). Each tail is a max-heap of its m most
 * extreme values: the smallest as they are, the largest negated (x ↦ −x reverses the order).
 */
function tails(
  a: Float64Array,
  from: number,
  to: number,
  mLow: number,
  mHigh: number,
): [number, number, number, number] {
  const lowHeap = new Float64Array(mLow);
  const highHeap = new Float64Array(mHigh);
  for (let i = 0; i < mLow; i++) heapPush(lowHeap, i, a[from + i]);
  for (let i = 0; i < mHigh; i++) heapPush(highHeap, i, -a[from + i]);
  // Most values fall between the tails: two comparisons each. Heap tops are re-read after each change.
  let lowTop = lowHeap[0];
  let highTop = highHeap[0];
  for (let i = from + Math.min(mLow, mHigh); i < to; i++) {
    const x = a[i];
    if (x < lowTop && i >= from + mLow) lowTop = heapReplaceTop(lowHeap, x);
    if (-x < highTop && i >= from + mHigh) highTop = heapReplaceTop(highHeap, -x);
  }
  // The heap's top is its largest; its second largest is one of the top's children.
  const second = (heap: Float64Array) => (heap.length > 2 ? Math.max(heap[1], heap[2]) : heap[1]);
  return [second(lowHeap), lowHeap[0], -highHeap[0], -second(highHeap)];
}

/** Adds x to a max-heap of `size` values held in heap[0, size). */
function heapPush(heap: Float64Array, size: number, x: number): void {
  let j = size;
  while (j > 0) {
    const parent = (j - 1) >> 1;
    if (heap[parent] >= x) break;
    heap[j] = heap[parent];
    j = parent;
  }
  heap[j] = x;
}

/** Replaces a full max-heap's top by x (smaller than it) and returns the new top. */
function heapReplaceTop(heap: Float64Array, x: number): number {
  const m = heap.length;
  let j = 0;
  for (;;) {
    let child = 2 * j + 1;
    if (child >= m) break;
    if (child + 1 < m && heap[child + 1] > heap[child]) child++;
    if (heap[child] <= x) break;
    heap[j] = heap[child];
    j = child;
  }
  heap[j] = x;
  return heap[0];
}

/**
 * Hoare's quickselect (median-of-three pivot): afterwards a[k] is the value a sorted a[lo..hi] would hold
 * at k, with nothing larger left of it and nothing smaller right of it.
 */
export function selectInPlace(a: Float64Array, k: number, lo: number, hi: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    const x = a[lo];
    const y = a[mid];
    // The median of a[lo], a[mid], a[hi].
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), a[hi]));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** Median (type-7 quantile at ½); NaN when empty. */
export function median(values: ArrayLike<number>): number {
  const sorted = Float64Array.from(values).sort();
  return quantileSorted(sorted, 0.5);
}
