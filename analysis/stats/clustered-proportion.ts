import { ClusterSums } from "./cluster-sums.js";

/**
 * Pooled proportions of two arms (e.g. pass rate without and with a skill)
 * prepared for cluster-weighted evaluation: per-cluster successes and trials
 * are summed once, so a draw costs O(clusters). The difference is taken on
 * the same draw, which is what a paired uplift CI needs.
 * Rates are NaN when an arm has no trials in the draw.
 */
export class ClusteredProportions {
  private readonly s: Float64Array[];
  private readonly n: Float64Array[];

  constructor(
    readonly clusters: number,
    arms = 2,
  ) {
    this.s = Array.from({ length: arms }, () => new Float64Array(clusters));
    this.n = Array.from({ length: arms }, () => new Float64Array(clusters));
  }

  add(arm: number, cluster: number, successes: number, trials: number): void {
    this.s[arm][cluster] += successes;
    this.n[arm][cluster] += trials;
  }

  rate(arm: number, w: Float64Array): number {
    let s = 0,
      n = 0;
    for (let c = 0; c < this.clusters; c++) {
      s += w[c] * this.s[arm][c];
      n += w[c] * this.n[arm][c];
    }
    return n === 0 ? NaN : s / n;
  }

  /** Rates of arms 0 and 1 in one pass over the clusters (what a paired uplift draw needs), written into `out`. */
  rates2(w: Float64Array, out: Float64Array): Float64Array {
    let s0 = 0,
      n0 = 0,
      s1 = 0,
      n1 = 0;
    const a = this.s[0],
      b = this.s[1],
      na = this.n[0],
      nb = this.n[1];
    // No skip of undrawn clusters: a third of the weights are 0 at random, and the mispredicted branch
    // cost more than the multiply-adds it saved (the sums are the same, adding +0).
    for (let c = 0; c < this.clusters; c++) {
      const wc = w[c];
      s0 += wc * a[c];
      n0 += wc * na[c];
      s1 += wc * b[c];
      n1 += wc * nb[c];
    }
    out[0] = n0 === 0 ? NaN : s0 / n0;
    out[1] = n1 === 0 ? NaN : s1 / n1;
    return out;
  }

  /**
   * Successes and trials of arms 0 and 1 as a table of sums (s₀, n₀, s₁, n₁): draws' sums give
   * {@link ratesOfSumsMany}, equal to `rates2` of their weights when the table is exact (integer counts).
   */
  sums2(): ClusterSums {
    return new ClusterSums([this.s[0], this.n[0], this.s[1], this.n[1]]);
  }

  /** Successes and trials of arm 0 as a table of sums (s₀, n₀): a draw's sums give its rate s₀ / n₀. */
  sums1(): ClusterSums {
    return new ClusterSums([this.s[0], this.n[0]]);
  }

  totals(arm: number): { successes: number; trials: number } {
    let s = 0,
      n = 0;
    for (let c = 0; c < this.clusters; c++) {
      s += this.s[arm][c];
      n += this.n[arm][c];
    }
    return { successes: s, trials: n };
  }
}

/**
 * Both arms' pooled rates and their difference (arm 1 − arm 0) for `count` draws' sums of
 * {@link ClusteredProportions.sums2} (four a draw); an arm's rate is NaN when it has no trials.
 */
export function ratesOfSumsMany(
  sums: Float64Array,
  count: number,
  out: { rate0: Float64Array; rate1: Float64Array; difference: Float64Array },
): void {
  const { rate0, rate1, difference } = out;
  for (let i = 0; i < count; i++) {
    const k = 4 * i;
    const r0 = sums[k + 1] === 0 ? NaN : sums[k] / sums[k + 1];
    const r1 = sums[k + 3] === 0 ? NaN : sums[k + 2] / sums[k + 3];
    rate0[i] = r0;
    rate1[i] = r1;
    difference[i] = r1 - r0;
  }
}
