import type { Trajectory } from "../schema/tables.js";
import type { Selector } from "./arms/arm-pairs.js";
import { comparePairs, type ComparedPairs } from "./arms/compare-pairs.js";
import { preparedArmView } from "./arms/arm-view.js";
import type { PreparedStore } from "./prepared.js";

export interface MatchedPair {
  pair_id: string;
  task_id: string;
  harness: string;
  model: string;
  source: string | null;
  trial: number | null;
  without_id: string;
  with_id: string;
  without_outcome: "PASS" | "FAIL";
  with_outcome: "PASS" | "FAIL";
}

export interface PairingReport {
  pairs: MatchedPair[];
  /** Slots (positions in the prepared store's trajectories) of each pair's two sides: without at 2k, with at 2k + 1. */
  slots: Int32Array;
  /** Cells (task, harness, model, source, trial) holding binary none/curated trajectories of one side only. */
  unmatched: number;
  /** Extra trajectories sharing one cell and trial index on one side (first by id kept). */
  duplicate_trials: number;
  /** Binary none/curated trajectories without a trial index: never matched (contract rule 12). */
  unmatched_no_trial: number;
}

/** RQ3's two arms: without skill against the curated skill (paper §4.3). */
export const SKILL_ARMS: { a: Selector; b: Selector } = { a: { condition: "none" }, b: { condition: "curated" } };

/**
 * Matched with/without-skill pairs (contract "Matched pair", rule 6): `gcpc compare`'s trial pairing of
 * condition `none` against `curated` ({@link pairArms}, the same call): same task, harness, model and source
 * (null matches null), paired by trial index; self-generated and non-binary excluded; unmatched trials
 * dropped; trajectories without a trial index are never matched and are counted as `unmatched_no_trial`
 * (rule 12). When one side has two trajectories with the same trial index, the first by trajectory_id is used
 * and the rest are counted.
 */
export function matchPairs(p: PreparedStore): PairingReport {
  // The pairs alone: no score is read (a store being matched need not be scored).
  return skillComparison(p, () => NaN).report;
}

/**
 * RQ3's comparison: the comparison verb (analysis/rq/arms/compare-pairs.ts) with the paper's options — a =
 * condition none, b = curated, trial pairing, plain GCPC with zero-evidence sides left out, Δ rounded to 12
 * decimals — and the pairs in RQ3's shape. RQ3 adds its columns (noise classes, the iid sign test, Holm/BH).
 */
export function skillComparison(
  p: PreparedStore,
  score: (slot: number) => number = (k) => p.metrics.evidencedGcpcAt(k),
): { report: PairingReport; compared: ComparedPairs } {
  const compared = comparePairs(preparedArmView(p), SKILL_ARMS, {
    pair: "trial",
    selfPairs: false,
    requireBothSides: false,
    outcome: (k) => p.trajectories[k].outcome as "PASS" | "FAIL",
    score,
    roundDelta: true,
  });
  // The two conditions cannot both match one trajectory.
  if ("available" in compared) throw new Error(compared.reason);
  const r = compared.built;
  const slots = new Int32Array(2 * r.pairs.length);
  const pairs = r.pairs.map((x, k) => {
    slots[2 * k] = x.a[0];
    slots[2 * k + 1] = x.b[0];
    return pairOf(p.trajectories[x.a[0]], p.trajectories[x.b[0]]);
  });
  return {
    report: {
      pairs,
      slots,
      unmatched: r.unmatched.cells,
      duplicate_trials: r.duplicates,
      unmatched_no_trial: r.noTrial,
    },
    compared,
  };
}

function pairOf(none: Trajectory, curated: Trajectory): MatchedPair {
  return {
    pair_id: `${none.trajectory_id}|${curated.trajectory_id}`,
    task_id: none.task_id,
    harness: none.harness,
    model: none.model,
    source: none.source ?? null,
    trial: none.trial ?? null,
    without_id: none.trajectory_id,
    with_id: curated.trajectory_id,
    without_outcome: none.outcome as "PASS" | "FAIL",
    with_outcome: curated.outcome as "PASS" | "FAIL",
  };
}
