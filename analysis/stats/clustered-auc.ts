import { argError } from "../errors.js";
import { sortedOrder } from "./ranks.js";

/**
 * AUC prepared for cluster-weighted evaluation: sort once, then evaluate any
 * cluster-multiplicity vector in O(g), g ≤ n the number of distinct
 * (score level, cluster) groups.
 *
 * Method: observations are sorted by score and collapsed into groups of equal
 * score within one cluster holding (positives, negatives). For a weight vector
 * w, walking score levels upward with W₋ = weighted negatives below,
 * AUC = Σ_levels P_l (W₋ + ½N_l) / (ΣP · ΣN), i.e. the Mann–Whitney count with
 * ties ½ on the data where cluster k appears w_k times. With all weights 1 it
 * equals {@link auc}.
 */
export class ClusteredAuc {
  readonly n: number;
  readonly clusters: number;
  private readonly groupCluster: Int32Array;
  private readonly groupPos: Float64Array;
  private readonly groupNeg: Float64Array;
  /** levelEnd[l] = one past the last group of score level l. */
  private readonly levelEnd: Int32Array;
  private readonly clusterPos: Float64Array;
  private readonly clusterNeg: Float64Array;

  constructor(scores: ArrayLike<number>, outcomes: ArrayLike<boolean>, clusterOf: ArrayLike<number>, clusters: number) {
    const n = scores.length;
    if (outcomes.length !== n || clusterOf.length !== n) {
      throw argError(
        "ClusteredAuc",
        "lengths",
        [n, outcomes.length, clusterOf.length],
        "scores, outcomes and clusterOf must have equal length",
      );
    }
    this.n = n;
    this.clusters = clusters;
    this.clusterPos = new Float64Array(clusters);
    this.clusterNeg = new Float64Array(clusters);
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(scores[i])) throw argError("ClusteredAuc", `scores[${i}]`, scores[i], "must be finite");
      const c = clusterOf[i];
      if (!(Number.isInteger(c) && c >= 0 && c < clusters))
        throw argError("ClusteredAuc", `clusterOf[${i}]`, c, `must be an integer in [0, ${clusters})`);
      if (outcomes[i]) this.clusterPos[c]++;
      else this.clusterNeg[c]++;
    }
    // One sort by (score, cluster); ties in score keep clusters adjacent.
    const order = sortedOrder(scores);
    const byScoreThenCluster = Array.from(order).sort((a, b) => scores[a] - scores[b] || clusterOf[a] - clusterOf[b]);
    const gc: number[] = [],
      gp: number[] = [],
      gn: number[] = [],
      ends: number[] = [];
    for (let i = 0; i < n; i++) {
      const idx = byScoreThenCluster[i];
      const prev = i > 0 ? byScoreThenCluster[i - 1] : -1;
      const newLevel = i === 0 || scores[idx] !== scores[prev];
      if (newLevel && i > 0) ends.push(gc.length);
      if (newLevel || clusterOf[idx] !== clusterOf[prev]) {
        gc.push(clusterOf[idx]);
        gp.push(0);
        gn.push(0);
      }
      if (outcomes[idx]) gp[gp.length - 1]++;
      else gn[gn.length - 1]++;
    }
    if (n > 0) ends.push(gc.length);
    this.groupCluster = Int32Array.from(gc);
    this.groupPos = Float64Array.from(gp);
    this.groupNeg = Float64Array.from(gn);
    this.levelEnd = Int32Array.from(ends);
  }

  /** Number of (score level, cluster) groups: the per-draw cost. */
  get groups(): number {
    return this.groupCluster.length;
  }

  /** True when the weighted sample holds both a positive and a negative. */
  hasBothClasses(w: Float64Array): boolean {
    let p = 0,
      q = 0;
    for (let c = 0; c < this.clusters; c++) {
      p += w[c] * this.clusterPos[c];
      q += w[c] * this.clusterNeg[c];
      if (p > 0 && q > 0) return true;
    }
    return false;
  }

  /** AUC with cluster k counted w[k] times; NaN if one class is absent. */
  evaluate(w: Float64Array): number {
    let negBelow = 0,
      totalPos = 0,
      num = 0,
      g = 0;
    const { groupCluster, groupPos, groupNeg, levelEnd } = this;
    for (let l = 0; l < levelEnd.length; l++) {
      let lp = 0,
        ln = 0;
      for (const end = levelEnd[l]; g < end; g++) {
        const wc = w[groupCluster[g]];
        lp += wc * groupPos[g];
        ln += wc * groupNeg[g];
      }
      num += lp * (negBelow + 0.5 * ln);
      negBelow += ln;
      totalPos += lp;
    }
    if (totalPos === 0 || negBelow === 0) return NaN;
    return num / (totalPos * negBelow);
  }

  /** The AUC of the sample itself (every cluster once). */
  estimate(): number {
    return this.evaluate(new Float64Array(this.clusters).fill(1));
  }
}
