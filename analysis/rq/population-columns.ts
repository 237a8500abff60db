import type { Trajectory } from "../schema/tables.js";
import { compareCodePoints } from "../order.js";
import type { AucColumns } from "./common.js";
import { ScoreColumn, type ScoreLookup } from "./score-column.js";
import type { PreparedStore } from "./prepared.js";
import { keptColumn } from "../kept-columns.js";
import { denseRanksInto } from "../stats/ranks.js";

/**
 * A population of trajectories (RQ1's: the binary ones) with, per member, its slot in the prepared store
 * and its task's rank in code-point order. Every RQ1 job's columns are cut from it with integer work:
 * before, each of a dozen jobs looked up 2 M trajectory ids in a Map and numbered its tasks by sorting
 * their id strings (≈ 50 s at 100× the paper).
 */
export interface PopulationColumns {
  trajectories: Trajectory[];
  slots: Int32Array;
  taskRank: Int32Array;
  pass: Uint8Array;
  tasks: number;
  /** Each method's scores read into population order once (see `memberScores`). */
  scored: Map<ScoreLookup, MemberScores>;
  /** Scratch for `scoredColumns`' member list, reused by every call (one population, one thread). */
  members: Int32Array;
}

/** One method's score of every member (NaN when unscored) and whether it scored it. */
interface MemberScores {
  value: Float64Array;
  present: Uint8Array;
}

export function populationColumns(
  p: Pick<PreparedStore, "trajectories">,
  keep: (t: Trajectory) => boolean,
): PopulationColumns {
  // Members by position in the store's trajectories (its slots): no lookup of their ids.
  const memberSlots: number[] = [];
  for (let k = 0; k < p.trajectories.length; k++) if (keep(p.trajectories[k])) memberSlots.push(k);
  const size = memberSlots.length;
  const trajectories = memberSlots.map((k) => p.trajectories[k]);
  const ids = [...new Set(trajectories.map((t) => t.task_id))].sort(compareCodePoints);
  const rank = new Map(ids.map((id, r) => [id, r]));
  const pop = {
    trajectories,
    slots: keptColumn(Int32Array, size),
    taskRank: keptColumn(Int32Array, size),
    pass: keptColumn(Uint8Array, size),
    tasks: ids.length,
    scored: new Map(),
    members: keptColumn(Int32Array, size),
  };
  for (let i = 0; i < size; i++) {
    const t = trajectories[i];
    pop.slots[i] = memberSlots[i];
    pop.taskRank[i] = rank.get(t.task_id)!;
    pop.pass[i] = t.outcome === "PASS" ? 1 : 0;
  }
  return pop;
}

/**
 * A method's scores in population order, read once per method and population: the columns of a dozen
 * jobs are then cut with typed-array reads only (a lookup per member and job returned a boxed number
 * or undefined, ≈ 200 ns a member).
 */
function memberScores(pop: PopulationColumns, scores: ScoreLookup): MemberScores {
  const known = pop.scored.get(scores);
  if (known) return known;
  const size = pop.trajectories.length;
  const out = { value: keptColumn(Float64Array, size), present: keptColumn(Uint8Array, size) };
  for (let i = 0; i < size; i++) {
    const v =
      scores instanceof ScoreColumn && pop.slots[i] >= 0
        ? scores.atSlot(pop.slots[i])
        : scores.get(pop.trajectories[i].trajectory_id);
    if (v === undefined) continue;
    out.value[i] = v;
    out.present[i] = 1;
  }
  pop.scored.set(scores, out);
  return out;
}

/**
 * The members that `keep` selects and every method in `scores` scored, in population order: their
 * scores (one column per method), outcomes, and clusters numbered by task id in code-point order, as
 * `taskClusters` numbers them (the ranks are code-point ranks, so the same numbering).
 */
export function scoredColumns(
  pop: PopulationColumns,
  keep: (i: number) => boolean,
  scores: ScoreLookup[],
): { values: Float64Array[]; pass: Uint8Array; clusterOf: Int32Array; clusters: number } {
  // Two passes over typed arrays, no array per member: mark the members, then fill exact-size columns.
  const size = pop.trajectories.length;
  const sources = scores.map((s) => memberScores(pop, s));
  const members = pop.members;
  let count = 0;
  rows: for (let i = 0; i < size; i++) {
    if (!keep(i)) continue;
    for (const source of sources) if (source.present[i] === 0) continue rows;
    members[count++] = i;
  }
  const values = sources.map((source) => {
    const column = keptColumn(Float64Array, count);
    for (let k = 0; k < count; k++) column[k] = source.value[members[k]];
    return column;
  });
  const { dense: clusterOf, distinct: clusters } = denseRanks(pop.taskRank, members.subarray(0, count));
  // A plain loop: a typed array's `from` with a mapping function goes through the iterator protocol.
  const pass = keptColumn(Uint8Array, count);
  for (let k = 0; k < count; k++) pass[k] = pop.pass[members[k]];
  return { values, pass, clusterOf, clusters };
}

/** One method's AUC columns. */
export function aucColumnsOf(pop: PopulationColumns, keep: (i: number) => boolean, scores: ScoreLookup): AucColumns {
  const { values, pass, clusterOf, clusters } = scoredColumns(pop, keep, [scores]);
  return { scores: values[0], pass, clusterOf, clusters };
}

/**
 * The members' ranks renumbered 0, 1, … in rank order, and how many distinct ranks they hold: how a
 * subset's clusters are numbered from code-point ranks of the whole population, the numbering
 * `taskClusters` gives the subset's own keys.
 */
export function denseRanks(rank: Int32Array, members: Int32Array): { dense: Int32Array; distinct: number } {
  // Over the members' own rank range, not 0..top: a group of one task (the per-task uplift rows) then
  // costs its size, where 0..top made the 40,000 task rows of 100× the paper quadratic.
  const dense = keptColumn(Int32Array, members.length);
  return { dense, distinct: denseRanksInto(rank, members, dense) };
}
