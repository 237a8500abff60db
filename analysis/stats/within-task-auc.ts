import { ClusterSums } from "./cluster-sums.js";
import { checkColumns, groupByLevelAndCluster, type LevelGroups } from "./level-groups.js";

/**
 * Within-task (stratified) AUC: the probability that a PASS outscores a FAIL *of the same task*,
 * ties ½. Pooled AUC also compares trajectories across tasks, so part of it measures how well a
 * score ranks tasks by difficulty; this one does not (cf. the stratified Mann–Whitney
 * statistic, e.g. Hanley & McNeil 1983 on pooling per-stratum AUCs by their pair counts).
 *
 *   AUC_w = Σ_t U_t / Σ_t m_t·n_t,
 *
 * with U_t the Mann–Whitney count of task t (midranks; ties ½) and m_t, n_t its PASS and FAIL
 * counts: each within-task pair weighs the same. Tasks holding one class contribute no pair.
 * A task-clustered bootstrap draw weights task t by w_t: Σ w_t U_t / Σ w_t m_t n_t, so a draw
 * costs O(tasks) after one O(n) pass.
 */
export class WithinTaskAuc {
  /** Per cluster: U_t and m_t·n_t. */
  readonly u: Float64Array;
  readonly pairs: Float64Array;

  private constructor(counts: { u: Float64Array; pairs: Float64Array }) {
    this.u = counts.u;
    this.pairs = counts.pairs;
  }

  /** From a sample's columns: checked, then grouped by (score level, cluster). */
  static of(
    scores: ArrayLike<number>,
    outcomes: ArrayLike<boolean | number>,
    clusterOf: ArrayLike<number>,
    clusters: number,
  ): WithinTaskAuc {
    checkColumns("WithinTaskAuc", scores, outcomes, clusterOf, clusters);
    return WithinTaskAuc.fromGroups(groupByLevelAndCluster(scores, outcomes, clusterOf, clusters), clusters);
  }

  /** From a sample's (score level, cluster) groups (a ClusteredAuc's `levelGroups`: no second grouping). */
  static fromGroups(groups: LevelGroups, clusters: number): WithinTaskAuc {
    return new WithinTaskAuc(withinTaskCounts(groups, clusters));
  }

  /** Tasks holding both a PASS and a FAIL (the only ones that carry pairs). */
  get informativeClusters(): number {
    return this.pairs.reduce((k, p) => k + (p > 0 ? 1 : 0), 0);
  }

  estimate(): number {
    return this.evaluate(new Float64Array(this.u.length).fill(1));
  }

  /** The statistic on a cluster-weighted draw; NaN when the draw holds no within-task pair. */
  evaluate(weights: Float64Array): number {
    // Two running sums of each: a bootstrap draw's integer weights times U_t (a multiple of ½) and
    // m_t·n_t add exactly in any order, so splitting the chain of dependent additions changes no bit.
    const { u, pairs } = this;
    let num0 = 0;
    let num1 = 0;
    let den0 = 0;
    let den1 = 0;
    let c = 0;
    for (; c + 1 < u.length; c += 2) {
      num0 += weights[c] * u[c];
      den0 += weights[c] * pairs[c];
      num1 += weights[c + 1] * u[c + 1];
      den1 += weights[c + 1] * pairs[c + 1];
    }
    if (c < u.length) {
      num0 += weights[c] * u[c];
      den0 += weights[c] * pairs[c];
    }
    const den = den0 + den1;
    return den > 0 ? (num0 + num1) / den : NaN;
  }

  /**
   * Σ U_t and Σ m_t·n_t as a table of sums (analysis/stats/cluster-sums.ts): draws' sums give
   * {@link ofSumsMany}, equal to `evaluate` of their weights when the table is exact (halves and integers).
   */
  sums(): ClusterSums {
    return new ClusterSums([this.u, this.pairs]);
  }

  /** The AUC, Σ U / Σ m·n, of `count` draws' sums (four a draw) into out[0, count); NaN without a pair. */
  ofSumsMany(sums: Float64Array, count: number, out: Float64Array): void {
    for (let i = 0; i < count; i++) out[i] = sums[4 * i + 1] > 0 ? sums[4 * i] / sums[4 * i + 1] : NaN;
  }
}

/**
 * U_t and m_t·n_t per cluster, counted level by level over the groups, scores ascending: a group's PASSes
 * each add the FAILs of their task below them and half of those tied with them (the group's FAILs). Every
 * term is a multiple of ½, so U_t is the exact Mann–Whitney count, the one the midranks' rank sum gives
 * (Σ ranks − m(m+1)/2), without a sort of each task's scores (a comparator sort of 50-odd scores per task
 * cost as much as the pooled AUC's construction). A cluster has one group per level at most.
 */
function withinTaskCounts(groups: LevelGroups, clusters: number): { u: Float64Array; pairs: Float64Array } {
  const u = new Float64Array(clusters);
  const passes = new Float64Array(clusters);
  const failsBelow = new Float64Array(clusters);
  for (let g = 0; g < groups.cluster.length; g++) {
    const c = groups.cluster[g];
    u[c] += groups.pos[g] * (failsBelow[c] + 0.5 * groups.neg[g]);
    passes[c] += groups.pos[g];
    failsBelow[c] += groups.neg[g];
  }
  const pairs = new Float64Array(clusters);
  for (let c = 0; c < clusters; c++) pairs[c] = passes[c] * failsBelow[c];
  return { u, pairs };
}
