import { argError } from "../errors.js";
import { countingSort, identity } from "./counting-sort.js";
import { levelCodes } from "./level-codes.js";

/**
 * A type-7 quantile prepared for cluster-weighted evaluation: values sorted once; a draw that
 * counts cluster k w[k] times is evaluated in O(groups) on the implied multiset, without building it.
 * With all weights 1 it equals quantileSorted on the sorted values (Hyndman & Fan type 7).
 */
export class ClusteredQuantile {
  /**
   * The sorted values collapsed into (value, cluster) groups with their counts: a draw walks groups,
   * not values (RQ3's medians over a million pairs). Equal values are interchangeable in an
   * order statistic, so the quantile is the same; with integer weights (a bootstrap draw) every running
   * count is exact, so the ranks are too.
   */
  private readonly groupValue: Float64Array;
  private readonly groupCluster: Int32Array;
  private readonly groupCount: Float64Array;
  /** Values per cluster: a draw's total is Σ_c w_c·size_c. */
  private readonly clusterSize: Float64Array;
  /** The group holding the sample's own quantile rank (0 when the walk from the start is as cheap). */
  private readonly anchor: number;
  /** Each cluster's values in the groups before the anchor. */
  private readonly anchorBefore: Float64Array;

  constructor(
    values: ArrayLike<number>,
    clusterOf: ArrayLike<number>,
    private readonly p: number,
  ) {
    if (values.length !== clusterOf.length)
      throw argError("ClusteredQuantile", "lengths", [values.length, clusterOf.length], "must be equal");
    const order = sortedOrder(values, clusterOf);
    let clusters = 0;
    for (let i = 0; i < clusterOf.length; i++) clusters = Math.max(clusters, clusterOf[i] + 1);
    this.clusterSize = new Float64Array(clusters);
    const n = order.length;
    const gv = new Float64Array(n);
    const gc = new Int32Array(n);
    const gn = new Float64Array(n);
    let groups = 0;
    for (let k = 0; k < n; k++) {
      const i = order[k];
      this.clusterSize[clusterOf[i]]++;
      const last = groups - 1;
      if (last >= 0 && gv[last] === values[i] && gc[last] === clusterOf[i]) gn[last]++;
      else {
        gv[groups] = values[i];
        gc[groups] = clusterOf[i];
        gn[groups++] = 1;
      }
    }
    this.groupValue = gv.slice(0, groups);
    this.groupCluster = gc.slice(0, groups);
    this.groupCount = gn.slice(0, groups);
    // The anchor: the group holding the sample's own rank ⌊(n − 1)p⌋, and each cluster's values before it.
    const lo = Math.floor((n - 1) * p);
    let anchor = 0;
    for (let seen = 0; anchor < groups && seen + this.groupCount[anchor] <= lo; anchor++)
      seen += this.groupCount[anchor];
    this.anchor = groups > ANCHOR_GROUPS_PER_CLUSTER * clusters ? anchor : 0;
    this.anchorBefore = new Float64Array(this.anchor > 0 ? clusters : 0);
    for (let g = 0; g < this.anchor; g++) this.anchorBefore[this.groupCluster[g]] += this.groupCount[g];
  }

  /** The sample's quantile: every cluster once (the same arithmetic as quantileSorted on the sorted values). */
  estimate(): number {
    return this.evaluate(new Float64Array(this.clusterSize.length).fill(1));
  }

  /** The quantile of the multiset where each value of cluster k appears w[k] times; NaN if empty. */
  evaluate(w: Float64Array): number {
    let total = 0;
    for (let c = 0; c < this.clusterSize.length; c++) total += w[c] * this.clusterSize[c];
    return this.walk(w, total, 0, 0);
  }

  /**
   * {@link evaluate} of a bootstrap draw, the sample or a jackknife's weights (non-negative integers): the
   * same value, bit for bit. The walk starts at the last group g with seen(g) ≤ lo, where seen(g) is the
   * draw's count of values in the groups before g: from the anchor (its seen is one pass over the
   * clusters, beside the total's), stepping back while seen > lo. The walk from the first group reaches g
   * with that same seen and nothing found yet, and every count is an integer, exact in any order. A draw's
   * quantile lies near the sample's, so the walk is short instead of half of the groups (RQ3 at 8,000
   * tasks: 0.1 → 0.01 ms a draw). Other weights must use `evaluate`: their sums' rounding depends on order.
   */
  evaluateDraw(w: Float64Array): number {
    const { clusterSize, anchorBefore } = this;
    if (anchorBefore.length === 0) return this.evaluate(w);
    let total = 0;
    let seen = 0;
    for (let c = 0; c < clusterSize.length; c++) {
      const x = w[c];
      total += x * clusterSize[c];
      seen += x * anchorBefore[c];
    }
    if (total === 0) return NaN;
    const lo = Math.floor((total - 1) * this.p);
    let start = this.anchor;
    while (seen > lo) {
      start--;
      seen -= w[this.groupCluster[start]] * this.groupCount[start];
    }
    return this.walk(w, total, start, seen);
  }

  /** The type-7 quantile, walking from group `start`, before which the draw holds `seen` values (≤ its rank). */
  private walk(w: Float64Array, total: number, start: number, seen: number): number {
    if (total === 0) return NaN;
    const h = (total - 1) * this.p;
    const lo = Math.floor(h);
    // Values at 0-based ranks lo and lo + 1 of the expanded sorted multiset.
    const { groupValue, groupCluster, groupCount } = this;
    let atLo = NaN;
    for (let g = start; g < groupValue.length; g++) {
      seen += w[groupCluster[g]] * groupCount[g];
      if (Number.isNaN(atLo) && seen > lo) atLo = groupValue[g];
      if (seen > lo + 1 || (seen > lo && lo + 1 >= total)) {
        const atHi = lo + 1 >= total ? atLo : groupValue[g];
        return atLo + (h - lo) * (atHi - atLo);
      }
    }
    return atLo;
  }
}

/**
 * Groups per cluster from which a draw starts its walk at the anchor: the anchor's seen costs one pass over
 * the clusters, which the skipped groups (about half of them) repay.
 */
const ANCHOR_GROUPS_PER_CLUSTER = 2;

/**
 * Indices ordered by (value, cluster, index). With finite values, two counting sorts on integer codes
 * (the value's rank among the distinct values, −0 as +0, as the comparator sees them;
 * analysis/stats/level-codes.ts): O(n + levels + clusters), no comparisons (the comparator sort of
 * 200,000 pairs cost as much as their 2,000 draws). NaN keeps the comparator, whose order it has always had.
 */
function sortedOrder(values: ArrayLike<number>, clusterOf: ArrayLike<number>): Int32Array {
  const n = values.length;
  let finite = true;
  let clusters = 0;
  for (let i = 0; i < n; i++) {
    if (values[i] - values[i] !== 0) finite = false;
    clusters = Math.max(clusters, clusterOf[i] + 1);
  }
  if (!finite || !integerClusters(clusterOf)) {
    return Int32Array.from(
      Array.from({ length: n }, (_, i) => i).sort(
        (a, b) => values[a] - values[b] || clusterOf[a] - clusterOf[b] || a - b,
      ),
    );
  }
  const { level, values: distinct } = levelCodes(values);
  return countingSort(countingSort(identity(n), clusterOf, clusters), level, distinct.length);
}

/** Whether every cluster index is a non-negative integer (what the counting sort indexes by). */
function integerClusters(clusterOf: ArrayLike<number>): boolean {
  for (let i = 0; i < clusterOf.length; i++)
    if (!((clusterOf[i] | 0) === clusterOf[i] && clusterOf[i] >= 0)) return false;
  return true;
}
