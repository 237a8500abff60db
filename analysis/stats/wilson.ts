/** z for a two-sided 95% interval: Φ⁻¹(0.975). */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval for a binomial proportion (Wilson 1927; Agresti and Coull 1998 recommend it over the
 * Wald interval for small n and rates near 0 or 1): the p whose score test against k of n does not reject at the
 * level. Null when n = 0. Checked against scipy's binomtest(k, n).proportion_ci(method="wilson").
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] | null {
  if (!(n > 0)) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
