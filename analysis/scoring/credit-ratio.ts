/**
 * A credit Σ w·grade / Σ w that compares exactly: equal credits are equal numbers, whatever the order of the
 * items summed. With Yes/No labels and integer weights both sums are integers and the quotient is exact as
 * division makes it. Graded labels and fractional weights make the sums floating point: LLM-Rubric's grades
 * (v − 1)/3 summed over a dialogue's eight criteria gave 0.49999999999999994 for one dialogue and 0.5 for
 * another whose grades average exactly 1/2, so an AUC split what is a tie (issue 45: human AUC 0.7223 against
 * the exact 0.7234247), and summing the same items in another order moved it to 0.728.
 *
 * The rule: a quotient within 1e-12 of a fraction p/q with q ≤ 100,000 is that fraction (p/q, rounded once).
 * Rounding in the sums is about 1e-16 per item, far inside the tolerance; a credit that is not such a fraction
 * is left as computed. By chance about 0.6% of uniformly spread values lie that close to one (some 3·10⁹
 * fractions with q ≤ 100,000 in [0, 1], each ± 1e-12); such a credit moves by at most 1e-12, which changes no
 * printed digit and ties it only with credits within 2e-12 of it. The fraction is found by continued fractions
 * (the best approximations; Khinchin, Continued Fractions, 1964, §6).
 */
export const CREDIT_TOLERANCE = 1e-12;
export const CREDIT_MAX_DENOMINATOR = 100_000;

export function creditRatio(numerator: number, denominator: number): number {
  const x = numerator / denominator;
  if (Number.isInteger(numerator) && Number.isInteger(denominator)) return x; // already exact
  if (!Number.isFinite(x)) return x;
  const fraction = nearFraction(x);
  return fraction === undefined ? x : fraction[0] / fraction[1];
}

/** The first convergent p/q of x's continued fraction within CREDIT_TOLERANCE with q ≤ the bound, if any. */
export function nearFraction(x: number): [number, number] | undefined {
  let [p0, q0, p1, q1] = [0, 1, 1, 0]; // convergents h(n−2)/k(n−2), h(n−1)/k(n−1)
  let rest = x;
  for (let step = 0; step < 64; step++) {
    const a = Math.floor(rest);
    [p0, q0, p1, q1] = [p1, q1, a * p1 + p0, a * q1 + q0];
    if (q1 > CREDIT_MAX_DENOMINATOR) return undefined;
    if (Math.abs(x - p1 / q1) <= CREDIT_TOLERANCE) return [p1, q1];
    const frac = rest - a;
    if (frac === 0) return undefined;
    rest = 1 / frac;
  }
  return undefined;
}
