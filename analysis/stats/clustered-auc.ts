import { argError } from "../errors.js";
import { lowerBound } from "./ranks.js";

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
  /**
   * The same groups ordered by cluster (CSR: clusterStart[c] .. clusterStart[c + 1]), with each group's
   * level index, used when there are few score levels (see `evaluate`). Empty otherwise.
   */
  private readonly byCluster: { start: Int32Array; level: Int32Array; pos: Float64Array; neg: Float64Array };
  private readonly levelPos: Float64Array;
  private readonly levelNeg: Float64Array;
  /** Dense cluster × level counts (row c = cluster c's PASS then FAIL count per level), when most cells are filled. */
  private readonly dense: Float64Array;

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
    const { gc, gp, gn, ends } = groupByLevelAndCluster(scores, outcomes, clusterOf, clusters);
    this.groupCluster = Int32Array.from(gc);
    this.groupPos = Float64Array.from(gp);
    this.groupNeg = Float64Array.from(gn);
    this.levelEnd = Int32Array.from(ends);
    // Few levels (GCPC's k/n grid): walk only the clusters a draw holds (about 63% of them) and add
    // their groups into per-level totals. Many levels (continuous scores): the level-ordered walk.
    // Cost per draw: ≈ 0.63·groups + 3·levels vs groups + levels; bench/bootstrap-bench.ts measures both.
    const clusterMajor = this.groupCluster.length > 6 * this.levelEnd.length;
    this.byCluster = clusterMajor ? clusterMajorGroups(this.groupCluster, this.levelEnd, gp, gn, clusters) : EMPTY_CSR;
    this.levelPos = new Float64Array(clusterMajor ? this.levelEnd.length : 0);
    this.levelNeg = new Float64Array(clusterMajor ? this.levelEnd.length : 0);
    // Most (cluster, level) cells filled: a dense row per cluster, walked without index loads.
    const L = this.levelEnd.length;
    this.dense = new Float64Array(clusterMajor && this.groupCluster.length > 0.5 * L * clusters ? 2 * L * clusters : 0);
    if (this.dense.length > 0) {
      const { start, level, pos, neg } = this.byCluster;
      for (let c = 0; c < clusters; c++)
        for (let g = start[c]; g < start[c + 1]; g++) {
          this.dense[2 * (c * L + level[g])] = pos[g];
          this.dense[2 * (c * L + level[g]) + 1] = neg[g];
        }
    }
  }

  /** Which per-draw walk `evaluate` uses (chosen from the data's shape; see the constructor). */
  get path(): "level" | "cluster" | "dense" {
    return this.dense.length > 0 ? "dense" : this.byCluster.start.length > 0 ? "cluster" : "level";
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
    return this.byCluster.start.length > 0 ? this.evaluateByCluster(w) : this.evaluateByLevel(w);
  }

  /**
   * Per-level weighted totals from the drawn clusters only, then one pass over the levels. Counts
   * and weights are integers, so the totals are exact and the result equals `evaluateByLevel`'s bit
   * for bit (the levels are summed in the same order).
   */
  private evaluateByCluster(w: Float64Array): number {
    const { start, level, pos, neg } = this.byCluster;
    const lp = this.levelPos;
    const ln = this.levelNeg;
    lp.fill(0);
    ln.fill(0);
    const dense = this.dense;
    const L = lp.length;
    for (let c = 0; dense.length > 0 && c < this.clusters; c++) {
      const wc = w[c];
      if (wc === 0) continue;
      for (let l = 0, k = 2 * c * L; l < L; l++, k += 2) {
        lp[l] += wc * dense[k];
        ln[l] += wc * dense[k + 1];
      }
    }
    for (let c = 0; dense.length === 0 && c < this.clusters; c++) {
      const wc = w[c];
      if (wc === 0) continue;
      for (let g = start[c], end = start[c + 1]; g < end; g++) {
        lp[level[g]] += wc * pos[g];
        ln[level[g]] += wc * neg[g];
      }
    }
    let negBelow = 0;
    let totalPos = 0;
    let num = 0;
    for (let l = 0; l < lp.length; l++) {
      num += lp[l] * (negBelow + 0.5 * ln[l]);
      negBelow += ln[l];
      totalPos += lp[l];
    }
    if (totalPos === 0 || negBelow === 0) return NaN;
    return num / (totalPos * negBelow);
  }

  private evaluateByLevel(w: Float64Array): number {
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

const EMPTY_CSR = {
  start: new Int32Array(0),
  level: new Int32Array(0),
  pos: new Float64Array(0),
  neg: new Float64Array(0),
};

/** The (level, cluster) groups re-ordered by cluster, each with its level index (a counting sort). */
function clusterMajorGroups(
  groupCluster: Int32Array,
  levelEnd: Int32Array,
  gp: number[],
  gn: number[],
  clusters: number,
) {
  const start = new Int32Array(clusters + 1);
  for (const c of groupCluster) start[c + 1]++;
  for (let c = 0; c < clusters; c++) start[c + 1] += start[c];
  const next = start.slice(0, clusters);
  const level = new Int32Array(groupCluster.length);
  const pos = new Float64Array(groupCluster.length);
  const neg = new Float64Array(groupCluster.length);
  let l = 0;
  for (let g = 0; g < groupCluster.length; g++) {
    while (g >= levelEnd[l]) l++;
    const k = next[groupCluster[g]]++;
    level[k] = l;
    pos[k] = gp[g];
    neg[k] = gn[g];
  }
  return { start, level, pos, neg };
}

/**
 * (score level, cluster) groups in level order, clusters ascending within a level, with their PASS and
 * FAIL counts, and the end of each level's run of groups. Few distinct scores (GCPC's k/n grid): one
 * pass into a dense level × cluster count table, O(n log L); many: one sort by (score, cluster).
 */
function groupByLevelAndCluster(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean>,
  clusterOf: ArrayLike<number>,
  clusters: number,
) {
  const n = scores.length;
  const iterable = Array.isArray(scores) || ArrayBuffer.isView(scores);
  const distinct = Float64Array.from(new Set(iterable ? (scores as Iterable<number>) : Array.from(scores))).sort();
  const L = distinct.length;
  const gc: number[] = [];
  const gp: number[] = [];
  const gn: number[] = [];
  const ends: number[] = [];
  if (L * clusters <= 4 * n + 1024) {
    const pos = new Float64Array(L * clusters);
    const neg = new Float64Array(L * clusters);
    for (let i = 0; i < n; i++) {
      const cell = lowerBound(distinct, scores[i]) * clusters + clusterOf[i];
      if (outcomes[i]) pos[cell]++;
      else neg[cell]++;
    }
    for (let l = 0; l < L; l++) {
      for (let c = 0; c < clusters; c++) {
        const cell = l * clusters + c;
        if (pos[cell] + neg[cell] === 0) continue;
        gc.push(c);
        gp.push(pos[cell]);
        gn.push(neg[cell]);
      }
      ends.push(gc.length);
    }
    return { gc, gp, gn, ends };
  }
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => scores[a] - scores[b] || clusterOf[a] - clusterOf[b],
  );
  for (let i = 0; i < n; i++) {
    const idx = order[i];
    const prev = i > 0 ? order[i - 1] : -1;
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
  return { gc, gp, gn, ends };
}
