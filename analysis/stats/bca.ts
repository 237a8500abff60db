import { normalCdf, normalQuantile } from "./obuchowski.js";
import { quantileSorted } from "./quantile.js";

/**
 * Bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987; Efron & Tibshirani 1993,
 * §14.3), for a cluster bootstrap: the acceleration comes from the delete-one-cluster jackknife.
 *   z₀ = Φ⁻¹(share of draws below θ̂, ties counted ½),
 *   a = Σ(θ̄ − θ₍₋c₎)³ / (6 [Σ(θ̄ − θ₍₋c₎)²]^{3/2}),
 *   α₁,₂ = Φ(z₀ + (z₀ + z_{α/2, 1−α/2}) / (1 − a(z₀ + z_{α/2, 1−α/2}))),
 * endpoints = type-7 quantiles of the draws at α₁ and α₂. Undefined (null) when every draw lies
 * on one side of θ̂ (z₀ infinite) or fewer than 2 jackknife values are defined.
 */
export function bcaInterval(
  draws: Float64Array,
  estimate: number,
  jackknife: ArrayLike<number>,
  level = 0.95,
): { ci: [number, number]; z0: number; acceleration: number } | null {
  let below = 0;
  for (let i = 0; i < draws.length; i++) below += draws[i] < estimate ? 1 : draws[i] === estimate ? 0.5 : 0;
  const share = below / draws.length;
  if (share <= 0 || share >= 1) return null;
  const z0 = normalQuantile(share);
  const jk = Array.from(jackknife).filter(Number.isFinite);
  if (jk.length < 2) return null;
  const mean = jk.reduce((a, b) => a + b, 0) / jk.length;
  let num = 0;
  let den = 0;
  for (const v of jk) {
    num += (mean - v) ** 3;
    den += (mean - v) ** 2;
  }
  const acceleration = den > 0 ? num / (6 * den ** 1.5) : 0;
  const adjusted = (z: number) => normalCdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)));
  const tail = (1 - level) / 2;
  const sorted = Float64Array.from(draws).sort();
  const lo = adjusted(normalQuantile(tail));
  const hi = adjusted(normalQuantile(1 - tail));
  return { ci: [quantileSorted(sorted, lo), quantileSorted(sorted, hi)], z0, acceleration };
}
