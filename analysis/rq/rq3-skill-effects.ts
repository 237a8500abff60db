import { median } from "../stats/quantile.js";
import { thresholdShares } from "../stats/shares.js";
import { signTest } from "../stats/sign-test.js";
import { finite, withoutResidue } from "../estimates/not-defined.js";
import type { BootstrapDescriptor, BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { benjaminiHochberg, holm } from "../stats/multiplicity.js";
import { estimatorNaming, FEW_CLUSTERS } from "../estimates/bootstrap-interval.js";
import { criterionEffects, type CriterionEffect } from "./criterion-effects.js";
import { noiseFloor, PAPER_NOISE_FLOOR, type NoiseFloor } from "./noise-floor.js";
import { skillComparison, type MatchedPair } from "./matched-pairs.js";
import type { PreparedStore } from "./prepared.js";
import {
  MATERIAL_CHANGE,
  transitionColumns,
  transitionTests,
  TRANSITIONS,
  type PairOutcome,
  type TransitionColumns,
  type TransitionTests,
} from "./arms/transition-tests.js";
/** One transition group's intervals and clustered test as a job (analysis/rq/jobs.ts). */
export interface TransitionJob {
  kind: "transition";
  columns: TransitionColumns;
  settings: BootstrapSettings;
  figure: string;
}

export {
  MATERIAL_CHANGE,
  transitionTests,
  type TransitionColumns,
  type TransitionTests,
} from "./arms/transition-tests.js";
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
  const {
    pairs,
    scored,
    excluded,
    unmatched,
    duplicate_trials,
    unmatched_no_trial,
    groups: transitions,
    all,
  } = scoredPairs(p);
  const floorValue = floor.value;
  // The four transition groups (the grouping gcpc compare uses: analysis/rq/arms/transition-tests.ts), then
  // every pair.
  const groups = [
    ...transitions.map((g) => groupSummary(g.from, g.to, g.scored, floorValue)),
    groupSummary("any", "any", all, floorValue),
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

/**
 * The matched pairs and the Δ of those whose sides both hold evidence (the others counted as excluded): the
 * comparison verb with the paper's options (analysis/rq/matched-pairs.ts, skillComparison), whose Δ per pair
 * (rounded to 12 decimals) and transition groups RQ3 reads as they are.
 */
function scoredPairs(p: PreparedStore) {
  const { report, compared } = skillComparison(p);
  const { pairs, slots, unmatched, duplicate_trials, unmatched_no_trial } = report;
  const scored: PairDelta[] = [];
  let excluded = 0;
  for (const [k, pair] of pairs.entries()) {
    const delta = compared.outcomes[k].delta;
    if (!Number.isFinite(delta)) {
      excluded++;
      continue;
    }
    // By slot: no lookup of either id (2 M lookups at 100× the paper).
    const a = p.metrics.evidencedGcpcAt(slots[2 * k]);
    const b = p.metrics.evidencedGcpcAt(slots[2 * k + 1]);
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
      gcpc_without: a,
      gcpc_with: b,
      delta,
      transition: `${pair.without_outcome}→${pair.with_outcome}`,
    });
  }
  // Every scored pair in pair order (the "any" group: its tasks are numbered in that order, as its draws read them).
  const all = compared.outcomes.filter((x) => Number.isFinite(x.delta));
  return { pairs, scored, excluded, unmatched, duplicate_trials, unmatched_no_trial, groups: compared.groups, all };
}

/** The part of a group's summary that draws nothing, in the summary's field order, and its job's columns. */
function groupSummary(from: string, to: string, group: readonly PairOutcome[], floor: number) {
  const deltas = group.map((d) => d.delta);
  const shares = thresholdShares(deltas, MATERIAL_CHANGE);
  const sign = signTest(deltas);
  const within = deltas.filter((d) => Math.abs(d) <= floor).length;
  const material = deltas.filter((d) => Math.abs(d) > MATERIAL_CHANGE).length;
  const share = (k: number) => (group.length ? k / group.length : null);
  const columns = transitionColumns(group);
  const clusters = columns.clusters;
  const summary = {
    from,
    to,
    group: `${from}→${to}`,
    n: group.length,
    median_delta: finite(median(deltas)),
    mean_delta: group.length ? withoutResidue(deltas.reduce((s, d) => s + d, 0) / group.length) : null,
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
  return { summary, columns };
}

/** The four transition groups are one family: Holm and BH adjust their clustered p-values together. */
function adjustFamily(groups: TransitionSummary[]): TransitionSummary[] {
  const ps = groups.map((g) => g.clustered_sign_test_p);
  const h = holm(ps);
  const bh = benjaminiHochberg(ps);
  return groups.map((g, i) => ({ ...g, clustered_p_holm: h[i], clustered_p_bh: bh[i] }));
}
