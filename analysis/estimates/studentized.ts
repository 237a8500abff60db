import { quantileSorted } from "../stats/quantile.js";
import { endpointMcSe } from "../stats/monte-carlo-error.js";

/** Name under which a statistic's per-draw standard error travels with the draws. */
export const seKey = (name: string) => `se\u0000${name}`;

/**
 * The statistics a studentized bootstrap evaluates on each draw: every statistic (in its order, so
 * shared work still comes first), then the standard error of each statistic that has one. A
 * non-positive SE is undefined (NaN), so that draw is redrawn like any undefined draw.
 */
export function withStandardErrors<K extends string>(
  statistics: Record<K, (w: Float64Array) => number>,
  standardErrors: Partial<Record<K, (w: Float64Array) => number>>,
): Record<string, (w: Float64Array) => number> {
  const all: Record<string, (w: Float64Array) => number> = { ...statistics };
  for (const [name, se] of Object.entries(standardErrors) as [K, (w: Float64Array) => number][]) {
    all[seKey(name)] = (w) => {
      const s = se(w);
      return s > 0 ? s : NaN;
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
 */
export function studentizedIntervals<K extends string>(
  names: K[],
  sample: Record<K, number>,
  sampleSe: Record<K, number>,
  draws: Record<string, Float64Array>,
  level: number,
): { ci: Partial<Record<K, [number, number]>>; mcSe: Partial<Record<K, [number, number] | null>> } {
  const ci: Partial<Record<K, [number, number]>> = {};
  const mcSe: Partial<Record<K, [number, number] | null>> = {};
  const tail = (1 - level) / 2;
  for (const name of names) {
    const theta = draws[name];
    const se = draws[seKey(name)];
    const t = theta.map((x, r) => (x - sample[name]) / se[r]);
    const sorted = Float64Array.from(t).sort();
    const s = sampleSe[name];
    ci[name] = [sample[name] - quantileSorted(sorted, 1 - tail) * s, sample[name] - quantileSorted(sorted, tail) * s];
    const tErr = endpointMcSe(t, level);
    mcSe[name] = tErr ? [s * tErr[1], s * tErr[0]] : null;
  }
  return { ci, mcSe };
}
