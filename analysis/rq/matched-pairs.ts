import type { Trajectory } from "../schema/tables.js";
import { sortByCodePoints } from "../order.js";
import { isBinary, type PreparedStore } from "./prepared.js";

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
  /** Binary, deduplicated none/curated trajectories that found no partner of the same trial index. */
  unmatched: number;
  /** Extra trajectories sharing one cell and trial index on one side (first by id kept). */
  duplicate_trials: number;
  /** Binary none/curated trajectories without a trial index: never matched (contract rule 12). */
  unmatched_no_trial: number;
}

/**
 * Matched with/without-skill pairs (contract "Matched pair", rule 6): same
 * task, harness, model and source (null matches null), condition `none` vs
 * `curated`, paired by trial index; self-generated and non-binary excluded;
 * unmatched trials dropped; trajectories without a trial index are never matched and are
 * counted as `unmatched_no_trial` (rule 12). When one side has two trajectories with the same
 * trial index, the first by trajectory_id is used and the rest are counted.
 */
export function matchPairs(p: PreparedStore): PairingReport {
  const sides = new Map<string, { none?: Trajectory; curated?: Trajectory; noneSlot?: number; curatedSlot?: number }>();
  let duplicate_trials = 0,
    unmatched_no_trial = 0;
  for (const [slot, t] of p.trajectories.entries()) {
    // already in code-point order
    if (!isBinary(t) || (t.condition !== "none" && t.condition !== "curated")) continue;
    // Rule 12: matching is by trial index, so a trajectory without one has no partner.
    if (t.trial === null || t.trial === undefined) {
      unmatched_no_trial++;
      continue;
    }
    const key = JSON.stringify([t.task_id, t.harness, t.model, t.source ?? null, t.trial]);
    let cell = sides.get(key);
    if (!cell) sides.set(key, (cell = {}));
    if (cell[t.condition]) duplicate_trials++;
    else if (t.condition === "none") [cell.none, cell.noneSlot] = [t, slot];
    else [cell.curated, cell.curatedSlot] = [t, slot];
  }
  const pairs: MatchedPair[] = [];
  const slots: number[] = [];
  let unmatched = 0;
  const keys = sortByCodePoints([...sides.keys()], (k) => k);
  for (const key of keys) {
    const { none, curated, noneSlot, curatedSlot } = sides.get(key)!;
    if (!none || !curated) {
      unmatched++;
      continue;
    }
    slots.push(noneSlot!, curatedSlot!);
    pairs.push({
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
    });
  }
  return { pairs, slots: Int32Array.from(slots), unmatched, duplicate_trials, unmatched_no_trial };
}
