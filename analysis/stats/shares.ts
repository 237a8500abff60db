/**
 * Share of values strictly above `threshold` and strictly below `-threshold`,
 * as the material-change rule needs (contract rule 6: |Δ| = 0.10 is not
 * material). Values are rounded to 12 decimals first so that floating-point
 * error in a difference of fractions cannot push a pair across the threshold.
 * NaN shares for an empty input.
 */
export function thresholdShares(
  values: ArrayLike<number>,
  threshold: number,
): { above: number; below: number; n: number } {
  const n = values.length;
  if (n === 0) return { above: NaN, below: NaN, n };
  let above = 0,
    below = 0;
  for (let i = 0; i < n; i++) {
    const v = roundTo12(values[i]);
    if (v > threshold) above++;
    else if (v < -threshold) below++;
  }
  return { above: above / n, below: below / n, n };
}

export function roundTo12(x: number): number {
  return Math.round(x * 1e12) / 1e12;
}

/** Arithmetic mean; NaN for an empty input. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}
