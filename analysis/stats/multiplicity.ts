/**
 * Adjusted p-values for a family of tests, as R's p.adjust computes them (a missing p stays
 * missing and is not counted in the family size).
 * - Holm (1979): step-down, controls the family-wise error rate under any dependence;
 *   p̃(i) = max_{j ≤ i} min(1, (m − j + 1)·p(j)) over the ascending order.
 * - Benjamini–Hochberg (1995): step-up, controls the false discovery rate (independent or
 *   positively dependent tests); p̃(i) = min_{j ≥ i} min(1, m·p(j)/j).
 */
export function holm(p: readonly (number | null)[]): (number | null)[] {
  const { order, m } = ranked(p);
  const out: (number | null)[] = p.map(() => null);
  let running = 0;
  order.forEach((i, k) => {
    running = Math.max(running, Math.min(1, (m - k) * (p[i] as number)));
    out[i] = running;
  });
  return out;
}

export function benjaminiHochberg(p: readonly (number | null)[]): (number | null)[] {
  const { order, m } = ranked(p);
  const out: (number | null)[] = p.map(() => null);
  let running = 1;
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k];
    running = Math.min(running, Math.min(1, (m * (p[i] as number)) / (k + 1)));
    out[i] = running;
  }
  return out;
}

/** Indices of the known p-values in ascending order (ties by position), and their count. */
function ranked(p: readonly (number | null)[]): { order: number[]; m: number } {
  const order = p.flatMap((x, i) => (x === null || Number.isNaN(x) ? [] : [i]));
  order.sort((a, b) => (p[a] as number) - (p[b] as number) || a - b);
  return { order, m: order.length };
}
