/**
 * An anytime-valid confidence sequence for the mean of bounded observations in [0, 1], by betting
 * (Waudby-Smith & Ramdas 2024, "Estimating means of bounded random variables by betting", JRSS-B, §4: the hedged
 * capital process with the predictable plug-in bets). For a candidate mean m, two gamblers bet on X − m with
 * predictable fractions λ⁺ and λ⁻:
 *   K⁺_t(m) = Π (1 + λ⁺_i(m)(X_i − m)),  K⁻_t(m) = Π (1 − λ⁻_i(m)(X_i − m)),  K_t(m) = max(½K⁺_t, ½K⁻_t),
 * a process below the nonnegative martingale ½K⁺ + ½K⁻ under mean m, so by Ville's inequality
 * P(∃t: K_t(μ) ≥ 1/α) ≤ α and {m : K_t(m) < 1/α} covers μ at every t at once. The bets (predictable plug-in):
 *   λ_t = √(2 log(2/α) / (σ̂²_{t−1} · t · log(1 + t))),  λ⁺_t(m) = min(λ_t, c/m),  λ⁻_t(m) = min(λ_t, c/(1 − m)),
 *   μ̂_t = (½ + Σ_{i≤t} X_i)/(t + 1),  σ̂²_t = (¼ + Σ_{i≤t} (X_i − μ̂_i)²)/(t + 1),  c = ½.
 * The set is read on a grid of m (every 1/grid, endpoints widened by one step, so the grid never narrows it) and
 * intersected over time (an intersection of confidence sequences is one). Why not a library: no npm package
 * implements it; test/betting-cs.test.ts checks it against an independent implementation in Python.
 */
export interface ConfidenceSequence {
  /** Per look t = 1..n (after t observations): the running interval's ends. */
  lower: Float64Array;
  upper: Float64Array;
}

export function bettingConfidenceSequence(
  x: ArrayLike<number>,
  o: { alpha: number; grid?: number; c?: number },
): ConfidenceSequence {
  const n = x.length;
  const G = o.grid ?? 1000;
  const c = o.c ?? 0.5;
  const threshold = Math.log(1 / o.alpha);
  const m = Float64Array.from({ length: G + 1 }, (_, j) => j / G);
  // Log capital of each gambler at each grid point.
  const logPlus = new Float64Array(G + 1);
  const logMinus = new Float64Array(G + 1);
  const lower = new Float64Array(n);
  const upper = new Float64Array(n);
  let sum = 0;
  let squares = 0;
  let mu = 0.5;
  let lo = 0;
  let hi = 1;
  for (let t = 1; t <= n; t++) {
    const xt = x[t - 1];
    if (!(xt >= 0 && xt <= 1)) throw new RangeError(`bettingConfidenceSequence: x[${t - 1}] = ${xt} is not in [0, 1]`);
    // σ̂²_{t−1} from the first t − 1 observations (predictable).
    const variance = (0.25 + squares) / t;
    const lambda = Math.sqrt((2 * Math.log(2 / o.alpha)) / (variance * t * Math.log(1 + t)));
    for (let j = 0; j <= G; j++) {
      const d = xt - m[j];
      const lp = m[j] > 0 ? Math.min(lambda, c / m[j]) : lambda;
      const lm = m[j] < 1 ? Math.min(lambda, c / (1 - m[j])) : lambda;
      logPlus[j] += Math.log1p(lp * d);
      logMinus[j] += Math.log1p(-lm * d);
    }
    sum += xt;
    // μ̂_t and the squared deviation of X_t from it (σ̂²'s numerator).
    mu = (0.5 + sum) / (t + 1);
    squares += (xt - mu) ** 2;
    // The grid points not rejected: max(½K⁺, ½K⁻) < 1/α.
    let first = -1;
    let last = -1;
    for (let j = 0; j <= G; j++) {
      const logK = Math.max(logPlus[j], logMinus[j]) - Math.LN2;
      if (logK < threshold) {
        if (first < 0) first = j;
        last = j;
      }
    }
    const a = first < 0 ? lo : Math.max(0, (first - 1) / G);
    const b = first < 0 ? hi : Math.min(1, (last + 1) / G);
    lo = Math.max(lo, a);
    hi = Math.min(hi, b);
    if (lo > hi) lo = hi = (lo + hi) / 2;
    lower[t - 1] = lo;
    upper[t - 1] = hi;
  }
  return { lower, upper };
}
