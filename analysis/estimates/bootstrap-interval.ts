import { max } from "d3";
import { clusterBootstrap, DEFAULT_RESAMPLES, percentileCI } from "../stats/bootstrap.js";
import { bcaInterval } from "../stats/bca.js";
import { endpointMcSe, intervalMcSe } from "../stats/monte-carlo-error.js";
import { expandedPercentileLevel } from "../stats/expanded-percentile.js";
import { studentizedIntervals, withStandardErrors } from "./studentized.js";
import type { SumStatistics } from "../stats/cluster-sums.js";
import { withoutResidue } from "./not-defined.js";

/** Settings every bootstrap in an analysis run shares; recorded with each figure. */
export interface BootstrapSettings {
  seed: number;
  resamples: number;
  /**
   * The most resamples of a headline interval (RQ1: pooled and within-task AUC per method, paired ΔAUC),
   * whose endpoints readers compare to the paper: drawn where `resamples` leave an endpoint's Monte Carlo
   * error too large (the rule: {@link headline}).
   */
  headline_resamples: number;
  level: number;
  /**
   * Interval method: percentile (the paper's, default), BCa (bias-corrected and accelerated),
   * expanded (the percentile interval widened for few clusters, Hesterberg 2015) or studentized
   * (bootstrap-t where the figure has a per-draw standard error, expanded percentile elsewhere).
   */
  interval: IntervalMethod;
  /**
   * The resample rule of the headline intervals (set by {@link headline}): draw `escalate_from` resamples
   * first, and `resamples` only when an endpoint's Monte Carlo SE exceeds ESCALATE_SHARE of the interval's
   * half-width. Absent: `resamples`, always.
   */
  escalate_from?: number;
}

export type IntervalMethod = "percentile" | "bca" | "expanded" | "studentized";

export const INTERVAL_METHODS: readonly IntervalMethod[] = ["percentile", "bca", "expanded", "studentized"];

export const HEADLINE_RESAMPLES = 10_000;

export const DEFAULT_SETTINGS: BootstrapSettings = {
  seed: 20260101,
  resamples: DEFAULT_RESAMPLES,
  headline_resamples: HEADLINE_RESAMPLES,
  level: 0.95,
  interval: "percentile",
};

/**
 * The draws rule of the headline figures (RQ1's AUCs and ΔAUCs): the paper's 2,000 task-clustered resamples
 * (`resamples`), raised to `headline_resamples` only where an endpoint's Monte Carlo SE (Maritz–Jarrett; BCa's
 * by batch means) exceeds this share of the interval's half-width. The MC SE of a percentile endpoint relative
 * to the width does not depend on the sample size (about 3% at 2,000 draws for a smooth statistic), so more
 * draws buy digits below what is printed except where the draws are lumpy.
 */
export const ESCALATE_SHARE = 0.05;

/** The settings of a headline figure: the same seed and level, drawn by the headline rule (ESCALATE_SHARE). */
export const headline = (s: BootstrapSettings): BootstrapSettings => ({
  ...s,
  resamples: s.headline_resamples,
  ...(s.headline_resamples > s.resamples ? { escalate_from: s.resamples } : {}),
});

/** The headline rule in words ("2000 resamples, raised to 10000 where …"), for the report's header and captions. */
export function headlineRule(s: Pick<BootstrapSettings, "resamples" | "headline_resamples">): string {
  if (s.headline_resamples <= s.resamples) return `${s.headline_resamples} resamples`;
  return (
    `${s.resamples} resamples, raised to ${s.headline_resamples} where an endpoint's Monte Carlo SE exceeds ` +
    `${100 * ESCALATE_SHARE}% of the interval's half-width (each row's bootstrap.resamples says which)`
  );
}

/** What produced a CI, attached to every interval (DEVELOPERS: state estimator, seed, resamples). */
export interface BootstrapDescriptor {
  estimator: string;
  resamples: number;
  seed: string;
  level: number;
  clusters: number;
  /** Fewer than 10 clusters (contract rule 14): shown, but coverage falls below nominal. */
  few_clusters: boolean;
  /** The interval method used; with BCa, `interval_note` says when a statistic fell back to percentile. */
  interval: IntervalMethod;
  interval_note?: string;
  redrawn: number;
  /**
   * Monte Carlo standard error of each interval endpoint [lower, upper] (Maritz–Jarrett; BCa's by batch means)
   * (analysis/stats/monte-carlo-error.ts), of the interval printed (BCa's own, the studentized one's);
   * for several statistics on one draw, the largest (each statistic's own travels in `mc_se_by`).
   */
  mc_se: [number, number] | null;
  /** With several statistics on one draw: each one's own endpoint MC SE (RQ3's median and shares). */
  mc_se_by?: Record<string, [number, number] | null>;
  /**
   * The statistics whose every draw equals the estimate (absent when none): their interval is a point
   * that says nothing about sampling error, and every format prints "degenerate" instead of it.
   */
  degenerate?: string[];
}

/**
 * `{degenerate: true}` when the statistic's every draw equals the estimate (`stat` names it when the
 * bootstrap gave several), else `{}`: spread into a result row, so other tools read one fixed key.
 */
export function degenerateMark(
  b: Pick<BootstrapDescriptor, "degenerate"> | null | undefined,
  stat?: string,
): { degenerate?: true } {
  return isDegenerate(b, stat) ? { degenerate: true } : {};
}

/** Whether a descriptor marks statistic `stat` (or, without one, any) degenerate: every draw equals the estimate. */
export function isDegenerate(b: { degenerate?: string[] } | null | undefined, stat?: string): boolean {
  const list = b?.degenerate ?? [];
  return stat ? list.includes(stat) : list.length > 0;
}

/** Contract rule 14: with fewer clusters than this, intervals are flagged `few_clusters`. */
export const FEW_CLUSTERS = 10;

/** Seed string of one bootstrap: the run's seed plus the figure's name, so each figure is reproducible alone. */
export const seedFor = (s: BootstrapSettings, figure: string) => `${s.seed}:${figure}`;

export interface BootstrapIntervals<K extends string> {
  ci: Record<K, [number, number]>;
  /** Per statistic: the Monte Carlo standard error of its endpoints. */
  mcSe: Record<K, [number, number] | null>;
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
  /** Per-draw standard errors, for the studentized interval (only statistics that have one). */
  standardErrors?: Partial<Record<K, (weights: Float64Array) => number>>;
  /** The statistics as functions of a table's sums (faster draws, the same values; see clusterBootstrap). */
  sums?: SumStatistics<K>;
}): BootstrapIntervals<K> {
  const from = o.settings.escalate_from;
  if (from === undefined || from >= o.settings.resamples) return intervalsOf(o, o.settings.resamples);
  // The headline rule: the first `from` draws are the same stream's first draws, so raising the count
  // extends the stream rather than replacing it.
  const first = intervalsOf(o, from);
  return endpointsTooRough(first) ? intervalsOf(o, o.settings.resamples) : first;
}

/** Whether some statistic's endpoint MC SE exceeds ESCALATE_SHARE of its interval's half-width. */
function endpointsTooRough<K extends string>(r: BootstrapIntervals<K>): boolean {
  for (const name of Object.keys(r.ci) as K[]) {
    const se = r.mcSe[name];
    const half = (r.ci[name][1] - r.ci[name][0]) / 2;
    if (se && half > 0 && Math.max(se[0], se[1]) > ESCALATE_SHARE * half) return true;
  }
  return false;
}

type IntervalInputs<K extends string> = Parameters<typeof bootstrapIntervals<K>>[0];

/** {@link bootstrapIntervals} at one resample count. */
function intervalsOf<K extends string>(o: IntervalInputs<K>, resamples: number): BootstrapIntervals<K> {
  const method = o.settings.interval ?? "percentile";
  const studentize = method === "studentized" ? (o.standardErrors ?? {}) : undefined;
  const res = clusterBootstrap({
    clusters: o.clusters,
    seed: seedFor(o.settings, o.figure),
    resamples,
    statistics: studentize ? withStandardErrors(o.statistics, studentize) : o.statistics,
    accept: o.accept,
    // Studentized draws also evaluate standard errors, which read weights.
    ...(o.sums && !studentize ? { sums: o.sums } : {}),
  });
  const ci = {} as Record<K, [number, number]>;
  const mcSe = {} as Record<K, [number, number] | null>;
  const bca = method === "bca" ? bcaIntervals(o, res.draws) : undefined;
  const st = studentize ? studentizedFor(o, studentize, res.draws) : undefined;
  // The expanded interval is the percentile interval read at a wider nominal level (its endpoints'
  // Monte Carlo error is measured at that level too); with one cluster there is nothing to expand.
  // Studentized falls back to the expanded percentile interval for a statistic without a per-draw SE
  // (the better-covering of the SE-free intervals in `npm run coverage`), with an SE of 0 on the sample,
  // or whose t* quantiles are unbounded (draws with SE* = 0 beyond the estimate).
  const widen = (method === "expanded" || method === "studentized") && o.clusters >= 2;
  const level = widen ? expandedPercentileLevel(o.settings.level, o.clusters) : o.settings.level;
  const draws = {} as Record<K, Float64Array>;
  for (const name of Object.keys(o.statistics) as K[]) {
    draws[name] = res.draws[name];
    const own = st?.ci[name] ?? bca?.ci[name];
    const [lo, hi] = own ?? percentileCI(res.draws[name], level);
    ci[name] = [withoutResidue(lo), withoutResidue(hi)];
    mcSe[name] = own ? (st?.mcSe[name] ?? bca?.mcSe[name] ?? null) : endpointMcSe(res.draws[name], level);
  }
  const degenerate = degenerateStatistics(o, draws);
  const names = Object.keys(o.statistics);
  const bootstrap: BootstrapDescriptor = {
    estimator: estimatorNaming(o.estimator, method),
    resamples: res.resamples,
    seed: res.seed,
    level: o.settings.level,
    clusters: o.clusters,
    few_clusters: o.clusters < FEW_CLUSTERS,
    interval: method,
    ...(bca?.note ? { interval_note: bca.note } : {}),
    ...(method === "expanded" ? { interval_note: expandedNote(o.settings.level, level, o.clusters) } : {}),
    ...(st ? { interval_note: st.note } : {}),
    redrawn: res.redrawn,
    mc_se: largestMcSe(Object.values(mcSe) as ([number, number] | null)[]),
    ...(names.length > 1 ? { mc_se_by: { ...mcSe } } : {}),
    ...(degenerate.length ? { degenerate } : {}),
  };
  return { ci, mcSe, draws, bootstrap };
}

/**
 * The statistics whose every draw equals the estimate (the statistic on the sample, every weight 1). The
 * sample is evaluated only when some statistic's draws are all one value, which is rare.
 */
function degenerateStatistics<K extends string>(
  o: { statistics: Record<K, (w: Float64Array) => number>; clusters: number },
  draws: Record<K, Float64Array>,
): K[] {
  const names = Object.keys(o.statistics) as K[];
  const constant = names.filter((n) => draws[n].length > 0 && draws[n].every((x) => x === draws[n][0]));
  if (constant.length === 0) return [];
  const sample = evaluateInOrder(o.statistics, new Float64Array(o.clusters).fill(1));
  return constant.filter((n) => sample[n] === draws[n][0]);
}

/**
 * The estimator's text with the interval actually used: callers describe the default (percentile) one;
 * under another method "percentile" is replaced by its name, so the text never names an interval that
 * was not computed.
 */
export function estimatorNaming(estimator: string, method: IntervalMethod): string {
  if (method === "percentile") return estimator;
  const name: Record<Exclude<IntervalMethod, "percentile">, string> = {
    bca: "BCa (bias-corrected and accelerated, jackknife acceleration)",
    expanded: "expanded percentile (Hesterberg 2015)",
    studentized: "studentized (bootstrap-t where a per-draw SE exists, else expanded percentile)",
  };
  const replaced = estimator.replace(/(2-sided )?percentile/, name[method]);
  return replaced === estimator ? `${estimator}; ${name[method]} interval` : replaced;
}

/**
 * Every statistic on one weight vector, in the order given: a statistic may read work an earlier one
 * cached on the same weights (as clusterBootstrap evaluates them on each draw).
 */
function evaluateInOrder<K extends string>(
  statistics: Record<K, (w: Float64Array) => number>,
  w: Float64Array,
): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const n of Object.keys(statistics) as K[]) out[n] = statistics[n](w);
  return out;
}

/**
 * Studentized intervals for the statistics with a per-draw SE and a positive SE on the sample; the note
 * names those read as expanded percentile instead, and why.
 */
function studentizedFor<K extends string>(
  o: { statistics: Record<K, (w: Float64Array) => number>; clusters: number; settings: BootstrapSettings },
  standardErrors: Partial<Record<K, (w: Float64Array) => number>>,
  draws: Record<string, Float64Array>,
) {
  const names = Object.keys(o.statistics) as K[];
  const withSe = names.filter((n) => standardErrors[n] !== undefined);
  // θ̂ and SE on the sample (every weight 1), statistics first (they may share work).
  const ones = new Float64Array(o.clusters).fill(1);
  const sample = evaluateInOrder(o.statistics, ones);
  const sampleSe = {} as Record<K, number>;
  for (const n of withSe) sampleSe[n] = standardErrors[n]!(ones);
  const defined = withSe.filter((n) => sampleSe[n] > 0);
  const zeroSe = withSe.filter((n) => !(sampleSe[n] > 0));
  const r = studentizedIntervals(defined, sample, sampleSe, draws, o.settings.level);
  const studentized = defined.filter((n) => !r.unbounded.includes(n));
  const noSe = names.filter((n) => !withSe.includes(n));
  const parts = [
    studentized.length
      ? `studentized (bootstrap-t) for ${studentized.join(", ")}, SE recomputed on every draw` +
        undefinedTNote(studentized, r.undefinedT)
      : "",
    noSe.length ? `expanded percentile for ${noSe.join(", ")} (no per-draw standard error)` : "",
    zeroSe.length ? `expanded percentile for ${zeroSe.join(", ")} (standard error 0 on the sample: t undefined)` : "",
    r.unbounded.length
      ? `expanded percentile for ${r.unbounded.join(", ")} (bootstrap-t unbounded: too many draws with SE* = 0)`
      : "",
  ];
  return { ...r, note: parts.filter(Boolean).join("; ") };
}

function undefinedTNote<K extends string>(names: K[], undefinedT: Partial<Record<K, number>>): string {
  const left = names.filter((n) => undefinedT[n]);
  if (left.length === 0) return "";
  return ` (draws with SE* = 0 at the estimate left out of t*: ${left.map((n) => `${n} ${undefinedT[n]}`).join(", ")})`;
}

function expandedNote(nominal: number, level: number, clusters: number): string {
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  return (
    `expanded percentile (Hesterberg 2015): draws read at the ${pct((1 - level) / 2)} and ` +
    `${pct(1 - (1 - level) / 2)} quantiles for a nominal ${pct(nominal)} interval over ${clusters} clusters`
  );
}

function largestMcSe(all: ([number, number] | null)[]): [number, number] | null {
  const known = all.filter((x): x is [number, number] => x !== null);
  if (known.length === 0) return null;
  return [max(known, (x) => x[0])!, max(known, (x) => x[1])!];
}

/**
 * BCa endpoints per statistic: θ̂ on the sample (every weight 1) and the delete-one-cluster jackknife
 * (one weight 0), each weight vector evaluated through every statistic in order (they may share work).
 * A statistic whose BCa is undefined keeps its percentile interval, and the note says so. The endpoints'
 * Monte Carlo SE is BCa's own: each batch of draws recomputes its bias correction (intervalMcSe).
 */
function bcaIntervals<K extends string>(
  o: { clusters: number; settings: BootstrapSettings; statistics: Record<K, (w: Float64Array) => number> },
  draws: Record<K, Float64Array>,
): { ci: Partial<Record<K, [number, number]>>; mcSe: Partial<Record<K, [number, number] | null>>; note?: string } {
  const names = Object.keys(o.statistics) as K[];
  const full = evaluateInOrder(o.statistics, new Float64Array(o.clusters).fill(1));
  const jack = {} as Record<K, Float64Array>;
  for (const n of names) jack[n] = new Float64Array(o.clusters);
  for (let c = 0; c < o.clusters; c++) {
    const w = new Float64Array(o.clusters).fill(1);
    w[c] = 0;
    const v = evaluateInOrder(o.statistics, w);
    for (const n of names) jack[n][c] = v[n];
  }
  const ci: Partial<Record<K, [number, number]>> = {};
  const mcSe: Partial<Record<K, [number, number] | null>> = {};
  const fellBack: string[] = [];
  const level = o.settings.level;
  for (const name of names) {
    const r = bcaInterval(draws[name], full[name], jack[name], level);
    if (!r) {
      fellBack.push(name);
      continue;
    }
    ci[name] = r.ci;
    mcSe[name] = intervalMcSe(draws[name], (batch) => bcaInterval(batch, full[name], jack[name], level)?.ci ?? null);
  }
  const note = fellBack.length
    ? `BCa undefined for ${fellBack.join(", ")} ` +
      "(every draw on one side of the estimate, or < 2 jackknife values): percentile"
    : undefined;
  return { ci, mcSe, note };
}
