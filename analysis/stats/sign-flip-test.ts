import { argError } from "../errors.js";
import { flipTail } from "./cluster-sign-test.js";
import { clusterDraws } from "./cluster-draws.js";

/** Draws of the sign-flip test's Monte Carlo computed per call of the kernel. */
const SIGN_BATCH = 1000;

/** Monte Carlo draws of the sign-flip test when the differences share no small grid. */
export const SIGN_FLIP_RESAMPLES = 20_000;

/** The largest grid denominator the exact walk accepts (task means over ≤ 10 attempts per arm: lcm ≤ 2,520). */
const MAX_GRID = 100_000;
/** The exact walk's cost bound: blocks × Σ blocks entries (≈ 0.3 s). */
const MAX_WALK = 3e8;

export interface SignFlipResult {
  method: string;
  /** Σ d_t, the observed sum (the test is two-sided on |Σ ε_t d_t|). */
  statistic: number;
  /** Units with d_t ≠ 0 (a zero difference flips to itself). */
  informative: number;
  pValue: number;
  exact: boolean;
  /** The common grid 1/grid of the exact walk (null under Monte Carlo). */
  grid: number | null;
  /** Monte Carlo: the draws, the seed string and the standard error √(p(1 − p)/B) of p. */
  resamples: number | null;
  seed: string | null;
  mc_se: number | null;
}

/**
 * The paired sign-flip (randomization) test of one difference per unit (a task), Fisher's test of symmetry
 * about 0: under H₀ each d_t is symmetric about 0 and independent across units, so every one of the 2^T sign
 * assignments is equally likely, and two-sided p = P(|Σ ε_t d_t| ≥ |Σ d_t|). Unlike the sign test it weighs
 * each unit by the size of its difference.
 *
 * Exact when the d_t lie on a common grid j/L (task means of 0/1 outcomes over a few attempts are multiples
 * of 1/lcm(attempt counts)): the d_t become integers and the randomization distribution is convolved exactly
 * ({@link flipTail}). Otherwise Monte Carlo over `resamples` seeded sign draws, p = (1 + #{|S*| ≥ |S|})/(1 + B)
 * (never 0; Phipson & Smyth 2010), with its Monte Carlo standard error. Ties of |S*| with |S| are counted
 * within a relative 1e-9 (a sum of the same values in another order may differ in its last bits).
 */
export function signFlipTest(differences: ArrayLike<number>, o: { seed: string; resamples?: number }): SignFlipResult {
  const d = Array.from(differences);
  for (const [i, x] of d.entries())
    if (!Number.isFinite(x)) throw argError("signFlipTest", `differences[${i}]`, x, "must be finite");
  const nonzero = d.filter((x) => x !== 0);
  const statistic = d.reduce((a, b) => a + b, 0);
  const none = { statistic, informative: nonzero.length, resamples: null, seed: null, mc_se: null };
  if (nonzero.length === 0)
    return { ...none, method: "sign-flip test: every difference is 0", pValue: NaN, exact: true, grid: null };
  const grid = commonGrid(nonzero);
  if (grid !== null) {
    const blocks = nonzero.map((x) => Math.abs(Math.round(x * grid)));
    const total = blocks.reduce((a, b) => a + b, 0);
    if (total * blocks.length <= MAX_WALK) {
      const cut = Math.abs(blocks.reduce((s, b, i) => s + Math.sign(nonzero[i]) * b, 0));
      return {
        ...none,
        method: `exact sign-flip test (all 2^${nonzero.length} sign assignments, convolved on the grid 1/${grid})`,
        pValue: flipTail(blocks, cut),
        exact: true,
        grid,
      };
    }
  }
  return monteCarlo(nonzero, statistic, o.seed, o.resamples ?? SIGN_FLIP_RESAMPLES);
}

function monteCarlo(d: number[], statistic: number, seed: string, resamples: number): SignFlipResult {
  const cut = Math.abs(statistic) * (1 - 1e-9);
  const terms = Float64Array.from(d);
  // Each draw: Σ ±d_t, the sign + where the stream's next uniform is below 1/2, in batches (the WebAssembly
  // kernel where there is one; the same sums as Xor4096.signedSum, draw for draw).
  const signs = clusterDraws(seed, 2);
  const sums = new Float64Array(Math.min(resamples, SIGN_BATCH));
  let hits = 0;
  for (let r = 0; r < resamples; r += sums.length) {
    const count = Math.min(sums.length, resamples - r);
    signs.signedSums(terms, sums, count);
    for (let j = 0; j < count; j++) if (Math.abs(sums[j]) >= cut) hits++;
  }
  const p = (1 + hits) / (1 + resamples);
  return {
    method: `Monte Carlo sign-flip test (${resamples} seeded sign draws; p = (1 + hits)/(1 + draws))`,
    statistic,
    informative: d.length,
    pValue: p,
    exact: false,
    grid: null,
    resamples,
    seed,
    mc_se: Math.sqrt((p * (1 - p)) / resamples),
  };
}

/**
 * The least L ≤ MAX_GRID with every x·L an integer (within 1e-9 relative), or null. Each value's own least
 * denominator comes from its continued-fraction convergents; L is their lcm.
 */
export function commonGrid(values: readonly number[]): number | null {
  let grid = 1;
  for (const x of values) {
    if (isOnGrid(x, grid)) continue;
    const q = denominator(x);
    if (q === null) return null;
    grid = lcm(grid, q);
    if (grid > MAX_GRID) return null;
  }
  return grid;
}

const isOnGrid = (x: number, grid: number) => {
  const y = x * grid;
  return Math.abs(y - Math.round(y)) <= 1e-9 * Math.max(1, Math.abs(y));
};

/** The least q ≤ MAX_GRID with x·q (nearly) an integer, by the convergents of x's continued fraction. */
function denominator(x: number): number | null {
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let r = Math.abs(x);
  for (let step = 0; step < 64; step++) {
    const a = Math.floor(r);
    [h0, h1] = [h1, a * h1 + h0];
    [k0, k1] = [k1, a * k1 + k0];
    if (k1 > MAX_GRID) return null;
    if (isOnGrid(x, k1)) return k1;
    const frac = r - a;
    if (frac < 1e-15) return null;
    r = 1 / frac;
  }
  return null;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number) => (a / gcd(a, b)) * b;
