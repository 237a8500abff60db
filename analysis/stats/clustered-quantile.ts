import { argError } from "../errors.js";

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

  constructor(
    values: ArrayLike<number>,
    clusterOf: ArrayLike<number>,
    private readonly p: number,
  ) {
    if (values.length !== clusterOf.length)
      throw argError("ClusteredQuantile", "lengths", [values.length, clusterOf.length], "must be equal");
    const order = Array.from({ length: values.length }, (_, i) => i).sort(
      (a, b) => values[a] - values[b] || clusterOf[a] - clusterOf[b] || a - b,
    );
    let clusters = 0;
    for (let i = 0; i < clusterOf.length; i++) clusters = Math.max(clusters, clusterOf[i] + 1);
    this.clusterSize = new Float64Array(clusters);
    const gv: number[] = [];
    const gc: number[] = [];
    const gn: number[] = [];
    for (const i of order) {
      this.clusterSize[clusterOf[i]]++;
      const last = gv.length - 1;
      if (last >= 0 && gv[last] === values[i] && gc[last] === clusterOf[i]) gn[last]++;
      else {
        gv.push(values[i]);
        gc.push(clusterOf[i]);
        gn.push(1);
      }
    }
    this.groupValue = Float64Array.from(gv);
    this.groupCluster = Int32Array.from(gc);
    this.groupCount = Float64Array.from(gn);
  }

  /** The sample's quantile: every cluster once (the same arithmetic as quantileSorted on the sorted values). */
  estimate(): number {
    return this.evaluate(new Float64Array(this.clusterSize.length).fill(1));
  }

  /** The quantile of the multiset where each value of cluster k appears w[k] times; NaN if empty. */
  evaluate(w: Float64Array): number {
    let total = 0;
    for (let c = 0; c < this.clusterSize.length; c++) total += w[c] * this.clusterSize[c];
    if (total === 0) return NaN;
    const h = (total - 1) * this.p;
    const lo = Math.floor(h);
    // Values at 0-based ranks lo and lo + 1 of the expanded sorted multiset.
    const { groupValue, groupCluster, groupCount } = this;
    let seen = 0;
    let atLo = NaN;
    for (let g = 0; g < groupValue.length; g++) {
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
