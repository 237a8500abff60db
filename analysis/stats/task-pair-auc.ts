import { TASK_PAIR_FORM_WASM } from "./wasm/task-pair-form-bytes.js";
import { compiledOnce, reserveBytes } from "./wasm/compile.js";
import type { LevelGroups } from "./level-groups.js";

/**
 * The clustered AUC as a quadratic form in the cluster weights (the task-pair form). With
 * D[k][k'] = 2·#(PASS in cluster k, FAIL in cluster k', s_PASS > s_FAIL) + #(such pairs tied), the
 * Mann–Whitney numerator of the sample where cluster k appears w_k times is ½ w′Dw, so a draw costs
 * O(clusters²) whatever the number of observations and of score levels: for continuous scores on tens of
 * tasks that is far below the O(n) level walk. Built once in O(Σ_levels PASS clusters × clusters).
 *
 * Exact: with integer weights every product and sum is an integer below 2⁵³ (checked at construction for
 * weights summing to at most `clusters`, a bootstrap draw's), so ½ w′Dw is the very half-integer the level
 * walk sums, and the AUC is the same double bit for bit (test/task-pair-auc.test.ts).
 *
 * Stored as E = D + Dᵀ above the diagonal and D's diagonal: w′Dw = Σ_k w_k (w_k D_kk + Σ_{k′>k} w_k′ E_kk′),
 * half the products, and a row whose weight is 0 (about 37% of a draw's) is skipped whole. A draw runs in
 * WebAssembly (wasm/task-pair-form.wat, SIMD) where the runtime allows it, else in the JavaScript loop
 * below: the same integers, so the same bits.
 */
export class TaskPairAuc {
  private readonly upper: Float64Array;
  private readonly diagonal: Float64Array;
  private readonly pos: Float64Array;
  private readonly neg: Float64Array;
  private readonly kernel: TaskPairKernel | undefined;

  private constructor(
    readonly clusters: number,
    parts: { upper: Float64Array; diagonal: Float64Array; pos: Float64Array; neg: Float64Array },
    wasm: boolean,
  ) {
    this.diagonal = parts.diagonal;
    this.pos = parts.pos;
    this.neg = parts.neg;
    this.kernel = wasm ? TaskPairKernel.create(parts) : undefined;
    // The kernel holds its own copy of the K × K table (up to 32 MB at the 2,048-task cap): this one is kept
    // only for the JavaScript loop.
    this.upper = this.kernel ? new Float64Array(0) : parts.upper;
  }

  /** Where a draw runs: "wasm", or "js" (asked for, or WebAssembly refused). */
  get engine(): "wasm" | "js" {
    return this.kernel ? "wasm" : "js";
  }

  /**
   * The form of (level, cluster) groups in level order and each cluster's PASS and FAIL counts
   * (ClusteredAuc's), or undefined when a draw's numerator could exceed 2⁵³ (the form would no longer be exact).
   */
  static fromGroups(
    groups: LevelGroups,
    totals: { pos: Float64Array; neg: Float64Array },
    options: { wasm?: boolean } = {},
  ): TaskPairAuc | undefined {
    const K = totals.pos.length;
    const { pos, neg } = totals;
    // A draw's weights sum to at most K, so its numerator is at most 2·(K·max pos)·(K·max neg).
    let maxPos = 0;
    let maxNeg = 0;
    for (let k = 0; k < K; k++) {
      maxPos = Math.max(maxPos, pos[k]);
      maxNeg = Math.max(maxNeg, neg[k]);
    }
    if (2 * K * maxPos * K * maxNeg >= 2 ** 53) return undefined;
    const d = pairCounts(groups, K);
    const upper = new Float64Array(K * K);
    const diagonal = new Float64Array(K);
    for (let i = 0; i < K; i++) {
      diagonal[i] = d[i * K + i];
      for (let j = i + 1; j < K; j++) upper[i * K + j] = d[i * K + j] + d[j * K + i];
    }
    return new TaskPairAuc(K, { upper, diagonal, pos, neg }, options.wasm !== false);
  }

  /** The AUC with cluster k counted w[k] times, w non-negative integers summing to at most `clusters`. */
  evaluateDraw(w: Float64Array): number {
    if (this.kernel) {
      const { twiceNum, totalPos, totalNeg } = this.kernel.draw(w);
      return aucOfForm(twiceNum, totalPos, totalNeg);
    }
    const K = this.clusters;
    const { upper, diagonal } = this;
    let twiceNum = 0;
    let totalPos = 0;
    let totalNeg = 0;
    for (let i = 0; i < K; i++) {
      const wi = w[i];
      if (wi === 0) continue;
      totalPos += wi * this.pos[i];
      totalNeg += wi * this.neg[i];
      // Four running sums: one sum's chain of dependent additions (about four cycles each) is the loop's
      // floor. Integers below 2⁵³: the order of the additions changes no bit.
      let s0 = wi * diagonal[i];
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      const row = i * K;
      let j = i + 1;
      for (; j + 3 < K; j += 4) {
        s0 += w[j] * upper[row + j];
        s1 += w[j + 1] * upper[row + j + 1];
        s2 += w[j + 2] * upper[row + j + 2];
        s3 += w[j + 3] * upper[row + j + 3];
      }
      for (; j < K; j++) s0 += w[j] * upper[row + j];
      twiceNum += wi * (s0 + s1 + (s2 + s3));
    }
    return aucOfForm(twiceNum, totalPos, totalNeg);
  }
}

/** The AUC from a draw's w′Dw and weighted PASS and FAIL totals; NaN when a class is absent. */
function aucOfForm(twiceNum: number, totalPos: number, totalNeg: number): number {
  if (totalPos === 0 || totalNeg === 0) return NaN;
  return twiceNum / 2 / (totalPos * totalNeg);
}

/**
 * D as a dense clusters × clusters table: walking the levels upward with each cluster's FAIL count below,
 * a level's PASS group of cluster k adds pos × (2·below + at this level) to row k. O(Σ_levels PASS
 * groups × clusters).
 */
function pairCounts(groups: LevelGroups, K: number): Float64Array {
  const d = new Float64Array(K * K);
  // twiceBelow[c] = 2·FAILs of cluster c at lower levels, plus (within a level) its FAILs at this level.
  const row = new Float64Array(K);
  const twiceBelow = new Float64Array(K);
  for (let l = 0, start = 0; l < groups.levelEnd.length; start = groups.levelEnd[l++]) {
    const end = groups.levelEnd[l];
    // This level's comparison row: 2·FAILs below plus the FAILs tied at this level.
    row.set(twiceBelow);
    for (let g = start; g < end; g++) row[groups.cluster[g]] += groups.neg[g];
    for (let g = start; g < end; g++) {
      const p = groups.pos[g];
      if (p === 0) continue;
      const base = groups.cluster[g] * K;
      for (let c = 0; c < K; c++) d[base + c] += p * row[c];
    }
    for (let g = start; g < end; g++) twiceBelow[groups.cluster[g]] += 2 * groups.neg[g];
  }
  return d;
}

type DrawFormExport = (
  w: number,
  pos: number,
  neg: number,
  diagonal: number,
  upper: number,
  k: number,
  totals: number,
) => number;

const taskPairModule = compiledOnce(TASK_PAIR_FORM_WASM);

/** Whether this runtime runs the form's WebAssembly (with SIMD); else its draws take the JavaScript loop. */
export function taskPairKernelAvailable(): boolean {
  return taskPairModule() !== undefined;
}

/** A form's draws in WebAssembly: its tables live in the memory of its own instance; a draw copies w in. */
class TaskPairKernel {
  private readonly run: () => number;
  private readonly weights: Float64Array;
  private readonly totals: Float64Array;

  /** A kernel for this form, or undefined where WebAssembly (with SIMD) is refused. */
  static create(parts: { upper: Float64Array; diagonal: Float64Array; pos: Float64Array; neg: Float64Array }) {
    const module = taskPairModule();
    return module ? new TaskPairKernel(module, parts) : undefined;
  }

  private constructor(
    module: WebAssembly.Module,
    parts: { upper: Float64Array; diagonal: Float64Array; pos: Float64Array; neg: Float64Array },
  ) {
    const K = parts.pos.length;
    const instance = new WebAssembly.Instance(module);
    const memory = instance.exports.memory as WebAssembly.Memory;
    // Byte offsets: w, pos, neg, diagonal (K f64 each), the totals (2 f64), then the K × K upper table.
    const [w, pos, neg, diagonal, totals] = [0, 8 * K, 16 * K, 24 * K, 32 * K];
    const upper = totals + 16;
    reserveBytes(memory, upper + 8 * K * K);
    const view = (byte: number, length: number) => new Float64Array(memory.buffer, byte, length);
    this.weights = view(w, K);
    view(pos, K).set(parts.pos);
    view(neg, K).set(parts.neg);
    view(diagonal, K).set(parts.diagonal);
    this.totals = view(totals, 2);
    view(upper, K * K).set(parts.upper);
    const drawForm = instance.exports.drawForm as DrawFormExport;
    this.run = () => drawForm(w, pos, neg, diagonal, upper, K, totals);
  }

  draw(w: Float64Array): { twiceNum: number; totalPos: number; totalNeg: number } {
    this.weights.set(w);
    const twiceNum = this.run();
    return { twiceNum, totalPos: this.totals[0], totalNeg: this.totals[1] };
  }
}
