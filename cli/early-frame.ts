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
 *
 * With `onMethodScores`, in two steps: `onFrame` once every frame table but the method scores is read (its
 * tables may then lack them: the uplift rows need none), and `onMethodScores` with every frame table once
 * they are read too (at once when the folder has none, or had them read already).
 */
export function frameWatch(
  onFrame: (tables: FrameTables) => void,
  onMethodScores?: (tables: FrameTables) => void,
): (read: TableRead) => void {
  const readSoFar = new Set<TableName>();
  let stage: "frame" | "method scores" | "done" = "frame";
  return (read) => {
    if (stage === "done") return;
    if (!read.found.has("trajectories") || !read.found.has("tasks")) {
      stage = "done";
      return;
    }
    const frameTable = (FRAME_TABLES as readonly TableName[]).includes(read.table);
    if (frameTable && read.incomplete.has(read.table)) {
      stage = "done";
      return;
    }
    readSoFar.add(read.table);
    const present = FRAME_TABLES.filter((t) => read.found.has(t));
    if (stage === "frame") {
      const first = present.filter((t) => !onMethodScores || t !== "method_scores");
      if (!first.every((t) => readSoFar.has(t))) return;
      onFrame(frameTablesOf(read.tables()));
      if (!onMethodScores) {
        stage = "done";
        return;
      }
      stage = "method scores";
    }
    // The method scores may be read already, or absent: then the read that completed the frame completes them.
    if (!onMethodScores || !present.every((t) => readSoFar.has(t))) return;
    stage = "done";
    onMethodScores(frameTablesOf(read.tables()));
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
