/**
 * The one "not defined" policy (docs/architecture.md):
 * - a whole result that cannot be computed on this store is `NotAvailable` ({available: false, reason});
 * - a number inside a result that is not defined is `null` (never NaN, never a silent 0), and the
 *   interval that cannot be estimated is `ci: null` with the reason beside it (`ci_reason` or `note`);
 * - statistics functions in analysis/stats return NaN; the rq layer turns NaN into null with `finite`.
 */
export interface NotAvailable {
  available: false;
  reason: string;
}

export const notAvailable = (reason: string): NotAvailable => ({ available: false, reason });

/** NaN → null so JSON output never carries an invalid number. */
export function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

export function finiteCI(ci: [number, number]): [number, number] | null {
  return Number.isFinite(ci[0]) && Number.isFinite(ci[1]) ? ci : null;
}

/**
 * Below this magnitude a difference, mean of differences or interval endpoint of figures on [−1, 1] is the
 * rounding residue of equal fractions computed in different orders (two rates of 0.3 that differ by one ulp), not
 * a value: the smallest non-zero difference of two fractions with denominators up to 10^6 is about 10^-12.
 */
export const RESIDUE = 1e-13;

/**
 * A difference read as the 0 it is when it is residue (a pass-rate Δ of equal rates printed as −5.6e-18 told a
 * machine reader the arms differ, and a CI endpoint of 2.7e-18 that the interval excludes 0: issue 55.3).
 */
export const withoutResidue = (x: number): number => (Math.abs(x) < RESIDUE ? 0 : x);
