import { fillDenseRows, LevelTotalsKernel, type LevelTotalsLayout } from "./level-totals.js";
import { checkColumns, groupByLevelAndCluster, type LevelGroups } from "./level-groups.js";
import { TaskPairAuc, taskPairKernelAvailable } from "./task-pair-auc.js";

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
 *
 * Speed (a draw's cost is the bootstrap's floor): with few levels (a k/n score) a group's two
 * counts travel as one number, pos + PACK·neg, so a bootstrap draw costs one multiply-add per group, read
 * in level order with no stores (a gather: w[cluster of group]); when most (level, cluster) cells are
 * filled, as with GCPC's few levels on many tasks, each level is one dense dot product with w, without
 * the cluster index. Continuous scores keep separate counts (see `fewLevels`).
 */
export class ClusteredAuc {
  readonly n: number;
  readonly clusters: number;
  private readonly groupCluster: Int32Array;
  private readonly groupPos: Float64Array;
  private readonly groupNeg: Float64Array;
  /** Each group's counts packed as pos + PACK·neg (see PACK). */
  private readonly groupPacked: Float64Array;
  /** levelEnd[l] = one past the last group of score level l. */
  private readonly levelEnd: Int32Array;
  private readonly clusterPos: Float64Array;
  private readonly clusterNeg: Float64Array;
  /** Dense level × cluster packed counts (row l = every cluster's counts at level l), when most cells are filled. */
  private readonly dense: Float64Array;
  /** Per-level packed weighted totals of one draw. */
  private readonly levelPacked: Float64Array;
  /** The largest PASS or FAIL count of one group: with the weights' sum it bounds a packed total. */
  private readonly largestCount: number;
  /** The packed totals' gather in WebAssembly, for few levels and many groups (analysis/stats/level-totals.ts). */
  private readonly kernel: LevelTotalsKernel | undefined;
  /** The task-pair quadratic form for draws, where cheaper than the level walk (analysis/stats/task-pair-auc.ts). */
  private readonly taskPairs: TaskPairAuc | undefined;

  constructor(
    scores: ArrayLike<number>,
    outcomes: ArrayLike<boolean | number>,
    clusterOf: ArrayLike<number>,
    clusters: number,
    /**
     * `wasm: false` keeps every draw in JavaScript (the kernel's tests compare the two); `taskPairs` forces the
     * task-pair form of draws on or off (by default: where it is cheaper, {@link taskPairsPay}).
     */
    options: { wasm?: boolean; taskPairs?: boolean; kernelLayout?: LevelTotalsLayout } = {},
  ) {
    checkColumns("ClusteredAuc", scores, outcomes, clusterOf, clusters);
    this.n = scores.length;
    this.clusters = clusters;
    const {
      cluster: gc,
      pos: gp,
      neg: gn,
      levelEnd: ends,
    } = groupByLevelAndCluster(scores, outcomes, clusterOf, clusters);
    this.clusterPos = new Float64Array(clusters);
    this.clusterNeg = new Float64Array(clusters);
    for (let g = 0; g < gc.length; g++) {
      this.clusterPos[gc[g]] += gp[g];
      this.clusterNeg[gc[g]] += gn[g];
    }
    this.groupCluster = gc;
    this.groupPos = gp;
    this.groupNeg = gn;
    this.groupPacked = new Float64Array(gp.length);
    for (let g = 0; g < gp.length; g++) this.groupPacked[g] = gp[g] + PACK * gn[g];
    this.levelEnd = ends;
    let largest = 0;
    for (let g = 0; g < gp.length; g++) largest = Math.max(largest, gp[g], gn[g]);
    this.largestCount = largest;
    const L = ends.length;
    this.levelPacked = new Float64Array(L);
    // The WebAssembly gather costs 0.4–0.5 ns a group and its dense rows 0.2 ns a cell (kernelNs), against
    // ≈ 0.75 ns a dense cell and 1.6–2.4 ns a group in JavaScript (bench/bootstrap-bench.ts), so WebAssembly
    // serves every shape with few levels once the groups repay copying the weights in (`clusters` doubles a draw).
    const layout =
      options.kernelLayout ??
      (kernelNs("dense", L, clusters, gc.length) < kernelNs("gather", L, clusters, gc.length) ? "dense" : "gather");
    this.kernel =
      options.wasm !== false && this.fewLevels && gc.length >= KERNEL_GROUPS
        ? LevelTotalsKernel.create(this.groupCluster, this.groupPacked, this.levelEnd, clusters, layout)
        : undefined;
    // Without it: dense rows cost L·clusters multiply-adds a draw against `groups` gathers; measured on
    // this machine a gather costs about twice a dense step, so past half the cells filled the dense rows win.
    this.dense = new Float64Array(!this.kernel && gc.length > 0.5 * L * clusters ? L * clusters : 0);
    if (this.dense.length > 0)
      fillDenseRows(this.dense, { cluster: gc, packed: this.groupPacked, levelEnd: ends }, clusters);
    const groups = this.levelGroups;
    this.taskPairs =
      (options.taskPairs ??
      taskPairsPay(this.levelWalkNs, clusters, groups.pos, options.wasm !== false && taskPairKernelAvailable()))
        ? TaskPairAuc.fromGroups(groups, { pos: this.clusterPos, neg: this.clusterNeg }, { wasm: options.wasm })
        : undefined;
  }

  /** A draw's estimated cost in the level walk this instance uses, in ns (bench/bootstrap-bench.ts). */
  private get levelWalkNs(): number {
    const path = this.path;
    const groups = this.groupCluster.length;
    if (path === "kernel" && this.kernel)
      return kernelNs(this.kernel.layout, this.levelEnd.length, this.clusters, groups);
    if (path === "dense") return 0.75 * this.levelEnd.length * this.clusters;
    return 2 * groups;
  }

  /** Which per-draw walk `evaluate` uses for a bootstrap draw (chosen from the data's shape; see the class). */
  get path(): "level" | "packed" | "dense" | "kernel" {
    return !this.fewLevels ? "level" : this.kernel ? "kernel" : this.dense.length > 0 ? "dense" : "packed";
  }

  /** The (score level, cluster) groups in level order with their PASS and FAIL counts (stats/level-groups.ts). */
  get levelGroups(): LevelGroups {
    return { cluster: this.groupCluster, pos: this.groupPos, neg: this.groupNeg, levelEnd: this.levelEnd };
  }

  /** How the WebAssembly kernel holds the groups, when it serves the level walk. */
  get kernelLayout(): LevelTotalsLayout | undefined {
    return this.kernel?.layout;
  }

  /** Where the task-pair form's draws run, when it serves them. */
  get taskPairEngine(): "wasm" | "js" | undefined {
    return this.taskPairs?.engine;
  }

  /** The walk a bootstrap draw (`evaluateDraw`) takes. */
  get drawPath(): "task-pairs" | "level" | "packed" | "dense" | "kernel" {
    return this.taskPairs ? "task-pairs" : this.path;
  }

  /**
   * Levels holding several groups each (a k/n score): packed totals pay one unpacking per level, which
   * only groups sharing a level repay; with about one group a level (continuous scores) the separate
   * counts are faster (bench/bootstrap-bench.ts measures both shapes).
   */
  private get fewLevels(): boolean {
    return this.groupCluster.length >= 4 * this.levelEnd.length;
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
    if (!this.fewLevels || !this.packable(w)) return this.evaluateUnpacked(w);
    return this.evaluatePacked(w);
  }

  /**
   * {@link evaluate} of a bootstrap draw, the sample or a jackknife's weights: `w` holds non-negative
   * integers summing to at most `clusters`, so `packable`'s test needs no pass over w (that
   * pass was an eighth of an AUC interval's time at 8,700 tasks). The same value: the packed and the
   * unpacked totals give it bit for bit.
   */
  evaluateDraw(w: Float64Array): number {
    if (this.taskPairs) return this.taskPairs.evaluateDraw(w);
    if (!this.fewLevels || this.clusters * this.largestCount >= PACK) return this.evaluateUnpacked(w);
    return this.evaluatePacked(w);
  }

  private evaluatePacked(w: Float64Array): number {
    const acc = this.levelPacked;
    if (this.kernel) this.kernel.totals(w, acc);
    else if (this.dense.length > 0) this.denseTotals(w, acc);
    else this.gatherTotals(w, acc);
    let negBelow = 0;
    let totalPos = 0;
    let num = 0;
    for (let l = 0; l < acc.length; l++) {
      const ln = Math.floor(acc[l] / PACK);
      const lp = acc[l] - ln * PACK;
      num += lp * (negBelow + 0.5 * ln);
      negBelow += ln;
      totalPos += lp;
    }
    if (totalPos === 0 || negBelow === 0) return NaN;
    return num / (totalPos * negBelow);
  }

  /**
   * Whether the packed totals of `w` are exact: every weight a non-negative integer (a bootstrap draw's
   * multiplicities) and Σw × the largest count below PACK, so no total's PASS part reaches its FAIL part
   * and every number stays an integer below 2⁵². Then the unpacked totals are the integers the unpacked
   * walk sums, and `evaluate` equals it bit for bit (the levels are summed in the same order).
   */
  private packable(w: Float64Array): boolean {
    // Two running sums halve the dependent chain of additions; integer weights add exactly in any order.
    let even = 0;
    let odd = 0;
    let c = 0;
    for (; c + 1 < w.length; c += 2) {
      const a = w[c];
      const b = w[c + 1];
      if (!(a >= 0 && Math.floor(a) === a && b >= 0 && Math.floor(b) === b)) return false;
      even += a;
      odd += b;
    }
    if (c < w.length && !(w[c] >= 0 && Math.floor(w[c]) === w[c])) return false;
    return (even + odd + (c < w.length ? w[c] : 0)) * this.largestCount < PACK;
  }

  /** Per-level packed totals: the groups in level order, each weighted by its cluster's weight. */
  private gatherTotals(w: Float64Array, acc: Float64Array): void {
    const { groupCluster, groupPacked, levelEnd } = this;
    for (let l = 0, g = 0; l < levelEnd.length; l++) {
      // Four running sums: one sum's chain of dependent additions (about four cycles each) was the loop's
      // floor. The packed totals are integers below 2⁵³, so the order of the additions changes no bit.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      const end = levelEnd[l];
      for (; g + 3 < end; g += 4) {
        s0 += w[groupCluster[g]] * groupPacked[g];
        s1 += w[groupCluster[g + 1]] * groupPacked[g + 1];
        s2 += w[groupCluster[g + 2]] * groupPacked[g + 2];
        s3 += w[groupCluster[g + 3]] * groupPacked[g + 3];
      }
      for (; g < end; g++) s0 += w[groupCluster[g]] * groupPacked[g];
      acc[l] = s0 + s1 + (s2 + s3);
    }
  }

  /** Per-level packed totals: one dot product of w with each level's dense row. */
  private denseTotals(w: Float64Array, acc: Float64Array): void {
    const { dense, clusters } = this;
    // Two levels a pass: each weight is loaded once for both rows (the loop is bound by its loads), with
    // two running sums per level, as in gatherTotals (exact integers: the order changes no bit).
    let l = 0;
    for (; l + 1 < acc.length; l += 2) {
      let a0 = 0;
      let a1 = 0;
      let b0 = 0;
      let b1 = 0;
      let c = 0;
      const ka = l * clusters;
      const kb = ka + clusters;
      for (; c + 1 < clusters; c += 2) {
        const w0 = w[c];
        const w1 = w[c + 1];
        a0 += w0 * dense[ka + c];
        a1 += w1 * dense[ka + c + 1];
        b0 += w0 * dense[kb + c];
        b1 += w1 * dense[kb + c + 1];
      }
      if (c < clusters) {
        a0 += w[c] * dense[ka + c];
        b0 += w[c] * dense[kb + c];
      }
      acc[l] = a0 + a1;
      acc[l + 1] = b0 + b1;
    }
    for (; l < acc.length; l++) {
      let s0 = 0;
      let s1 = 0;
      let c = 0;
      const k = l * clusters;
      for (; c + 1 < clusters; c += 2) {
        s0 += w[c] * dense[k + c];
        s1 += w[c + 1] * dense[k + c + 1];
      }
      if (c < clusters) s0 += w[c] * dense[k + c];
      acc[l] = s0 + s1;
    }
  }

  /** The level walk on separate PASS and FAIL counts: many levels, or weights the packed totals cannot carry. */
  private evaluateUnpacked(w: Float64Array): number {
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

/**
 * Whether the task-pair form pays for a draw, against the level walk's estimate, with its build (≈ 1 ns per
 * PASS group × cluster) repaid within 2,000 draws, and its clusters² table at most 32 MB. A draw's cost as
 * measured (bench/bootstrap-bench.ts): in WebAssembly about
 * 200 + 0.1·K² ns up to 512 clusters and 0.15·K² beyond (the table leaves the cache); in JavaScript about
 * 0.55·K² (a draw leaves ≈ 37% of the rows out and the loop halves K² by symmetry: ≈ 1.7 ns a step).
 */
function taskPairsPay(levelWalkNs: number, clusters: number, groupPos: Float64Array, wasm: boolean): boolean {
  if (clusters > 2048) return false;
  const K2 = clusters * clusters;
  const formNs = !wasm ? 0.55 * K2 : clusters <= 512 ? 200 + 0.1 * K2 : 0.15 * K2;
  let passGroups = 0;
  for (let g = 0; g < groupPos.length; g++) if (groupPos[g] > 0) passGroups++;
  return formNs < 0.67 * levelWalkNs && passGroups * clusters < 2000 * (levelWalkNs - formNs);
}

/**
 * A group's counts packed as pos + PACK·neg (2²⁶): weighted sums of packed numbers stay exact integers
 * while Σ weights × counts < 2²⁶ (then the FAIL part is below 2⁵², within a double's 53-bit integers).
 */
const PACK = 2 ** 26;

/**
 * Groups from which the WebAssembly gather is used (below, a draw is cheap either way). At 2,048 the
 * paper-sized case (87 tasks × 19 levels, 1,650 groups) took the dense JavaScript rows, 0.75 ns a cell
 * against the gather's 0.45 ns a group: 2,000 draws 6.6 → 3.8–4.4 ms (bench/bootstrap-bench.ts).
 */
const KERNEL_GROUPS = 512;

/**
 * A draw's estimated cost in the WebAssembly level totals, in ns (bench/bootstrap-bench.ts): 0.45 a group in
 * the gather, 0.2 a (level, cluster) cell in the dense rows (two f64 lanes).
 */
const kernelNs = (layout: LevelTotalsLayout, levels: number, clusters: number, groups: number): number =>
  layout === "dense" ? 0.2 * levels * clusters : 0.45 * groups;
