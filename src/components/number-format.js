// The site's number formats in a module of their own (no DOM, no vendored library), so that node can import
// them in tests beside the report's (report/format.ts); section-table.js re-exports them for the pages.

/** x to `digits` decimals, rounded as its 12-significant-digit decimal is (report/format.ts, fixed). */
export const fixed = (x, digits) => Number(Number(x).toPrecision(12)).toFixed(digits);
/** The site's number formats, one copy for every page (the report's are in report/format.ts). */
export const fmt = (x) => (x === null || x === undefined || !Number.isFinite(Number(x)) ? "n/a" : fixed(x, 3));
/** A share as a percentage to one decimal (report/format.ts, pct). */
export const pct = (x) => (x === null || x === undefined ? "n/a" : `${fixed(100 * x, 1)}%`);
/** A difference of shares in percentage points, signed (report/format.ts, signedPct). */
export const pp = (x) => (x === null || x === undefined ? "n/a" : `${x >= 0 ? "+" : ""}${fixed(100 * x, 1)} pp`);
/** What every format prints instead of a zero-width bootstrap interval (report/format.ts, DEGENERATE_TEXT). */
export const DEGENERATE_TEXT = "degenerate: every draw equals the estimate";
/** What every format prints instead of an analytic interval whose standard error is 0 (report/format.ts). */
export const ZERO_SE_TEXT = "degenerate: standard error 0";
/** An interval with its ends in `format`, the degenerate text when every draw equalled the estimate, or `missing`. */
export const fmtInterval = (c, format, missing = "n/a", degenerate = false) =>
  degenerate ? DEGENERATE_TEXT : c ? `[${format(c[0])}, ${format(c[1])}]` : missing;
/** An interval to three decimals (fmtInterval with fmt). */
export const fmtCI = (c, missing = "n/a", degenerate = false) => fmtInterval(c, fmt, missing, degenerate);
/** Whether a bootstrap descriptor lists `stat` (or, without one, any statistic) as degenerate. */
export const isDegenerate = (b, stat) =>
  stat ? (b?.degenerate ?? []).includes(stat) : (b?.degenerate ?? []).length > 0;
/** The smallest p printed as a number, as in report/format.ts (P_DISPLAY_FLOOR): an exact test's tail below it is
 * not resolved in doubles (an underflowed p is 0). */
const P_DISPLAY_FLOOR = 1e-300;
const pText = (p, number) =>
  p === null || p === undefined || !Number.isFinite(p) ? "n/a" : p < P_DISPLAY_FLOOR ? "< 1e-300" : number(p);
/** p-values as the report prints them (report/format.ts, pv): four decimals, one significant digit below 1e-4. */
export const fmtP = (p) => pText(p, (x) => (x < 1e-4 ? x.toExponential(1) : x.toFixed(4)));
/** A p-value to four significant digits (the explorer's sortable criteria table), with the same floor as fmtP. */
export const fmtP4 = (p) => pText(p, (x) => x.toPrecision(4));
