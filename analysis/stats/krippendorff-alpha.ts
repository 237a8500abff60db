import { argError } from "../errors.js";

export type AlphaLevel = "nominal" | "ordinal" | "interval";
export type RatingValue = number | string;

/**
 * Krippendorff's α for a reliability data matrix (coders × units), missing
 * values allowed (null/undefined).
 *
 * Method (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability",
 * §§ C–E): only units with m_u ≥ 2 pairable values count. Coincidences
 * o_ck = Σ_u Σ_{i≠j} [v_ui = c][v_uj = k] / (m_u − 1), n_c = Σ_k o_ck, n = Σ n_c;
 * α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck with
 *   nominal  δ² = [c ≠ k],
 *   ordinal  δ² = (Σ_{g=c..k} n_g − (n_c + n_k)/2)²  (values in sorted order),
 *   interval δ² = (c − k)².
 * No third-party JS package implements all three levels with missing data and
 * exposes the coincidence matrix; this one is checked against the paper's
 * worked example (α = 0.743 / 0.815 / 0.849).
 *
 * NaN when fewer than one unit is pairable or the expected disagreement is 0
 * (every pairable value identical: α is undefined, not 1).
 */
export function krippendorffAlpha(
  data: ReadonlyArray<ReadonlyArray<RatingValue | null | undefined>>,
  level: AlphaLevel,
): number {
  if (data.length === 0) return NaN;
  const units = data[0].length;
  for (let c = 1; c < data.length; c++) {
    if (data[c].length !== units)
      throw argError(
        "krippendorffAlpha",
        `data[${c}].length`,
        data[c].length,
        `every coder row must have ${units} units`,
      );
  }
  const columns: RatingValue[][] = [];
  for (let u = 0; u < units; u++) {
    const col: RatingValue[] = [];
    for (const row of data) {
      const v = row[u];
      if (v === null || v === undefined) continue;
      if (level !== "nominal" && (typeof v !== "number" || !Number.isFinite(v))) {
        throw argError("krippendorffAlpha", `data[..][${u}]`, v, `${level} α needs finite numbers`);
      }
      col.push(v);
    }
    columns.push(col);
  }
  return alphaFromUnits(columns, level);
}

/** α from per-unit value lists (the transposed layout; missing values simply absent). */
export function alphaFromUnits(units: ReadonlyArray<ReadonlyArray<RatingValue>>, level: AlphaLevel): number {
  const values: RatingValue[] = [];
  const index = new Map<RatingValue, number>();
  for (const unit of units)
    for (const v of unit)
      if (!index.has(v)) {
        index.set(v, 0);
        values.push(v);
      }
  if (level !== "nominal") (values as number[]).sort((a, b) => a - b);
  else values.sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  for (const [i, v] of values.entries()) index.set(v, i);
  const V = values.length;
  const o = new Float64Array(V * V);
  for (const unit of units) {
    const m = unit.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        o[index.get(unit[i])! * V + index.get(unit[j])!] += 1 / (m - 1);
      }
    }
  }
  const nc = new Float64Array(V);
  let n = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) nc[c] += o[c * V + k];
    n += nc[c];
  }
  if (n <= 1) return NaN;
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    if (level === "nominal") return 1;
    if (level === "interval") return ((values[c] as number) - (values[k] as number)) ** 2;
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g];
    return (s - (nc[c] + nc[k]) / 2) ** 2;
  };
  let observed = 0,
    expected = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) {
      if (c === k) continue;
      const d = delta2(c, k);
      observed += o[c * V + k] * d;
      expected += nc[c] * nc[k] * d;
    }
  }
  if (expected === 0) return NaN;
  return 1 - ((n - 1) * observed) / expected;
}

/**
 * Interval α prepared for a bootstrap over units: each unit is reduced to
 * (m_u, Σv, Σv², within-unit disagreement), using
 * Σ_{i≠j}(v_i − v_j)² = 2(mΣv² − (Σv)²) and Σ_c Σ_k n_c n_k (c−k)² = 2(nΣv² − (Σv)²),
 * so a draw with unit multiplicities w costs O(units) instead of O(V²).
 * Equals {@link krippendorffAlpha}(…, "interval") when every weight is 1.
 */
export class UnitWeightedIntervalAlpha {
  private readonly m: Float64Array;
  private readonly s1: Float64Array;
  private readonly s2: Float64Array;
  private readonly within: Float64Array;

  constructor(units: ReadonlyArray<ReadonlyArray<number>>) {
    const pairable = units.filter((u) => u.length >= 2);
    this.m = new Float64Array(pairable.length);
    this.s1 = new Float64Array(pairable.length);
    this.s2 = new Float64Array(pairable.length);
    this.within = new Float64Array(pairable.length);
    pairable.forEach((u, i) => {
      let s1 = 0,
        s2 = 0;
      for (const v of u) {
        if (!Number.isFinite(v)) throw argError("UnitWeightedIntervalAlpha", `units[${i}]`, v, "must be finite");
        s1 += v;
        s2 += v * v;
      }
      this.m[i] = u.length;
      this.s1[i] = s1;
      this.s2[i] = s2;
      this.within[i] = (2 * (u.length * s2 - s1 * s1)) / (u.length - 1);
    });
  }

  /** Number of pairable units (m_u ≥ 2): the resampling units. */
  get units(): number {
    return this.m.length;
  }

  evaluate(w: Float64Array): number {
    let n = 0,
      s1 = 0,
      s2 = 0,
      obs = 0;
    for (let i = 0; i < this.m.length; i++) {
      const wi = w[i];
      if (wi === 0) continue;
      n += wi * this.m[i];
      s1 += wi * this.s1[i];
      s2 += wi * this.s2[i];
      obs += wi * this.within[i];
    }
    const expected = 2 * (n * s2 - s1 * s1);
    // Relative guard: a constant sample has expected = 0 up to rounding.
    if (n <= 1 || expected <= 1e-12 * Math.max(1, n * s2)) return NaN;
    return 1 - ((n - 1) * obs) / expected;
  }

  estimate(): number {
    return this.evaluate(new Float64Array(this.m.length).fill(1));
  }
}
