import type { Trajectory } from "../schema/tables.js";
import { compareCodePoints } from "../order.js";
import type { AucColumns } from "./common.js";
import { ScoreColumn, type ScoreLookup } from "./score-column.js";
import type { PreparedStore } from "./prepared.js";

/**
 * A population of trajectories (RQ1's: the binary ones) with, per member, its slot in the prepared store
 * and its task's rank in code-point order. Every RQ1 job's columns are cut from it with integer work:
 * before, each of a dozen jobs looked up 2 M trajectory ids in a Map and numbered its tasks by sorting
 * their id strings (≈ 50 s at 100× the paper, issue 10).
 */
export interface PopulationColumns {
  trajectories: Trajectory[];
  slots: Int32Array;
  taskRank: Int32Array;
  pass: Uint8Array;
  tasks: number;
}

export function populationColumns(p: PreparedStore, trajectories: Trajectory[]): PopulationColumns {
  const ids = [...new Set(trajectories.map((t) => t.task_id))].sort(compareCodePoints);
  const rank = new Map(ids.map((id, r) => [id, r]));
  return {
    trajectories,
    slots: Int32Array.from(trajectories, (t) => p.slots.get(t.trajectory_id) ?? -1),
    taskRank: Int32Array.from(trajectories, (t) => rank.get(t.task_id)!),
    pass: Uint8Array.from(trajectories, (t) => (t.outcome === "PASS" ? 1 : 0)),
    tasks: ids.length,
  };
}

/** A member's score, or undefined when the method did not score it. */
function scoreOf(pop: PopulationColumns, scores: ScoreLookup, i: number): number | undefined {
  return scores instanceof ScoreColumn && pop.slots[i] >= 0
    ? scores.atSlot(pop.slots[i])
    : scores.get(pop.trajectories[i].trajectory_id);
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
  const members: number[] = [];
  const values: number[][] = scores.map(() => []);
  for (let i = 0; i < pop.trajectories.length; i++) {
    if (!keep(i)) continue;
    const row = scores.map((s) => scoreOf(pop, s, i));
    if (row.some((v) => v === undefined)) continue;
    members.push(i);
    for (const [m, v] of row.entries()) values[m].push(v!);
  }
  const cluster = new Int32Array(pop.tasks).fill(-1);
  for (const i of members) cluster[pop.taskRank[i]] = 0;
  let clusters = 0;
  for (let r = 0; r < pop.tasks; r++) if (cluster[r] === 0) cluster[r] = clusters++;
  return {
    values: values.map((v) => Float64Array.from(v)),
    pass: Uint8Array.from(members, (i) => pop.pass[i]),
    clusterOf: Int32Array.from(members, (i) => cluster[pop.taskRank[i]]),
    clusters,
  };
}

/** One method's AUC columns. */
export function aucColumnsOf(pop: PopulationColumns, keep: (i: number) => boolean, scores: ScoreLookup): AucColumns {
  const { values, pass, clusterOf, clusters } = scoredColumns(pop, keep, [scores]);
  return { scores: values[0], pass, clusterOf, clusters };
}
