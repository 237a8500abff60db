import { argError } from "../errors.js";
import { componentCovariance, undefinedEstimatorReason, type ClusterComponents } from "./obuchowski.js";

/**
 * Obuchowski's per-cluster components (analysis/stats/obuchowski.ts) on a cluster-bootstrap draw
 * given as cluster multiplicities: the drawn sample holds w_c copies of cluster c, and each copy is a
 * cluster of its own. What a studentized (bootstrap-t) interval needs: the AUC's standard error on
 * every draw, not only on the sample.
 *
 * The observations are sorted once; a draw then costs one pass over them in score order (O(n)):
 * the weighted count of negatives below a positive's score (ties ½) over the drawn negatives gives
 * its placement V10, and likewise V01. Cluster sums are per original cluster (one copy); the copies
 * enter through the weights in {@link weightedCovariance}. With every weight 1 the result equals
 * clusterComponents() (tested), and with integer weights it equals clusterComponents() on the
 * concatenated resample (tested).
 */
export class DrawComponents {
  private readonly order: Int32Array;
  /** Start of each tie group in `order` (plus a sentinel n). */
  private readonly groupStart: Int32Array;
  private readonly m: Float64Array;
  private readonly n: Float64Array;

  constructor(
    scores: ArrayLike<number>,
    private readonly outcomes: ArrayLike<boolean | number>,
    private readonly clusterOf: ArrayLike<number>,
    readonly clusters: number,
  ) {
    const total = scores.length;
    if (outcomes.length !== total || clusterOf.length !== total)
      throw argError("DrawComponents", "lengths", [total, outcomes.length, clusterOf.length], "must be equal");
    this.order = Int32Array.from({ length: total }, (_, i) => i).sort((i, j) => scores[i] - scores[j]);
    const starts: number[] = [];
    for (let k = 0; k < total; k++) if (k === 0 || scores[this.order[k]] !== scores[this.order[k - 1]]) starts.push(k);
    starts.push(total);
    this.groupStart = Int32Array.from(starts);
    this.m = new Float64Array(clusters);
    this.n = new Float64Array(clusters);
    for (let i = 0; i < total; i++) (outcomes[i] ? this.m : this.n)[clusterOf[i]]++;
  }

  /** The components of the draw with cluster multiplicities `w` (w_c copies of cluster c). */
  components(w: ArrayLike<number>): ClusterComponents {
    const { order, groupStart, outcomes, clusterOf, clusters } = this;
    let M = 0;
    let N = 0;
    let withPositive = 0;
    let withNegative = 0;
    let I = 0;
    for (let c = 0; c < clusters; c++) {
      M += w[c] * this.m[c];
      N += w[c] * this.n[c];
      I += w[c];
      if (this.m[c] > 0) withPositive += w[c];
      if (this.n[c] > 0) withNegative += w[c];
    }
    const V10 = new Float64Array(clusters);
    const V01 = new Float64Array(clusters);
    let negBelow = 0;
    let posBelow = 0;
    let sum = 0;
    for (let g = 0; g + 1 < groupStart.length; g++) {
      let negAt = 0;
      let posAt = 0;
      for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
        const i = order[k];
        if (outcomes[i]) posAt += w[clusterOf[i]];
        else negAt += w[clusterOf[i]];
      }
      const v10 = N > 0 ? (negBelow + 0.5 * negAt) / N : NaN;
      const v01 = M > 0 ? (M - posBelow - posAt + 0.5 * posAt) / M : NaN;
      for (let k = groupStart[g]; k < groupStart[g + 1]; k++) {
        const i = order[k];
        if (outcomes[i]) {
          V10[clusterOf[i]] += v10;
          sum += w[clusterOf[i]] * v10;
        } else V01[clusterOf[i]] += v01;
      }
      negBelow += negAt;
      posBelow += posAt;
    }
    return { auc: sum / M, M, N, clusters: I, withPositive, withNegative, V10, V01, m: this.m, n: this.n };
  }
}

/**
 * Obuchowski's covariance of two AUCs on one draw: {@link componentCovariance} with each cluster
 * counted w_c times (the sums over the drawn clusters run over copies). NaN where the estimator is
 * undefined on the draw (fewer than 2 drawn clusters with a positive or a negative).
 */
export function weightedCovariance(a: ClusterComponents, b: ClusterComponents, w: ArrayLike<number>): number {
  if (undefinedEstimatorReason(a) !== undefined) return NaN;
  return componentCovariance(a, b, w);
}

/**
 * Per-draw standard errors of one AUC and of a paired ΔAUC (Obuchowski's clustered estimator on the
 * draw), for the studentized interval. Built only when that interval is asked for.
 */
export function aucDrawSe(d: DrawComponents): (w: Float64Array) => number {
  return (w) => {
    const c = d.components(w);
    return Math.sqrt(weightedCovariance(c, c, w));
  };
}

export function pairedDeltaDrawSe(a: DrawComponents, b: DrawComponents): (w: Float64Array) => number {
  return (w) => {
    const ca = a.components(w);
    const cb = b.components(w);
    return Math.sqrt(weightedCovariance(ca, ca, w) + weightedCovariance(cb, cb, w) - 2 * weightedCovariance(ca, cb, w));
  };
}
