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
