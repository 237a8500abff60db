/**
 * Midranks (average ranks, 1-based) of a numeric array.
 *
 * Tied values share the mean of the ranks they occupy, which is what both the
 * Mann–Whitney form of the AUC (ties count ½) and Spearman's ρ with ties need
 * (cf. simple-statistics `sample_rank_correlation`; d3's rank gives ties the
 * lowest rank instead, which would bias both).
 *
 * Complexity O(n log n).
 * @example midranks([10, 20, 20, 30]) // → [1, 2.5, 2.5, 4]
 */
export function midranks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = sortedOrder(values);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && values[order[j]] === values[order[i]]) j++;
    const mid = (i + 1 + j) / 2; // mean of ranks i+1 .. j
    for (let k = i; k < j; k++) ranks[order[k]] = mid;
    i = j;
  }
  return ranks;
}

/** Indices that sort `values` ascending (stable). */
export function sortedOrder(values: ArrayLike<number>): Uint32Array {
  const order = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => values[a] - values[b] || a - b);
  return order;
}

/**
 * Dense ranks of integers: out[k] = the rank, 0, 1, … ascending, of value k (values[members[k]], or
 * values[k] without members) among the distinct values read; returns how many there are. One array over
 * the values' own range [min, max] and no sort, so the range must be small (a few times the count).
 */
export function denseRanksInto(
  values: ArrayLike<number>,
  members: ArrayLike<number> | undefined,
  out: Int32Array,
): number {
  const count = members ? members.length : values.length;
  const at = (k: number) => (members ? values[members[k]] : values[k]);
  let bottom = Number.POSITIVE_INFINITY;
  let top = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < count; k++) {
    const v = at(k);
    if (v < bottom) bottom = v;
    if (v > top) top = v;
  }
  const to = new Int32Array(Math.max(0, top - bottom + 1));
  for (let k = 0; k < count; k++) to[at(k) - bottom] = 1;
  let distinct = 0;
  for (let r = 0; r < to.length; r++) if (to[r] === 1) to[r] = distinct++;
  for (let k = 0; k < count; k++) out[k] = to[at(k) - bottom];
  return distinct;
}
