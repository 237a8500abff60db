import { argError } from "../errors.js";
import { quantileSorted } from "./quantile.js";

/**
 * A type-7 quantile prepared for cluster-weighted evaluation: values sorted once; a draw that
 * counts cluster k w[k] times is evaluated in O(n) on the implied multiset, without building it.
 * With all weights 1 it equals quantileSorted on the sorted values (Hyndman & Fan type 7).
 */
export class ClusteredQuantile {
  private readonly values: Float64Array;
  private readonly cluster: Int32Array;

  constructor(
    values: ArrayLike<number>,
    clusterOf: ArrayLike<number>,
    private readonly p: number,
  ) {
    if (values.length !== clusterOf.length)
      throw argError("ClusteredQuantile", "lengths", [values.length, clusterOf.length], "must be equal");
    const order = Array.from({ length: values.length }, (_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
    this.values = Float64Array.from(order, (i) => values[i]);
    this.cluster = Int32Array.from(order, (i) => clusterOf[i]);
  }

  estimate(): number {
    return quantileSorted(this.values, this.p);
  }

  /** The quantile of the multiset where each value of cluster k appears w[k] times; NaN if empty. */
  evaluate(w: Float64Array): number {
    let total = 0;
    for (let i = 0; i < this.cluster.length; i++) total += w[this.cluster[i]];
    if (total === 0) return NaN;
    const h = (total - 1) * this.p;
    const lo = Math.floor(h);
    // Values at 0-based ranks lo and lo + 1 of the expanded sorted multiset.
    let seen = 0;
    let atLo = NaN;
    for (let i = 0; i < this.values.length; i++) {
      seen += w[this.cluster[i]];
      if (Number.isNaN(atLo) && seen > lo) atLo = this.values[i];
      if (seen > lo + 1 || (seen > lo && lo + 1 >= total)) {
        const atHi = lo + 1 >= total ? atLo : this.values[i];
        return atLo + (h - lo) * (atHi - atLo);
      }
    }
    return atLo;
  }
}
