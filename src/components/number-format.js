// The site's number formats in a module of their own (no DOM, no vendored library), so that node can import
// them in tests beside the report's (report/format.ts); section-table.js re-exports them for the pages.

/** The site's number formats, one copy for every page (the report's are in report/format.ts). */
export const fmt = (x) => (x === null || x === undefined || !Number.isFinite(Number(x)) ? "n/a" : Number(x).toFixed(3));
/** What every format prints instead of a zero-width bootstrap interval (report/format.ts, DEGENERATE_TEXT). */
export const DEGENERATE_TEXT = "degenerate: every draw equals the estimate";
/** What every format prints instead of an analytic interval whose standard error is 0 (report/format.ts). */
export const ZERO_SE_TEXT = "degenerate: standard error 0";
/** An interval, or the degenerate text when every draw equalled the estimate (the row's `degenerate` mark). */
export const fmtCI = (c, missing = "n/a", degenerate = false) =>
  degenerate ? DEGENERATE_TEXT : c ? `[${fmt(c[0])}, ${fmt(c[1])}]` : missing;
/** Whether a bootstrap descriptor lists `stat` (or, without one, any statistic) as degenerate. */
export const isDegenerate = (b, stat) =>
  stat ? (b?.degenerate ?? []).includes(stat) : (b?.degenerate ?? []).length > 0;
/** p-values as the report prints them (report/format.ts, pv): four decimals, one significant digit below 1e-4,
 * "< 1e-300" below the floor where doubles no longer resolve an exact test's tail (an underflowed p is 0). */
export const fmtP = (p) =>
  p === null || p === undefined || !Number.isFinite(p)
    ? "n/a"
    : p < 1e-300
      ? "< 1e-300"
      : p < 1e-4
        ? p.toExponential(1)
        : p.toFixed(4);
/** A p-value to four significant digits (the explorer's sortable criteria table), with the same floor as fmtP. */
export const fmtP4 = (p) =>
  p === null || p === undefined || !Number.isFinite(p) ? "n/a" : p < 1e-300 ? "< 1e-300" : p.toPrecision(4);
