/**
 * Number formats of every rendered table (md, latex, site tables). One copy: the pages
 * use the rendered sections, not their own formatters. Kept as toFixed rather than
 * d3-format because d3-format prints U+2212 for minus, and the outputs are byte-stable.
 */
type Maybe = number | null | undefined;

/**
 * x to `digits` decimals, rounded as its 12-significant-digit decimal is: a mean over runs of 0.5675 computed as
 * 0.56749999999999989 prints 56.8% like the pooled 0.5675 beside it, not 56.7% (the same value, two texts).
 */
export const fixed = (x: number, digits: number): string => Number(x.toPrecision(12)).toFixed(digits);

export const f3 = (x: Maybe): string => (x === null || x === undefined || !Number.isFinite(x) ? "n/a" : fixed(x, 3));

/** A rank to 12 significant digits: a rank interval read between two draws carries float noise (1.4750000000000023). */
export const rankText = (x: number): string => String(Number(x.toPrecision(12)));

/** A rank interval or set, [best, worst], or "n/a". */
export const rankInterval = (c: [number, number] | null): string =>
  c ? `[${rankText(c[0])}, ${rankText(c[1])}]` : "n/a";

export const pct = (x: Maybe): string => (x === null || x === undefined ? "n/a" : `${fixed(100 * x, 1)}%`);

export { isDegenerate } from "../analysis/estimates/bootstrap-interval.js";

/** What every format prints instead of a zero-width bootstrap interval (the row carries `degenerate: true`). */
export const DEGENERATE_TEXT = "degenerate: every draw equals the estimate";

/** What every format prints instead of an analytic interval whose standard error is 0. */
export const ZERO_SE_TEXT = "degenerate: standard error 0";

export const ci = (c: [number, number] | null | undefined, degenerate?: boolean): string =>
  degenerate ? DEGENERATE_TEXT : c ? `[${f3(c[0])}, ${f3(c[1])}]` : "n/a";

/**
 * The smallest p-value printed as a number; below it every format prints "< 1e-300". The exact tests' tails are
 * doubles: a probability under 2.2e-308 is subnormal or 0 (every one of 1,100 informative tasks moving the same way
 * gives p = 2^-1099, stored as 0), and the clustered sign-flip walk (analysis/stats/cluster-sign-test.ts) loses at
 * most 2.2e-308 per task to underflow: a bound that keeps a p above 1e-300 right to 0.3% even at 100,000 tasks
 * (test/p-value-floor.test.ts finds both tests within 1e-15 of exact BigInt tails down to 6e-299 at 1,000 tasks).
 * The JSON and CSV keep the double, as R and scipy return it.
 */
export const P_DISPLAY_FLOOR = 1e-300;

/** p-values: four decimals, one significant digit in exponent form below 1e-4, "< 1e-300" below the floor. */
export const pv = (p: Maybe): string =>
  p === null || p === undefined
    ? "n/a"
    : p < P_DISPLAY_FLOOR
      ? "< 1e-300"
      : p < 1e-4
        ? p.toExponential(1)
        : p.toFixed(4);

export function signedPct(x: Maybe): string {
  if (x === null || x === undefined) return "n/a";
  return `${x >= 0 ? "+" : ""}${fixed(100 * x, 1)} pp`;
}

export function ciPct(c: [number, number] | null | undefined, signed = false, degenerate?: boolean): string {
  if (degenerate) return DEGENERATE_TEXT;
  if (!c) return "";
  const f = signed ? signedPct : pct;
  return `[${f(c[0])}, ${f(c[1])}]`;
}

/** A value and its interval; only "n/a" when the value is not defined (an empty transition has neither). */
const valueAndInterval = (value: string, interval: string): string =>
  value === "n/a" ? value : `${value} ${interval}`;

/** An estimate (3 decimals) with its interval, or the degenerate text; "n/a" alone when it is not defined. */
export const estimateCell = (estimate: Maybe, interval: [number, number] | null, degenerate: boolean): string =>
  valueAndInterval(f3(estimate), ci(interval, degenerate));

/** A share (percent) with its interval, or the degenerate text; "n/a" alone when it is not defined. */
export const shareCell = (share: Maybe, interval: [number, number] | null, degenerate: boolean): string =>
  valueAndInterval(pct(share), ciPct(interval, false, degenerate));

/** The cell for a result that is not defined on this store (docs/architecture.md, "not defined"). */
export function notAvailable(x: unknown): string | null {
  if (!x || typeof x !== "object" || !("available" in x) || x.available !== false) return null;
  return `not available: ${(x as { reason?: string }).reason}`;
}
