import { argError } from "../errors.js";
import { percentileInterval } from "./quantile.js";
import { clusterDraws, type ClusterDraws } from "./cluster-draws.js";
import type { SumStatistics } from "./cluster-sums.js";

/** Default number of bootstrap resamples (paper §4.1: 2,000). */
export const DEFAULT_RESAMPLES = 2000;

/** A statistic evaluated on one draw, given the multiplicity of every cluster. */
export type WeightedStatistic = (clusterWeights: Float64Array) => number;

export interface ClusterBootstrapOptions<K extends string> {
  /** Number of clusters (tasks) in the sample; clusters are indexed 0..n−1. */
  clusters: number;
  /** Statistics evaluated on the same draw, by name, in the order given (e.g. auc_gcpc, auc_holistic, delta). */
  statistics: Record<K, WeightedStatistic>;
  /** Seed for seedrandom; recorded in the result. */
  seed: string | number;
  resamples?: number;
  /** A draw failing this test is redrawn (contract rule 5: one outcome class only). */
  accept?: (clusterWeights: Float64Array) => boolean;
  /**
   * Redraw a draw on which any statistic is NaN (undefined). This generalises
   * contract rule 5 ("a draw with only one outcome class is redrawn"): an AUC
   * is NaN exactly then; a correlation is NaN on a constant draw. Default true.
   */
  redrawUndefined?: boolean;
  /** Give up after this many consecutive rejected draws (degenerate sample). */
  maxConsecutiveRejects?: number;
  /**
   * The same statistics as functions of a table's sums (analysis/stats/cluster-sums.ts): when the table
   * is exact, each draw takes the sums from the clusters it picks instead of passing weights, the same
   * values bit for bit. Not with `accept`, which reads weights.
   */
  sums?: SumStatistics<K>;
}

export interface ClusterBootstrapDraws<K extends string> {
  resamples: number;
  seed: string;
  clusters: number;
  /** Draws rejected and redrawn under `accept`. */
  redrawn: number;
  draws: Record<K, Float64Array>;
}

/**
 * Task-clustered (cluster) bootstrap: each resample draws `clusters` clusters
 * uniformly with replacement and keeps all of their observations.
 *
 * A draw is represented by cluster multiplicities, not by concatenated data,
 * so a statistic prepared once (e.g. {@link ClusteredAuc}, which sorts once)
 * can evaluate each draw in O(n). Several statistics share each draw, which
 * is what a paired ΔAUC and its share of positive draws need.
 *
 * Reference: Davison & Hinkley (1997), Bootstrap Methods and their
 * Application, §3.8 (resampling clusters in a two-stage design).
 * @throws RangeError when the sample cannot produce an acceptable draw.
 */
export function clusterBootstrap<K extends string>(options: ClusterBootstrapOptions<K>): ClusterBootstrapDraws<K> {
  const { clusters, statistics, accept } = options;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  if (!Number.isInteger(clusters) || clusters < 1)
    throw argError("clusterBootstrap", "clusters", clusters, "must be a positive integer");
  if (!Number.isInteger(resamples) || resamples < 1)
    throw argError("clusterBootstrap", "resamples", resamples, "must be a positive integer");
  const maxRejects = options.maxConsecutiveRejects ?? 10_000;
  const seed = String(options.seed);
  // xor4096 (Brent's xorgens, 4096-bit state), seedrandom's stream: about 4× faster than its default
  // ARC4, and a draw costs `clusters` numbers, so the generator dominates cheap statistics (it runs in
  // WebAssembly where it can, analysis/stats/cluster-draws.ts).
  const source = clusterDraws(seed, clusters);
  if (options.sums && accept) throw argError("clusterBootstrap", "accept", "with sums", "reads weights");
  // An inexact table keeps the weights (the sums' order would change bits); one of other clusters throws.
  const sums = options.sums?.table.exact ? options.sums : undefined;
  const names = Object.keys(statistics) as K[];
  const evaluate = names.map((n) => statistics[n]);
  const draws = {} as Record<K, Float64Array>;
  for (const name of names) draws[name] = new Float64Array(resamples);
  const redrawUndefined = options.redrawUndefined ?? true;
  if (sums) {
    const redrawn = drawSums(source, sums, resamples, draws, { names, redrawUndefined, maxRejects });
    return { resamples, seed, clusters, redrawn, draws };
  }
  const columns = names.map((name) => draws[name]);
  const weights = new Float64Array(clusters);
  const values = new Float64Array(names.length);
  let redrawn = 0;
  for (let r = 0; r < resamples; r++) {
    let rejects = 0;
    for (;;) {
      source.draw(weights);
      if (!accept || accept(weights)) {
        let defined = true;
        for (let s = 0; s < names.length; s++) {
          values[s] = evaluate[s](weights);
          if (Number.isNaN(values[s])) defined = false;
        }
        if (defined || !redrawUndefined) break;
      }
      redrawn++;
      if (++rejects >= maxRejects) throw noAcceptableDraw(clusters, maxRejects);
    }
    for (let s = 0; s < columns.length; s++) columns[s][r] = values[s];
  }
  return { resamples, seed, clusters, redrawn, draws };
}

const noAcceptableDraw = (clusters: number, maxRejects: number) =>
  argError(
    "clusterBootstrap",
    "sample",
    `${clusters} clusters`,
    `no acceptable draw in ${maxRejects} tries (e.g. only one task holds both outcome classes)`,
  );

/**
 * The draws as sums (SumStatistics), a batch at a time: the stream's draws in stream order, each batch
 * asking for what the bootstrap still needs, and a draw with an undefined statistic redrawn as the weights'
 * loop redraws it; draws made past the last one used are dropped with the stream, which the bootstrap
 * owns. Returns the draws redrawn.
 */
function drawSums<K extends string>(
  source: ClusterDraws,
  sums: SumStatistics<K>,
  resamples: number,
  draws: Record<K, Float64Array>,
  o: { names: K[]; redrawUndefined: boolean; maxRejects: number },
): number {
  const table = sums.table;
  const columns = o.names.map((name) => draws[name]);
  const size = Math.min(resamples, SUMS_BATCH);
  const batch = new Float64Array(4 * size);
  const values = {} as Record<K, Float64Array>;
  for (const name of o.names) values[name] = new Float64Array(size);
  const valueColumns = o.names.map((name) => values[name]);
  let redrawn = 0;
  let rejects = 0;
  for (let r = 0; r < resamples; ) {
    const count = Math.min(resamples - r, SUMS_BATCH);
    source.sumsMany(table, batch, count);
    sums.statistics(batch, count, values);
    // The usual batch: every draw defined, each statistic's values copied at once. The loop below gives
    // the same draws in the same places; it takes a batch with an undefined draw (to redraw it).
    if (r + count <= resamples && !(o.redrawUndefined && valueColumns.some((v) => hasNaN(v, count)))) {
      for (let s = 0; s < columns.length; s++) columns[s].set(valueColumns[s].subarray(0, count), r);
      if (count > 0) rejects = 0;
      r += count;
      continue;
    }
    for (let i = 0; i < count && r < resamples; i++) {
      let defined = true;
      if (o.redrawUndefined) for (const v of valueColumns) if (Number.isNaN(v[i])) defined = false;
      if (!defined) {
        redrawn++;
        if (++rejects >= o.maxRejects) throw noAcceptableDraw(table.clusters, o.maxRejects);
        continue;
      }
      rejects = 0;
      for (let s = 0; s < columns.length; s++) columns[s][r] = valueColumns[s][i];
      r++;
    }
  }
  return redrawn;
}

/** Whether values[0, count) holds a NaN. */
function hasNaN(values: Float64Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (Number.isNaN(values[i])) return true;
  return false;
}

/** Draws per sumsMany call: 10,000 draws' sums are 320 KB. */
const SUMS_BATCH = 10_000;

/** Percentile confidence interval (type-7 interpolation) of bootstrap draws. */
export function percentileCI(draws: Float64Array, level = 0.95): [number, number] {
  return percentileInterval(draws, level);
}

/** Share of draws strictly greater than zero (e.g. "ΔAUC > 0 in 97.1% of draws"). */
export function shareAbove(draws: Float64Array, threshold = 0): number {
  if (draws.length === 0) return NaN;
  // An indexed loop: for…of walks a typed array through its iterator (an uplift row's share cost as much as
  // a quarter of its 2,000 draws' sums).
  let k = 0;
  for (let i = 0; i < draws.length; i++) if (draws[i] > threshold) k++;
  return k / draws.length;
}
