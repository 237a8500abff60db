/**
 * Number formats of every rendered table (md, latex, site tables). One copy: the pages
 * use the rendered sections, not their own formatters. Kept as toFixed rather than
 * d3-format because d3-format prints U+2212 for minus, and the outputs are byte-stable.
 */
type Maybe = number | null | undefined;

export const f3 = (x: Maybe): string => (x === null || x === undefined || !Number.isFinite(x) ? "n/a" : x.toFixed(3));

export const pct = (x: Maybe): string => (x === null || x === undefined ? "n/a" : `${(100 * x).toFixed(1)}%`);

export { isDegenerate } from "../analysis/estimates/bootstrap-interval.js";

/** What every format prints instead of a zero-width bootstrap interval (the row carries `degenerate: true`). */
export const DEGENERATE_TEXT = "degenerate: every draw equals the estimate";

/** What every format prints instead of an analytic interval whose standard error is 0. */
export const ZERO_SE_TEXT = "degenerate: standard error 0";

export const ci = (c: [number, number] | null | undefined, degenerate?: boolean): string =>
  degenerate ? DEGENERATE_TEXT : c ? `[${f3(c[0])}, ${f3(c[1])}]` : "n/a";

/** p-values: four decimals, or one significant digit in exponent form below 1e-4. */
export const pv = (p: Maybe): string =>
  p === null || p === undefined ? "n/a" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4);

export function signedPct(x: Maybe): string {
  if (x === null || x === undefined) return "n/a";
  return `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} pp`;
}

export function ciPct(c: [number, number] | null | undefined, signed = false, degenerate?: boolean): string {
  if (degenerate) return DEGENERATE_TEXT;
  if (!c) return "";
  const f = signed ? signedPct : pct;
  return `[${f(c[0])}, ${f(c[1])}]`;
}

/** The cell for a result that is not defined on this store (docs/architecture.md, "not defined"). */
export function notAvailable(x: unknown): string | null {
  if (!x || typeof x !== "object" || !("available" in x) || x.available !== false) return null;
  return `not available: ${(x as { reason?: string }).reason}`;
}
