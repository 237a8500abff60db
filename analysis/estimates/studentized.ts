import { quantileSorted } from "../stats/quantile.js";
import { endpointMcSe } from "../stats/monte-carlo-error.js";

/** Name under which a statistic's per-draw standard error travels with the draws. */
export const seKey = (name: string) => `se\u0000${name}`;

/**
 * The statistics a studentized bootstrap evaluates on each draw: every statistic (in its order, so
 * shared work still comes first), then the standard error of each statistic that has one. A negative
 * SE reads as 0; an undefined one (NaN) is redrawn like any undefined draw. A draw whose SE* is 0 is
 * kept (redrawing it would condition the bootstrap on SE* > 0, and on a store that separates perfectly
 * no draw has SE* > 0): `studentizedIntervals` decides what its t* is.
 */
export function withStandardErrors<K extends string>(
  statistics: Record<K, (w: Float64Array) => number>,
  standardErrors: Partial<Record<K, (w: Float64Array) => number>>,
): Record<string, (w: Float64Array) => number> {
  const all: Record<string, (w: Float64Array) => number> = { ...statistics };
  for (const [name, se] of Object.entries(standardErrors) as [K, (w: Float64Array) => number][]) {
    all[seKey(name)] = (w) => {
      const s = se(w);
      return Number.isNaN(s) ? NaN : Math.max(s, 0);
    };
  }
  return all;
}

/**
 * Studentized (bootstrap-t) intervals (Efron & Tibshirani 1993, §12.5; Davison & Hinkley 1997,
 * §5.2.1): on each draw t* = (θ* − θ̂)/SE*, and the interval is
 *   [θ̂ − t*_{1−α/2}·SE, θ̂ − t*_{α/2}·SE],
 * with t* quantiles of type 7 and SE the same estimator on the sample. Second-order accurate where
 * SE is a good pivot's scale (AUC with Obuchowski's clustered SE); it is not clipped, so an AUC
 * interval may pass 1 when the sample sits near it. The endpoints' Monte Carlo SE is SE times the
 * batch-means error of the t* quantiles.
 *
 * A draw with SE* = 0 has t* = ±∞ when θ* ≠ θ̂ (the limit of the ratio) and no t* when θ* = θ̂ (0/0;
 * left out and counted in `undefinedT`). When an endpoint's t* quantile is infinite, the bootstrap-t
 * interval is unbounded: that statistic is listed in `unbounded` and the caller falls back (documented
 * in `bootstrapIntervals`).
 */
export function studentizedIntervals<K extends string>(
  names: K[],
  sample: Record<K, number>,
  sampleSe: Record<K, number>,
  draws: Record<string, Float64Array>,
  level: number,
): {
  ci: Partial<Record<K, [number, number]>>;
  mcSe: Partial<Record<K, [number, number] | null>>;
  unbounded: K[];
  undefinedT: Partial<Record<K, number>>;
} {
  const ci: Partial<Record<K, [number, number]>> = {};
  const mcSe: Partial<Record<K, [number, number] | null>> = {};
  const unbounded: K[] = [];
  const undefinedT: Partial<Record<K, number>> = {};
  const tail = (1 - level) / 2;
  for (const name of names) {
    const t = tStatistics(draws[name], draws[seKey(name)], sample[name]);
    if (t.length < draws[name].length) undefinedT[name] = draws[name].length - t.length;
    const sorted = Float64Array.from(t).sort();
    const s = sampleSe[name];
    const qHigh = tQuantile(sorted, 1 - tail);
    const qLow = tQuantile(sorted, tail);
    if (!Number.isFinite(qHigh) || !Number.isFinite(qLow)) {
      unbounded.push(name);
      continue;
    }
    ci[name] = [sample[name] - qHigh * s, sample[name] - qLow * s];
    const tErr = t.every(Number.isFinite) ? endpointMcSe(t, level) : null;
    mcSe[name] = tErr ? [s * tErr[1], s * tErr[0]] : null;
  }
  return { ci, mcSe, unbounded, undefinedT };
}

/** t* per draw, in draw order: ±∞ where SE* = 0 and θ* ≠ θ̂; draws with SE* = 0 and θ* = θ̂ are left out. */
function tStatistics(theta: Float64Array, se: Float64Array, estimate: number): Float64Array {
  const t: number[] = [];
  for (let r = 0; r < theta.length; r++) {
    const d = theta[r] - estimate;
    if (se[r] > 0) t.push(d / se[r]);
    else if (d !== 0) t.push(d > 0 ? Infinity : -Infinity);
  }
  return Float64Array.from(t);
}

/** Type-7 quantile that reads an infinite neighbour as infinite (interpolating ∞ − ∞ would give NaN). */
function tQuantile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = sorted[Math.floor(h)];
  const hi = sorted[Math.ceil(h)];
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return lo === hi || h === Math.floor(h) ? lo : lo + hi;
  return quantileSorted(sorted, p);
}
