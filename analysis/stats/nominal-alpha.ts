/**
 * Krippendorff's α (nominal) for units with a weight each, from each unit's count of values per category:
 * what a cluster bootstrap of α needs (a drawn cluster's units count as often as it is drawn). With
 * n_uc = unit u's values in category c, m_u = Σ_c n_uc (units with m_u < 2 are not pairable), and unit
 * weights w_u (Krippendorff 2011, §C, coincidences o_ck = Σ_u w_u n_uc (n_uk − [c = k]) / (m_u − 1)):
 *   D_o = Σ_{c≠k} o_ck,  n_c = Σ_u w_u n_uc,  n = Σ_c n_c,  D_e = Σ_{c≠k} n_c n_k,
 *   α = 1 − (n − 1) D_o / D_e.
 * With every weight 1 it is krippendorffAlpha(…, "nominal") (tested). NaN when D_e = 0 (one category).
 * Written here because no package computes α from weighted category counts (needed per bootstrap draw).
 */
export class WeightedNominalAlpha {
  /** Per pairable unit: its disagreeing ordered pairs over (m_u − 1), and its count per category. */
  private readonly disagreement: Float64Array;
  private readonly counts: Float64Array[];

  constructor(
    unitCounts: ReadonlyArray<ReadonlyArray<number>>,
    readonly categories: number,
  ) {
    const pairable = unitCounts.map((c) => c.reduce((a, b) => a + b, 0) >= 2);
    this.disagreement = Float64Array.from(unitCounts, (c, u) => {
      if (!pairable[u]) return 0;
      const m = c.reduce((a, b) => a + b, 0);
      let same = 0;
      for (const x of c) same += x * (x - 1);
      return (m * (m - 1) - same) / (m - 1);
    });
    this.counts = Array.from({ length: categories }, (_, k) =>
      Float64Array.from(unitCounts, (c, u) => (pairable[u] ? (c[k] ?? 0) : 0)),
    );
  }

  /** α with unit u counted w[u] times. */
  evaluate(w: ArrayLike<number>): number {
    let observed = 0;
    for (let u = 0; u < this.disagreement.length; u++) observed += w[u] * this.disagreement[u];
    const n = new Float64Array(this.categories);
    for (let k = 0; k < this.categories; k++) {
      const col = this.counts[k];
      for (let u = 0; u < col.length; u++) n[k] += w[u] * col[u];
    }
    let total = 0;
    let sumSquares = 0;
    for (const x of n) {
      total += x;
      sumSquares += x * x;
    }
    const expected = total * total - sumSquares;
    return expected > 0 ? 1 - ((total - 1) * observed) / expected : NaN;
  }
}
