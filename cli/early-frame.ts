import type { StoreFrame } from "../analysis/schema/store.js";
import { TABLE_NAMES, type TableName } from "../analysis/schema/tables.js";
import { FRAME_FIELDS, type FrameTables } from "../analysis/rq/trajectory-frame.js";
import type { TableRead } from "../store/read-options.js";

/** The tables a trajectory frame is built from (its fields that are tables): none holds a judgment. */
const FRAME_TABLES = FRAME_FIELDS.filter((f): f is (typeof FRAME_FIELDS)[number] & TableName =>
  (TABLE_NAMES as readonly string[]).includes(f),
);

/**
 * A store read's `onTableRead` that calls `onFrame` once, when every frame table the folder holds is read
 * without a problem: the analyses that need no judgment can start on the other thread while the judgments
 * are still being read. Nothing is called when a frame table had a problem, or when the folder lacks
 * trajectories or tasks (the store is then invalid: both are required).
 */
export function frameWatch(onFrame: (tables: FrameTables) => void): (read: TableRead) => void {
  let waiting: Set<TableName> | undefined;
  let done = false;
  return (read) => {
    if (done) return;
    if (!read.found.has("trajectories") || !read.found.has("tasks")) {
      done = true;
      return;
    }
    waiting ??= new Set(FRAME_TABLES.filter((t) => read.found.has(t)));
    if (!waiting.delete(read.table)) return;
    if (read.incomplete.has(read.table)) done = true;
    else if (waiting.size === 0) {
      done = true;
      onFrame(frameTablesOf(read.tables()));
    }
  };
}

/** The frame's fields of the tables read (method scores as rows or as columns, the id order if computed). */
function frameTablesOf(t: Partial<StoreFrame>): FrameTables {
  return {
    trajectories: t.trajectories!,
    tasks: t.tasks!,
    method_scores: t.method_scores,
    method_score_columns: t.method_score_columns,
    verifier_results: t.verifier_results,
    trajectory_order: t.trajectory_order,
  };
}
