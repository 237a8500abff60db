import { median } from "../stats/quantile.js";
import { roundTo12, thresholdShares } from "../stats/shares.js";
import { signTest } from "../stats/sign-test.js";
import { finite } from "../estimates/not-defined.js";
import {
  bootstrapIntervals,
  degenerateMark,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { clusterSignTest } from "../stats/cluster-sign-test.js";
import { ClusteredQuantile } from "../stats/clustered-quantile.js";
import { benjaminiHochberg, holm } from "../stats/multiplicity.js";
import { estimatorNaming, FEW_CLUSTERS } from "../estimates/bootstrap-interval.js";
import { taskClusters } from "./common.js";
import { criterionEffects, type CriterionEffect } from "./criterion-effects.js";
import { noiseFloor, PAPER_NOISE_FLOOR, type NoiseFloor } from "./noise-floor.js";
import { matchPairs, type MatchedPair } from "./matched-pairs.js";
import type { PreparedStore } from "./prepared.js";
/** One transition group's intervals and clustered test as a job (analysis/rq/jobs.ts). */
export interface TransitionJob {
  kind: "transition";
  columns: TransitionColumns;
  settings: BootstrapSettings;
  figure: string;
}

/** Material change (paper §4.4): |Δ| > 0.10. */
export const MATERIAL_CHANGE = 0.1;
/** Test–retest noise floor of plain GCPC printed by the paper (§4.4). */
export const NOISE_FLOOR = PAPER_NOISE_FLOOR;

export interface PairDelta extends MatchedPair {
  gcpc_without: number;
  gcpc_with: number;
  /** Δ = GCPC_with − GCPC_without (plain), rounded to 12 decimals (rule 6). */
  delta: number;
  transition: string;
}

export interface TransitionSummary {
  from: string;
  to: string;
  group: string;
  n: number;
  median_delta: number | null;
  mean_delta: number | null;
  improved_share: number | null;
  regressed_share: number | null;
  within_noise_share: number | null;
  /** noise floor < |Δ| ≤ 0.10: beyond noise, not material. */
  between_share: number | null;
  /** |Δ| > 0.10 (improved + regressed). */
  material_share: number | null;
  /** The paper's test: exact sign test treating pairs as independent (iid). */
  sign_test_p: number | null;
  positive: number;
  negative: number;
  zeros: number;
  /** Tasks holding the group's pairs: the clusters of the intervals and of the clustered test. */
  tasks: number;
  few_clusters: boolean;
  /** Task-clustered percentile bootstrap intervals (pairs of one task resampled together). */
  median_delta_ci: [number, number] | null;
  improved_share_ci: [number, number] | null;
  regressed_share_ci: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
  /** Cluster-robust test of H₀ "signs symmetric within tasks" (analysis/stats/cluster-sign-test.ts). */
  clustered_sign_test_p: number | null;
  /** Holm and Benjamini–Hochberg adjustments of the clustered p over the four transition groups. */
  clustered_p_holm: number | null;
  clustered_p_bh: number | null;
}

export interface Rq3Result {
  /** False for stores without judgments: Δ GCPC needs item labels (then `reason` says so and the lists are empty). */
  available: boolean;
  reason?: string;
  estimator: string;
  pairs_total: number;
  /** Pairs dropped because either side is zero-evidence. */
  excluded_zero_evidence: number;
  unmatched: number;
  duplicate_trials: number;
  /** Trajectories without a trial index, never matched (contract rule 12). */
  unmatched_no_trial: number;
  threshold: number;
  noise_floor: number;
  noise_floor_source: NoiseFloor;
  transitions: TransitionSummary[];
  all: TransitionSummary;
  pairs: PairDelta[];
  /** Per checklist item across the FAIL→FAIL pairs: improved / regressed counts, exact McNemar p, BH q. */
  criteria_fail_fail: CriterionEffect[];
}

const TRANSITIONS: ["FAIL" | "PASS", "FAIL" | "PASS"][] = [
  ["FAIL", "FAIL"],
  ["FAIL", "PASS"],
  ["PASS", "FAIL"],
  ["PASS", "PASS"],
];

/** Why RQ3 has nothing to show on this store, if so; its result keeps every key either way. */
function unavailableReason(hasJudgments: boolean, pairs: number, scored: number): string | undefined {
  if (!hasJudgments) return "the store holds no judgments (outcome-only store): Δ GCPC needs item labels";
  if (pairs === 0)
    return (
      "no matched pair: no trial of a task ran both without (condition none) and with curated skills under " +
      "the same harness, model and source"
    );
  if (scored === 0)
    return `every one of the ${pairs} matched pairs has a zero-evidence side (all Abstain): no Δ is defined`;
  return undefined;
}

/** RQ3 (paper §4.4, Figure 5): Δ plain GCPC per matched pair, grouped by outcome transition. */
export function rq3SkillEffects(p: PreparedStore, settings: BootstrapSettings): Rq3Result {
  const plan = rq3Plan(p, settings);
  return plan.assemble(plan.jobs.map(transitionTests));
}

/**
 * RQ3 as jobs (analysis/rq/jobs.ts: each transition group's intervals and clustered sign test, the part
 * that resamples) and the function that builds the result from their results, in order: the report
 * starts the jobs on the other thread and computes RQ4 and RQ5 meanwhile.
 */
export function rq3Plan(
  p: PreparedStore,
  settings: BootstrapSettings,
): { jobs: TransitionJob[]; assemble: (results: readonly unknown[]) => Rq3Result } {
  const floor = noiseFloor(p);
  const { pairs, scored, excluded, unmatched, duplicate_trials, unmatched_no_trial } = scoredPairs(p);
  const floorValue = floor.value;
  // The four transition groups, then every pair.
  const groups = [
    ...TRANSITIONS.map(([from, to]) =>
      groupSummary(
        from,
        to,
        scored.filter((d) => d.without_outcome === from && d.with_outcome === to),
        floorValue,
      ),
    ),
    groupSummary("any", "any", scored, floorValue),
  ];
  const jobs: TransitionJob[] = groups.map((g) => ({
    kind: "transition",
    columns: g.columns,
    settings,
    figure: `rq3:${g.summary.from}-${g.summary.to}`,
  }));
  const criteria_fail_fail = criterionEffects(
    p,
    scored.filter((d) => d.transition === "FAIL→FAIL"),
  );
  const reason = unavailableReason(p.hasJudgments, pairs.length, scored.length);
  const assemble = (results: readonly unknown[]): Rq3Result => {
    const summaries = groups.map(
      (g, i): TransitionSummary => ({
        ...g.summary,
        ...(results[i] as TransitionTests),
        clustered_p_holm: null,
        clustered_p_bh: null,
      }),
    );
    return {
      available: reason === undefined,
      ...(reason === undefined ? {} : { reason }),
      estimator: estimatorNaming(
        "Δ = plain GCPC with − without; median (type-7); shares of Δ > +0.10 / < −0.10; " +
          "exact two-sided sign test on Δ ≠ 0 (iid, the paper's) and the exact task-clustered sign test (the signs " +
          "of a task flip together; Holm and BH over the four groups); CIs resample tasks (percentile)",
        settings.interval,
      ),
      pairs_total: pairs.length,
      excluded_zero_evidence: excluded,
      unmatched,
      duplicate_trials,
      unmatched_no_trial,
      threshold: MATERIAL_CHANGE,
      noise_floor: floor.value,
      noise_floor_source: floor,
      transitions: adjustFamily(summaries.slice(0, TRANSITIONS.length)),
      all: summaries[TRANSITIONS.length],
      criteria_fail_fail,
      pairs: scored,
    };
  };
  return { jobs, assemble };
}

/** The matched pairs, and the Δ of those whose sides both hold evidence (the others counted as excluded). */
function scoredPairs(p: PreparedStore) {
  const { pairs, slots, unmatched, duplicate_trials, unmatched_no_trial } = matchPairs(p);
  const scored: PairDelta[] = [];
  let excluded = 0;
  for (const [k, pair] of pairs.entries()) {
    // By slot: no lookup of either id (2 M lookups at 100× the paper).
    const a = p.metrics.atSlot(slots[2 * k]),
      b = p.metrics.atSlot(slots[2 * k + 1]);
    if (a.zero_evidence || b.zero_evidence) {
      excluded++;
      continue;
    }
    // The pair's fields written out (same order as a spread, so the same JSON): a spread copies through
    // the generic path, a literal builds one shape for a million pairs.
    scored.push({
      pair_id: pair.pair_id,
      task_id: pair.task_id,
      harness: pair.harness,
      model: pair.model,
      source: pair.source,
      trial: pair.trial,
      without_id: pair.without_id,
      with_id: pair.with_id,
      without_outcome: pair.without_outcome,
      with_outcome: pair.with_outcome,
      gcpc_without: a.gcpc,
      gcpc_with: b.gcpc,
      delta: roundTo12(b.gcpc - a.gcpc),
      transition: `${pair.without_outcome}→${pair.with_outcome}`,
    });
  }
  return { pairs, scored, excluded, unmatched, duplicate_trials, unmatched_no_trial };
}

/** The part of a group's summary that draws nothing, in the summary's field order, and its job's columns. */
function groupSummary(from: string, to: string, group: PairDelta[], floor: number) {
  const deltas = group.map((d) => d.delta);
  const shares = thresholdShares(deltas, MATERIAL_CHANGE);
  const sign = signTest(deltas);
  const within = deltas.filter((d) => Math.abs(d) <= floor).length;
  const material = deltas.filter((d) => Math.abs(d) > MATERIAL_CHANGE).length;
  const share = (k: number) => (group.length ? k / group.length : null);
  const { clusterOf, clusters } = taskClusters(group.map((d) => d.task_id));
  const summary = {
    from,
    to,
    group: `${from}→${to}`,
    n: group.length,
    median_delta: finite(median(deltas)),
    mean_delta: group.length ? deltas.reduce((s, d) => s + d, 0) / group.length : null,
    improved_share: finite(shares.above),
    regressed_share: finite(shares.below),
    within_noise_share: share(within),
    between_share: share(group.length - within - material),
    material_share: share(material),
    sign_test_p: finite(sign.pValue),
    positive: sign.positive,
    negative: sign.negative,
    zeros: sign.zeros,
    tasks: clusters,
    few_clusters: clusters < FEW_CLUSTERS,
  };
  return { summary, columns: { deltas: Float64Array.from(deltas), clusterOf, clusters } };
}

/** A transition group's Δ per pair and the dense task cluster of each: what its job carries. */
export interface TransitionColumns {
  deltas: Float64Array;
  clusterOf: Int32Array;
  clusters: number;
}

/** What a transition group's job computes: its task-clustered intervals and clustered sign test. */
export interface TransitionTests {
  median_delta_ci: [number, number] | null;
  improved_share_ci: [number, number] | null;
  regressed_share_ci: [number, number] | null;
  /** Each interval's own endpoint Monte Carlo SE [lower, upper] (batch means), not the largest of the three. */
  median_delta_ci_mc_se: [number, number] | null;
  improved_share_ci_mc_se: [number, number] | null;
  regressed_share_ci_mc_se: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
  /** Some interval of the row is a point (every draw equals the estimate; `bootstrap.degenerate` says which). */
  degenerate?: true;
  clustered_sign_test_p: number | null;
}

export function transitionTests(job: {
  columns: TransitionColumns;
  settings: BootstrapSettings;
  figure: string;
  /** What counts as improved or regressed: |Δ| beyond it (RQ3: the paper's 0.10; compare: the noise floor). */
  threshold?: number;
}): TransitionTests {
  const { deltas, clusterOf, clusters } = job.columns;
  return {
    ...transitionIntervals(deltas, clusterOf, clusters, job.settings, job.figure, job.threshold ?? MATERIAL_CHANGE),
    clustered_sign_test_p: finite(clusterSignTest(deltas, clusterOf).pValue),
  };
}

/** Task-clustered bootstrap intervals of the median Δ and the improved / regressed shares (same draws). */
function transitionIntervals(
  deltas: Float64Array,
  clusterOf: Int32Array,
  clusters: number,
  settings: BootstrapSettings,
  figure: string,
  threshold: number,
) {
  const none = {
    median_delta_ci: null,
    improved_share_ci: null,
    regressed_share_ci: null,
    median_delta_ci_mc_se: null,
    improved_share_ci_mc_se: null,
    regressed_share_ci_mc_se: null,
    bootstrap: null,
  };
  if (clusters < 2) return none;
  const q = new ClusteredQuantile(deltas, clusterOf, 0.5);
  // Per-cluster counts, so a draw costs O(clusters) rather than O(pairs): a share is
  // Σ_c w_c·hits_c / Σ_c w_c·n_c, the same sum regrouped by cluster. Both shares come from one pass
  // (statistics run in the order given on each draw, so `regressed` reads what `improved` computed).
  const size = new Float64Array(clusters);
  const up = new Float64Array(clusters);
  const down = new Float64Array(clusters);
  for (let i = 0; i < deltas.length; i++) {
    size[clusterOf[i]]++;
    if (deltas[i] > threshold) up[clusterOf[i]]++;
    if (deltas[i] < -threshold) down[clusterOf[i]]++;
  }
  const shares = new Float64Array(2);
  const bothShares = (w: Float64Array) => sharesOfDraw(w, { size, up, down }, shares);
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator:
      threshold === MATERIAL_CHANGE
        ? "median Δ (type-7) and shares of Δ > +0.10 / < −0.10 on the same task-clustered draw; percentile"
        : `median Δ (type-7) and shares of Δ > +${threshold.toFixed(4)} / < −${threshold.toFixed(4)} on the same ` +
          "task-clustered draw; percentile",
    statistics: {
      median: (w) => q.evaluateDraw(w),
      improved: bothShares,
      regressed: () => shares[1],
    },
  });
  return {
    median_delta_ci: res.ci.median,
    improved_share_ci: res.ci.improved,
    regressed_share_ci: res.ci.regressed,
    median_delta_ci_mc_se: res.mcSe.median,
    improved_share_ci_mc_se: res.mcSe.improved,
    regressed_share_ci_mc_se: res.mcSe.regressed,
    bootstrap: res.bootstrap,
    ...degenerateMark(res.bootstrap),
  };
}

/** The four transition groups are one family: Holm and BH adjust their clustered p-values together. */
function adjustFamily(groups: TransitionSummary[]): TransitionSummary[] {
  const ps = groups.map((g) => g.clustered_sign_test_p);
  const h = holm(ps);
  const bh = benjaminiHochberg(ps);
  return groups.map((g, i) => ({ ...g, clustered_p_holm: h[i], clustered_p_bh: bh[i] }));
}

/**
 * The improved and regressed shares of a draw into out[0], out[1] (NaN when the draw holds no pair),
 * returning the first. A function of its arguments rather than a closure over the columns: V8 keeps
 * them in registers through the loop (the closure's loop cost several times as much).
 */
function sharesOfDraw(
  w: Float64Array,
  columns: { size: Float64Array; up: Float64Array; down: Float64Array },
  out: Float64Array,
): number {
  const { size, up, down } = columns;
  let all = 0;
  let improved = 0;
  let regressed = 0;
  for (let c = 0; c < size.length; c++) {
    const x = w[c];
    all += x * size[c];
    improved += x * up[c];
    regressed += x * down[c];
  }
  out[0] = all > 0 ? improved / all : NaN;
  out[1] = all > 0 ? regressed / all : NaN;
  return out[0];
}
