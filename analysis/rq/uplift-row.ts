// One uplift row (a group's pass rates without and with skills, their difference and its interval: a
// task-clustered bootstrap, or score intervals for a single task's row) as a job: its columns in, its figures out.
import { shareAbove } from "../stats/bootstrap.js";
import { newcombePairedDifference } from "../stats/newcombe.js";
import { wilsonInterval } from "../stats/wilson.js";
import { ClusteredProportions, ratesOfSumsMany } from "../stats/clustered-proportion.js";
import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import type { UpliftColumns } from "./uplift-columns.js";

/** A 2 × 2 table of pairs (one configuration without and with skills); counts may be fractional. */
export interface UpliftPairs {
  both: number;
  only_curated: number;
  only_none: number;
  neither: number;
}

/** One uplift row as a job (analysis/rq/jobs.ts). */
export interface UpliftJob {
  kind: "uplift";
  group: string;
  columns: UpliftColumns;
  figure: string;
  unit: "task" | "configuration";
  settings: BootstrapSettings;
}

export interface UpliftRow {
  group: string;
  tasks: number;
  /** Matched (task, harness, model, source) cells in the group: only cells that ran both conditions enter. */
  cells: number;
  /** What the bootstrap resamples: tasks (overall, per domain, per model) or configurations (per task). */
  cluster_unit: "task" | "configuration";
  clusters: number;
  trials_none: number;
  passes_none: number;
  rate_none: number | null;
  rate_none_ci: [number, number] | null;
  trials_curated: number;
  passes_curated: number;
  rate_curated: number | null;
  rate_curated_ci: [number, number] | null;
  /**
   * Pass rate with curated skills − without over the matched cells, each cell weighted alike in both arms
   * (see `outcomePlan`); CI from the same clustered draws.
   */
  uplift: number | null;
  uplift_ci: [number, number] | null;
  positive_share: number | null;
  bootstrap: BootstrapDescriptor | null;
  /** Fewer than 10 clusters (contract rule 14): the intervals are shown, but their coverage falls below nominal. */
  few_clusters: boolean;
  /** Some interval of the row is a point (every draw equals the estimate; `bootstrap.degenerate` says which). */
  degenerate?: true;
  /** The per-task rows' intervals: score intervals, no draws ({@link SCORE_INTERVALS}); absent on bootstrapped rows. */
  interval?: string;
  /** A per-task row's configurations as pairs across the conditions ({@link configurationPairs}), whose table
   * gives the uplift's paired interval; absent on bootstrapped rows. */
  pairs?: UpliftPairs;
}

/**
 * How a per-task row's intervals are computed (issue 49.5: 8,700 rows at scale 100 drew bootstraps no reader
 * looked at): each pass rate's Wilson score interval and, for the uplift, Newcombe's interval for paired
 * proportions (analysis/stats/newcombe.ts), because each configuration ran both conditions (issue 55.4: the
 * independent-samples form ignored that pairing and was about 1.8× too wide on the demo). A configuration with
 * n₀ trials without and n₁ with skills adds m = (n₀ + n₁)/2 pairs, split over the 2 × 2 table as its two pass
 * rates would be if its trials were paired at random (m·p₁·p₀ both pass, m·p₁·(1 − p₀) only with skills, …):
 * with one trial a side that is the plain table of pairs, and its margins are the standardised rates. No draws.
 */
export const SCORE_INTERVALS =
  "Wilson score interval per pass rate; for the uplift, Newcombe's interval for paired proportions (1998b, method " +
  "10: square-and-add with the correlation of the pairs), each configuration paired with itself across the " +
  "conditions (a configuration of several trials a side adds (n₀ + n₁)/2 pairs, its trials paired at random in " +
  "expectation); no draws";

export const UPLIFT_ESTIMATOR =
  "pass rate per condition over the matched (task, harness, model, source) cells only (cells that ran both " +
  "conditions), each cell weighted by its mean trials per condition in both arms (direct standardisation; " +
  "= passes / trials when every matched cell holds as many trials in each condition); uplift = curated − none; " +
  "CIs resample tasks (2-sided percentile)";

/**
 * Pass rates without and with curated skills in one group, their uplift, and CIs: a bootstrap resampling tasks, or
 * for a single task's row (`unit` "configuration") score intervals without draws ({@link SCORE_INTERVALS}).
 */
export function upliftRow(o: {
  group: string;
  columns: UpliftColumns;
  figure: string;
  unit: "task" | "configuration";
  settings: BootstrapSettings;
}): UpliftRow {
  const { unit } = o;
  const { arm, pass, clusterOf, clusters, weight } = o.columns;
  const props = new ClusteredProportions(clusters);
  const a = { trials: 0, successes: 0 };
  const b = { trials: 0, successes: 0 };
  for (let i = 0; i < arm.length; i++) {
    const w = weight ? weight[i] : 1;
    props.add(arm[i], clusterOf[i], pass[i] * w, w);
    const counts = arm[i] === 0 ? a : b;
    counts.trials++;
    counts.successes += pass[i];
  }
  const ones = new Float64Array(clusters).fill(1);
  const rn = props.rate(0, ones);
  const rc = props.rate(1, ones);
  const row: UpliftRow = {
    group: o.group,
    tasks: o.columns.tasks,
    cells: o.columns.cells,
    cluster_unit: unit,
    clusters,
    trials_none: a.trials,
    passes_none: a.successes,
    rate_none: Number.isFinite(rn) ? rn : null,
    rate_none_ci: null,
    trials_curated: b.trials,
    passes_curated: b.successes,
    rate_curated: Number.isFinite(rc) ? rc : null,
    rate_curated_ci: null,
    uplift: Number.isFinite(rn) && Number.isFinite(rc) ? rc - rn : null,
    uplift_ci: null,
    positive_share: null,
    bootstrap: null,
    few_clusters: clusters < FEW_CLUSTERS,
  };
  if (unit === "configuration") return scoreIntervals(row, o.columns);
  if (clusters < 2 || row.uplift === null) return row;
  const r = new Float64Array(2);
  const res = bootstrapIntervals({
    settings: o.settings,
    figure: o.figure,
    clusters,
    estimator:
      `pass rate over matched cells (standardised; passes / trials when balanced); ${unit}-clustered ` +
      "percentile bootstrap (type-7); " +
      "uplift on the same draw",
    // Statistics run in the order given on each draw (clusterBootstrap): the first computes both rates once.
    statistics: { none: (w) => props.rates2(w, r)[0], curated: () => r[1], uplift: () => r[1] - r[0] },
    // The same three from each draw's successes and trials (faster than weights, the same values).
    sums: {
      table: props.sums2(),
      statistics: (t, count, out) =>
        ratesOfSumsMany(t, count, { rate0: out.none, rate1: out.curated, difference: out.uplift }),
    },
  });
  return {
    ...row,
    rate_none_ci: res.ci.none,
    rate_curated_ci: res.ci.curated,
    uplift_ci: res.ci.uplift,
    positive_share: shareAbove(res.draws.uplift),
    bootstrap: res.bootstrap,
    ...degenerateMark(res.bootstrap),
  };
}

/** A per-task row's intervals without draws (see {@link SCORE_INTERVALS}). */
function scoreIntervals(row: UpliftRow, columns: UpliftColumns): UpliftRow {
  if (row.rate_none === null || row.rate_curated === null) return row;
  const none = row.rate_none * row.trials_none;
  const curated = row.rate_curated * row.trials_curated;
  const pairs = configurationPairs(columns);
  return {
    ...row,
    rate_none_ci: wilsonInterval(none, row.trials_none),
    rate_curated_ci: wilsonInterval(curated, row.trials_curated),
    pairs,
    uplift_ci: newcombePairedDifference({
      both: pairs.both,
      onlyB: pairs.only_curated,
      onlyA: pairs.only_none,
      neither: pairs.neither,
    }),
    interval: SCORE_INTERVALS,
  };
}

/**
 * The 2 × 2 table of a task's configurations without (A) and with (B) skills ({@link SCORE_INTERVALS}): each
 * configuration adds m = (n₀ + n₁)/2 pairs split by the product of its two pass rates.
 */
export function configurationPairs(columns: UpliftColumns): UpliftPairs {
  const { arm, pass, clusterOf, clusters } = columns;
  const trials = new Float64Array(2 * clusters);
  const passes = new Float64Array(2 * clusters);
  for (let i = 0; i < arm.length; i++) {
    trials[2 * clusterOf[i] + arm[i]]++;
    passes[2 * clusterOf[i] + arm[i]] += pass[i];
  }
  const t: UpliftPairs = { both: 0, only_curated: 0, only_none: 0, neither: 0 };
  for (let c = 0; c < clusters; c++) {
    const [n0, n1] = [trials[2 * c], trials[2 * c + 1]];
    if (n0 === 0 || n1 === 0) continue;
    const m = (n0 + n1) / 2;
    const p0 = passes[2 * c] / n0;
    const p1 = passes[2 * c + 1] / n1;
    t.both += m * p1 * p0;
    t.only_curated += m * p1 * (1 - p0);
    t.only_none += m * (1 - p1) * p0;
    t.neither += m * (1 - p1) * (1 - p0);
  }
  return t;
}
