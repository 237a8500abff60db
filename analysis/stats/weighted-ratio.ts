/**
 * Σ w_i·numerator_i / Σ w_i·denominator_i (NaN when the denominator's sum is not positive): a ratio estimator on a
 * cluster-bootstrap draw, the clusters' multiplicities as weights (an arm's pass rate, a mean over matched units,
 * the judges' pairwise agreement). With every weight 1 it is the ratio on the sample.
 */
export function weightedRatio(
  w: ArrayLike<number>,
  numerator: ArrayLike<number>,
  denominator: ArrayLike<number>,
): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < numerator.length; i++) {
    s += w[i] * numerator[i];
    n += w[i] * denominator[i];
  }
  return n > 0 ? s / n : NaN;
}
