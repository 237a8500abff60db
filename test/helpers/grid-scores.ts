/**
 * n scores for tests of tie handling: on the grid k/grid (0 ≤ k < grid) when grid > 0, else uniform in
 * [0, 1); a zero is −0 half the time, so +0 and −0 must count as one tie.
 */
export function gridScores(rng: () => number, n: number, grid: number): number[] {
  return Array.from({ length: n }, () => {
    const v = grid ? Math.floor(rng() * grid) / grid : rng();
    return v === 0 && rng() < 0.5 ? -0 : v;
  });
}
