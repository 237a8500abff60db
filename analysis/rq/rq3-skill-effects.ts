import { median } from "../stats/quantile.js";
import { roundTo12, thresholdShares } from "../stats/shares.js";
import { signTest } from "../stats/sign-test.js";
import { finite } from "../estimates/not-defined.js";
import { matchPairs, type MatchedPair } from "./matched-pairs.js";
import type { PreparedStore } from "./prepared.js";

/** Material change (paper §4.4): |Δ| > 0.10. */
export const MATERIAL_CHANGE = 0.1;
/** Test–retest noise floor of plain GCPC (paper §4.4). */
export const NOISE_FLOOR = 0.037;

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
  sign_test_p: number | null;
  positive: number;
  negative: number;
  zeros: number;
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
  transitions: TransitionSummary[];
  all: TransitionSummary;
  pairs: PairDelta[];
}

const TRANSITIONS: ["FAIL" | "PASS", "FAIL" | "PASS"][] = [
  ["FAIL", "FAIL"],
  ["FAIL", "PASS"],
  ["PASS", "FAIL"],
  ["PASS", "PASS"],
];

/** RQ3 (paper §4.4, Figure 5): Δ plain GCPC per matched pair, grouped by outcome transition. */
export function rq3SkillEffects(p: PreparedStore): Rq3Result {
  const { pairs, unmatched, duplicate_trials, unmatched_no_trial } = matchPairs(p);
  const scored: PairDelta[] = [];
  let excluded = 0;
  for (const pair of pairs) {
    const a = p.metrics.get(pair.without_id)!,
      b = p.metrics.get(pair.with_id)!;
    if (a.zero_evidence || b.zero_evidence) {
      excluded++;
      continue;
    }
    scored.push({
      ...pair,
      gcpc_without: a.gcpc,
      gcpc_with: b.gcpc,
      delta: roundTo12(b.gcpc - a.gcpc),
      transition: `${pair.without_outcome}→${pair.with_outcome}`,
    });
  }
  const transitions = TRANSITIONS.map(([from, to]) =>
    summarize(
      from,
      to,
      scored.filter((d) => d.without_outcome === from && d.with_outcome === to),
    ),
  );
  const noJudgments = !p.hasJudgments;
  return {
    available: !noJudgments,
    ...(noJudgments ? { reason: "the store holds no judgments (outcome-only store): Δ GCPC needs item labels" } : {}),
    estimator:
      "Δ = plain GCPC with − without; median (type-7); shares of Δ > +0.10 / < −0.10; " +
      "exact two-sided sign test on Δ ≠ 0",
    pairs_total: pairs.length,
    excluded_zero_evidence: excluded,
    unmatched,
    duplicate_trials,
    unmatched_no_trial,
    threshold: MATERIAL_CHANGE,
    noise_floor: NOISE_FLOOR,
    transitions,
    all: summarize("any", "any", scored),
    pairs: scored,
  };
}

function summarize(from: string, to: string, group: PairDelta[]): TransitionSummary {
  const deltas = group.map((d) => d.delta);
  const shares = thresholdShares(deltas, MATERIAL_CHANGE);
  const sign = signTest(deltas);
  const within = deltas.filter((d) => Math.abs(d) <= NOISE_FLOOR).length;
  return {
    from,
    to,
    group: `${from}→${to}`,
    n: group.length,
    median_delta: finite(median(deltas)),
    mean_delta: group.length ? deltas.reduce((s, d) => s + d, 0) / group.length : null,
    improved_share: finite(shares.above),
    regressed_share: finite(shares.below),
    within_noise_share: group.length ? within / group.length : null,
    sign_test_p: finite(sign.pValue),
    positive: sign.positive,
    negative: sign.negative,
    zeros: sign.zeros,
  };
}
