/**
 * Agreement of two coders on the same units (a judge against a reference, item by item), each unit weighted
 * (a bootstrap draw's cluster weights; 1 each for the estimate). Hand-written rather than taken from a
 * library: none of the project's (simple-statistics, d3, arquero) has Cohen's κ or a weighted Krippendorff α.
 */

/** Weighted share of units where the two coders give the same value. */
export function percentAgreement(a: ArrayLike<number>, b: ArrayLike<number>, w: ArrayLike<number>): number {
  let same = 0;
  let total = 0;
  for (let u = 0; u < a.length; u++) {
    total += w[u];
    if (a[u] === b[u]) same += w[u];
  }
  return total > 0 ? same / total : NaN;
}

/**
 * Cohen's κ (Cohen 1960), the values taken as nominal categories: (p_o − p_e) / (1 − p_e), with p_e from the
 * two coders' own marginal shares. NaN when p_e = 1 (both coders give one category throughout).
 */
export function cohenKappa(a: ArrayLike<number>, b: ArrayLike<number>, w: ArrayLike<number>): number {
  const ma = new Map<number, number>();
  const mb = new Map<number, number>();
  let total = 0;
  let same = 0;
  for (let u = 0; u < a.length; u++) {
    if (w[u] === 0) continue;
    total += w[u];
    if (a[u] === b[u]) same += w[u];
    ma.set(a[u], (ma.get(a[u]) ?? 0) + w[u]);
    mb.set(b[u], (mb.get(b[u]) ?? 0) + w[u]);
  }
  if (total === 0) return NaN;
  let pe = 0;
  for (const [c, n] of ma) pe += (n / total) * ((mb.get(c) ?? 0) / total);
  return pe >= 1 ? NaN : (same / total - pe) / (1 - pe);
}

/**
 * Krippendorff's α for two coders who both coded every unit (Krippendorff 2011, "Computing Krippendorff's
 * alpha-reliability"): α = 1 − (n − 1) Σ_u 2·δ²(a_u, b_u) / Σ_{i,j} δ²(v_i, v_j), n = 2·Σ w the pairable
 * values, the denominator over every ordered pair of the n values. Nominal: δ² = [x ≠ y], so the denominator is
 * n² − Σ_c n_c². Interval: δ² = (x − y)², so it is 2n·Σx² − 2(Σx)². A unit of weight w counts w times.
 */
export function twoCoderAlpha(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  w: ArrayLike<number>,
  metric: "nominal" | "interval",
): number {
  let n = 0;
  let within = 0;
  let sum = 0;
  let squares = 0;
  const counts = new Map<number, number>();
  for (let u = 0; u < a.length; u++) {
    const wu = w[u];
    if (wu === 0) continue;
    n += 2 * wu;
    const d = metric === "nominal" ? (a[u] === b[u] ? 0 : 1) : (a[u] - b[u]) ** 2;
    within += wu * 2 * d;
    if (metric === "nominal") {
      counts.set(a[u], (counts.get(a[u]) ?? 0) + wu);
      counts.set(b[u], (counts.get(b[u]) ?? 0) + wu);
    } else {
      sum += wu * (a[u] + b[u]);
      squares += wu * (a[u] * a[u] + b[u] * b[u]);
    }
  }
  let between: number;
  if (metric === "nominal") {
    between = n * n;
    for (const c of counts.values()) between -= c * c;
  } else between = 2 * n * squares - 2 * sum * sum;
  return n <= 1 || between <= 0 ? NaN : 1 - ((n - 1) * within) / between;
}

/**
 * Cohen's weighted κ with quadratic weights (Cohen 1968; Fleiss & Cohen 1973), grades read as numbers:
 * κ_w = 1 − Σ w_u (a_u − b_u)² / Σ_{x,y} p_a(x) p_b(y) (x − y)², the expected disagreement from the two coders'
 * own marginals. On equally spaced grades (LLM-Rubric's (v − 1)/3) this is the usual quadratic-weighted κ over
 * the category indices ((i − j)² ∝ (x − y)²). NaN when the expected disagreement is 0.
 */
export function quadraticKappa(a: ArrayLike<number>, b: ArrayLike<number>, w: ArrayLike<number>): number {
  let total = 0;
  let observed = 0;
  let sa = 0;
  let sb = 0;
  let qa = 0;
  let qb = 0;
  for (let u = 0; u < a.length; u++) {
    const wu = w[u];
    if (wu === 0) continue;
    total += wu;
    observed += wu * (a[u] - b[u]) ** 2;
    sa += wu * a[u];
    sb += wu * b[u];
    qa += wu * a[u] * a[u];
    qb += wu * b[u] * b[u];
  }
  if (total === 0) return NaN;
  // E[(X − Y)²] with X ~ a's marginal and Y ~ b's, independent: E X² + E Y² − 2 E X E Y.
  const expected = qa / total + qb / total - (2 * (sa / total) * sb) / total;
  return expected <= 0 ? NaN : 1 - observed / total / expected;
}

/**
 * The judge's sensitivity and specificity against the reference for Yes (grade 1): the weighted share of the
 * reference's Yes units the judge also says Yes to, and of the reference's other decided units it does not.
 */
export function sensitivitySpecificity(
  reference: ArrayLike<number>,
  judge: ArrayLike<number>,
  w: ArrayLike<number>,
): { sensitivity: number; specificity: number } {
  let pos = 0;
  let truePos = 0;
  let neg = 0;
  let trueNeg = 0;
  for (let u = 0; u < reference.length; u++) {
    if (reference[u] === 1) {
      pos += w[u];
      if (judge[u] === 1) truePos += w[u];
    } else {
      neg += w[u];
      if (judge[u] !== 1) trueNeg += w[u];
    }
  }
  return { sensitivity: pos > 0 ? truePos / pos : NaN, specificity: neg > 0 ? trueNeg / neg : NaN };
}
