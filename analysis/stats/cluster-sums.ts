import { argError } from "../errors.js";

/**
 * Up to four per-cluster columns whose weighted sums make a statistic (a pooled rate's successes and
 * trials per arm; the within-task AUC's Σ U_t and Σ m_t·n_t). A bootstrap draw's sums can be taken
 * from the clusters it picks, each adding its row (analysis/stats/cluster-draws.ts), instead of from its
 * weights, one multiply-add per cluster and column.
 *
 * The two ways agree bit for bit when the table is `exact`: every value a multiple of ½ and every sum of
 * `clusters` rows below 2⁵¹ in magnitude, so each partial sum is exact and the order of the additions
 * changes nothing.
 */
export class ClusterSums {
  readonly clusters: number;
  /** Row c = cluster c's values, four to a row (unused columns 0). */
  readonly rows: Float64Array;
  readonly exact: boolean;

  constructor(columns: readonly Float64Array[]) {
    if (columns.length < 1 || columns.length > 4)
      throw argError("ClusterSums", "columns", columns.length, "must be 1 to 4 columns");
    this.clusters = columns[0].length;
    this.rows = new Float64Array(4 * this.clusters);
    let halves = true;
    let largest = 0;
    for (const [j, column] of columns.entries()) {
      if (column.length !== this.clusters)
        throw argError("ClusterSums", `columns[${j}]`, column.length, `must hold ${this.clusters} values`);
      for (let c = 0; c < this.clusters; c++) {
        const v = column[c];
        this.rows[4 * c + j] = v;
        halves &&= Number.isInteger(2 * v);
        largest = Math.max(largest, Math.abs(v));
      }
    }
    this.exact = halves && largest * this.clusters < 2 ** 51;
  }

  /** Σ_c w_c × column j, for each column, into `out` (cluster by cluster: the weights' way). */
  fromWeights(w: Float64Array, out: Float64Array): Float64Array {
    const rows = this.rows;
    out.fill(0, 0, 4);
    for (let c = 0; c < this.clusters; c++) {
      const wc = w[c];
      if (wc === 0) continue;
      out[0] += wc * rows[4 * c];
      out[1] += wc * rows[4 * c + 1];
      out[2] += wc * rows[4 * c + 2];
      out[3] += wc * rows[4 * c + 3];
    }
    return out;
  }
}

/**
 * Statistics of draws' sums: `statistics(sums, count, out)` reads `count` draws' sums (four values a
 * draw, the unused ones 0, in draw order) and writes statistic K of draw i to out[K][i], equal bit for
 * bit to the statistic of the draw's weights when the table is exact. A batch of draws at once: one loop
 * instead of a call per draw and statistic (8,791 uplift rows × 2,000 draws × 3 statistics at
 * scale 100).
 */
export interface SumStatistics<K extends string> {
  table: ClusterSums;
  statistics: (sums: Float64Array, count: number, out: Record<K, Float64Array>) => void;
}
