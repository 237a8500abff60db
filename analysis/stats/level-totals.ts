import { LEVEL_TOTALS_WASM } from "./wasm/level-totals-bytes.js";
import { align8, compiledOnce, reserveBytes } from "./wasm/compile.js";

type LevelTotalsExport = (w: number, cluster: number, packed: number, end: number, levels: number, out: number) => void;
type DenseTotalsExport = (w: number, dense: number, levels: number, k: number, out: number) => void;

const levelTotalsModule = compiledOnce(LEVEL_TOTALS_WASM);

/** How a kernel holds its AUC's groups: a gather through each group's cluster, or a dense level × cluster table. */
export type LevelTotalsLayout = "gather" | "dense";

/**
 * An AUC's per-level packed totals for a weight vector, in WebAssembly (wasm/level-totals.wat): the
 * gather `ClusteredAuc` otherwise runs in JavaScript (its gatherTotals), about 4× faster a group, or,
 * where most (level, cluster) cells are filled, one SIMD dot product of the weights with each level's
 * dense row (its denseTotals). Each one holds its AUC's groups in the memory of its own instance, so
 * several (a paired ΔAUC's two) run side by side; a draw copies its weights in and the totals out.
 */
export class LevelTotalsKernel {
  private readonly run: (w: number) => void;
  private readonly weights: Float64Array;
  private readonly out: Float64Array;

  /** A kernel for these groups, or undefined where WebAssembly is refused (the caller keeps its own loop). */
  static create(
    groupCluster: Int32Array,
    groupPacked: Float64Array,
    levelEnd: Int32Array,
    clusters: number,
    layout: LevelTotalsLayout = "gather",
  ) {
    const module = levelTotalsModule();
    if (!module) return undefined;
    const groups = { cluster: groupCluster, packed: groupPacked, levelEnd };
    return new LevelTotalsKernel(module, groups, clusters, layout);
  }

  private constructor(
    module: WebAssembly.Module,
    groups: { cluster: Int32Array; packed: Float64Array; levelEnd: Int32Array },
    clusters: number,
    readonly layout: LevelTotalsLayout,
  ) {
    const instance = new WebAssembly.Instance(module);
    const memory = instance.exports.memory as WebAssembly.Memory;
    const levels = groups.levelEnd.length;
    const count = groups.cluster.length;
    // Byte offsets. Gather: weights, the groups' clusters and packed counts, the levels' ends, the totals.
    // Dense: weights, the level × cluster table, the totals.
    const cluster = 8 * clusters;
    const packed = align8(cluster + 4 * count);
    const end = packed + 8 * count;
    const out = layout === "dense" ? cluster + 8 * levels * clusters : align8(end + 4 * levels);
    reserveBytes(memory, out + 8 * levels);
    if (layout === "dense") {
      fillDenseRows(new Float64Array(memory.buffer, cluster, levels * clusters), groups, clusters);
      const dense = instance.exports.denseTotals as DenseTotalsExport;
      this.run = (w) => dense(w, cluster, levels, clusters, out);
    } else {
      new Int32Array(memory.buffer, cluster, count).set(groups.cluster);
      new Float64Array(memory.buffer, packed, count).set(groups.packed);
      new Int32Array(memory.buffer, end, levels).set(groups.levelEnd);
      const gather = instance.exports.levelTotals as LevelTotalsExport;
      this.run = (w) => gather(w, cluster, packed, end, levels, out);
    }
    this.weights = new Float64Array(memory.buffer, 0, clusters);
    this.out = new Float64Array(memory.buffer, out, levels);
  }

  /** acc[l] = Σ over level l's groups of w[cluster] × packed, for `w` of one weight per cluster. */
  totals(w: Float64Array, acc: Float64Array): void {
    this.weights.set(w);
    this.run(0);
    acc.set(this.out);
  }
}

/**
 * The level × cluster table of packed totals (row l = every cluster's packed counts at level l, 0 where the
 * cell holds no group) written into `table`, which starts zeroed: the dense rows of ClusteredAuc and of the
 * kernel.
 */
export function fillDenseRows(
  table: Float64Array,
  groups: { cluster: Int32Array; packed: Float64Array; levelEnd: Int32Array },
  clusters: number,
): void {
  for (let l = 0, g = 0; l < groups.levelEnd.length; l++)
    for (; g < groups.levelEnd[l]; g++) table[l * clusters + groups.cluster[g]] = groups.packed[g];
}
