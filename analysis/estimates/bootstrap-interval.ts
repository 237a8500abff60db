import { clusterBootstrap, DEFAULT_RESAMPLES, percentileCI } from "../stats/bootstrap.js";

/** Settings every bootstrap in an analysis run shares; recorded with each figure. */
export interface BootstrapSettings {
  seed: number;
  resamples: number;
  level: number;
}

export const DEFAULT_SETTINGS: BootstrapSettings = { seed: 20260101, resamples: DEFAULT_RESAMPLES, level: 0.95 };

/** What produced a CI, attached to every interval (DEVELOPERS: state estimator, seed, resamples). */
export interface BootstrapDescriptor {
  estimator: string;
  resamples: number;
  seed: string;
  level: number;
  clusters: number;
  redrawn: number;
}

/** Seed string of one bootstrap: the run's seed plus the figure's name, so each figure is reproducible alone. */
export const seedFor = (s: BootstrapSettings, figure: string) => `${s.seed}:${figure}`;

export interface BootstrapIntervals<K extends string> {
  ci: Record<K, [number, number]>;
  draws: Record<K, Float64Array>;
  bootstrap: BootstrapDescriptor;
}

/**
 * The one estimate-with-CI helper: a cluster bootstrap of one or more statistics on the same
 * draws, percentile intervals (type-7) at the run's level, and the descriptor that travels with
 * every interval. Statistics run in the order given on each draw, so a first statistic may cache
 * work the later ones read (see clusterBootstrap).
 */
export function bootstrapIntervals<K extends string>(o: {
  settings: BootstrapSettings;
  /** Names the figure; with the run's seed it seeds this bootstrap alone. */
  figure: string;
  clusters: number;
  estimator: string;
  statistics: Record<K, (weights: Float64Array) => number>;
  accept?: (weights: Float64Array) => boolean;
}): BootstrapIntervals<K> {
  const res = clusterBootstrap({
    clusters: o.clusters,
    seed: seedFor(o.settings, o.figure),
    resamples: o.settings.resamples,
    statistics: o.statistics,
    accept: o.accept,
  });
  const ci = {} as Record<K, [number, number]>;
  for (const name of Object.keys(o.statistics) as K[]) ci[name] = percentileCI(res.draws[name], o.settings.level);
  const bootstrap: BootstrapDescriptor = {
    estimator: o.estimator,
    resamples: res.resamples,
    seed: res.seed,
    level: o.settings.level,
    clusters: o.clusters,
    redrawn: res.redrawn,
  };
  return { ci, draws: res.draws, bootstrap };
}
