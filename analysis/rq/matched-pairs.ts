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
  const members: number[] = [];
  let unmatched_no_trial = 0;
  for (const [slot, t] of p.trajectories.entries()) {
    if (!isBinary(t) || (t.condition !== "none" && t.condition !== "curated")) continue;
    // Rule 12: matching is by trial index, so a trajectory without one has no partner.
    if (t.trial === null || t.trial === undefined) unmatched_no_trial++;
    else members.push(slot);
  }
  const order = cellOrder(p.trajectories, members);
  const pairs: MatchedPair[] = [];
  const slots: number[] = [];
  let unmatched = 0;
  let duplicate_trials = 0;
  // Cells in order, each one's trajectories in slot (trajectory_id) order: the first of each side is used.
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && order.cell[end] === order.cell[start]) end++;
    let noneSlot = -1;
    let curatedSlot = -1;
    for (let i = start; i < end; i++) {
      const slot = order.slot[i];
      const none = p.trajectories[slot].condition === "none";
      if ((none ? noneSlot : curatedSlot) >= 0) duplicate_trials++;
      else if (none) noneSlot = slot;
      else curatedSlot = slot;
    }
    start = end;
    if (noneSlot < 0 || curatedSlot < 0) {
      unmatched++;
      continue;
    }
    slots.push(noneSlot, curatedSlot);
    pairs.push(pairOf(p.trajectories[noneSlot], p.trajectories[curatedSlot]));
  }
  return { pairs, slots: Int32Array.from(slots), unmatched, duplicate_trials, unmatched_no_trial };
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

/** A cell's parts: task, harness, model, source (null matches null) and trial index. */
const CELL_PARTS: ((t: Trajectory) => string | number | null)[] = [
  (t) => t.task_id,
  (t) => t.harness,
  (t) => t.model,
  (t) => t.source ?? null,
  (t) => t.trial!,
];

/**
 * The member slots sorted by cell, then by slot, with each one's cell as a number. Cells are ordered as
 * their keys' text JSON.stringify([task, harness, model, source, trial]) in code-point order (the order
 * the pairs were always listed in), without building that text per trajectory (a million keys
 * and their sort took 5 s at 100× the paper). The texts compare as their first differing part does, each
 * part's JSON text followed by the character after it in the key ("," or the closing "]"): a JSON string
 * literal is never a proper prefix of another, and a number's can be ("1" of "10"), where the next
 * character decides. So each part's distinct values are ranked by that text, and a cell is its ranks'
 * mixed-radix number (tested against the text keys).
 */
export function cellOrder(
  trajectories: readonly Trajectory[],
  members: readonly number[],
  /** Where the parts' ranks stop being numbered (a test lowers it to reach the text keys). */
  limit = 2 ** 53 / Math.max(trajectories.length, 1),
) {
  const n = members.length;
  const N = trajectories.length;
  // cell · N + slot, one native sort: exact while below 2⁵³, else the cells are numbered by their texts.
  const cell = partRanks(trajectories, members, limit) ?? textRanks(trajectories, members);
  const keyed = new Float64Array(n);
  for (let i = 0; i < n; i++) keyed[i] = cell[i] * N + members[i];
  keyed.sort();
  const slot = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    slot[i] = keyed[i] % N;
    cell[i] = (keyed[i] - slot[i]) / N;
  }
  return { length: n, slot, cell };
}

/** Each member's cell as the mixed-radix number of its parts' ranks; undefined when they reach `limit`. */
function partRanks(trajectories: readonly Trajectory[], members: readonly number[], limit: number) {
  const n = members.length;
  const cell = new Float64Array(n);
  let radix = 1;
  for (const [j, part] of CELL_PARTS.entries()) {
    const codes = new Map<string | number | null, number>();
    const code = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = part(trajectories[members[i]]);
      let c = codes.get(v);
      if (c === undefined) codes.set(v, (c = codes.size));
      code[i] = c;
    }
    radix *= codes.size || 1;
    if (radix >= limit) return undefined;
    const next = j === CELL_PARTS.length - 1 ? "]" : ",";
    const rank = new Int32Array(codes.size);
    sortByCodePoints([...codes.keys()], (v) => JSON.stringify(v) + next).forEach((v, r) => {
      rank[codes.get(v)!] = r;
    });
    for (let i = 0; i < n; i++) cell[i] = cell[i] * (codes.size || 1) + rank[code[i]];
  }
  return cell;
}

/** Each member's cell as the rank of its key text among the distinct keys (the order the parts' ranks give). */
function textRanks(trajectories: readonly Trajectory[], members: readonly number[]): Float64Array {
  const keys = members.map((slot) => JSON.stringify(CELL_PARTS.map((part) => part(trajectories[slot]))));
  const rank = new Map(sortByCodePoints([...new Set(keys)], (k) => k).map((k, r) => [k, r]));
  return Float64Array.from(keys, (k) => rank.get(k)!);
}
