import type { MethodScore } from "./tables.js";

/**
 * The method_scores table of a store read from disk, as columns: a row per trajectory and
 * method, 1.5 M at scale 100 and 6.5 M at 100× the paper, had been an object each (≈ 70 bytes of heap).
 * Row k scores the trajectory at position `trajectory[k]` of the store's `trajectories` with method
 * `methods[method[k]]`; rows are in file order, methods in order of first appearance.
 */
export interface MethodScoreColumns {
  length: number;
  trajectory: Int32Array;
  method: Int32Array;
  methods: string[];
  score: Float64Array;
}

/**
 * Every method score row of a store, whichever form it holds them in (rows built in memory, columns
 * read from disk), as rows in file order: for callers that want rows of a small store (tests, exports).
 */
export function methodScoreRows(store: {
  trajectories: readonly { trajectory_id: string }[];
  method_scores?: MethodScore[];
  method_score_columns?: MethodScoreColumns;
}): MethodScore[] | undefined {
  const c = store.method_score_columns;
  if (!c) return store.method_scores;
  const rows: MethodScore[] = new Array(c.length);
  for (let k = 0; k < c.length; k++)
    rows[k] = {
      trajectory_id: store.trajectories[c.trajectory[k]].trajectory_id,
      method: c.methods[c.method[k]],
      score: c.score[k],
    };
  return rows;
}
