/**
 * One helper for caller mistakes, so every message names the function, the
 * argument and the offending value (STYLE B.4). Undefined statistics are NaN
 * in the base functions and are turned into explicit "not available" results
 * by the RQ layer; RangeError/TypeError is reserved for misuse.
 */
export function argError(fn: string, arg: string, value: unknown, why: string): RangeError {
  let shown: string;
  try {
    shown = typeof value === "number" ? String(value) : JSON.stringify(value);
  } catch {
    shown = String(value);
  }
  if (shown !== undefined && shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  return new RangeError(`${fn}(): invalid ${arg} ${shown}: ${why}`);
}
