import type { TrajectoryOrder } from "../../analysis/schema/trajectory-order.js";
import type { Trajectory } from "../../analysis/schema/tables.js";
import type { ClickhouseConnection } from "./connection.js";
import { ROW_COLUMN } from "./table-layout.js";
import { leastRankOfEachText } from "./least-rank-of-each-text.js";

/**
 * The store's trajectories in id order, as their `_row`s, sorted by the server: a folder's read has DuckDB sort them
 * (store/trajectory-reference.ts trajectoryOrderFromFile), and at scale 100 the analyses' own sort of the ids took
 * the main thread 1.6 s more on a ClickHouse store than on its folder. ClickHouse compares strings byte by byte,
 * and UTF-8's byte order is code-point order, the order `analysis/order.ts` sorts ids in. Four bytes a trajectory.
 * The log_hash deduplication (paper §4.1) is then decided here from the ranks this order gives (trajectoryOrderOf):
 * the server's join of every log_hash to its least id took 1.5 s of its CPU at scale 100, against 0.2 s for the
 * sort alone.
 */
export function trajectoryIdOrderSql(db: string): string {
  return `SELECT toUInt32(${ROW_COLUMN}) AS r FROM ${db}.trajectories ORDER BY trajectory_id`;
}

/**
 * From the `_row`s in id order (trajectoryIdOrderSql's answer) and the trajectories in store order (every row valid,
 * `positionOf` each `_row`'s place among them): whether the ids are distinct (equal ids are neighbours in that
 * order) and, when they are, the order, each log_hash kept on its trajectory of least id (the first in id order).
 * Undefined when the answer names another set of rows.
 */
export function trajectoryOrderOf(
  body: Buffer,
  trajectories: readonly Trajectory[],
  positionOf: (row: number) => number | undefined,
): { idsUnique: boolean; order?: TrajectoryOrder } | undefined {
  const n = trajectories.length;
  if (body.length !== 4 * n) return undefined;
  const rank = new Int32Array(n).fill(-1);
  const byRank = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const at = positionOf(body.readUInt32LE(4 * k));
    if (at === undefined || rank[at] !== -1) return undefined;
    rank[at] = k;
    byRank[k] = at;
  }
  for (let k = 1; k < n; k++)
    if (trajectories[byRank[k]].trajectory_id === trajectories[byRank[k - 1]].trajectory_id)
      return { idsUnique: false };
  const kept = leastRankOfEachText(n, (p) => trajectories[p].log_hash, rank);
  return { idsUnique: true, order: { rank, kept } };
}

/** The order's answer, asked for at once (it is dropped when the trajectories turn out not to allow it). */
export function startTrajectoryOrder(conn: ClickhouseConnection, db: string): Promise<Buffer | undefined> {
  return conn.binaryBody(trajectoryIdOrderSql(db)).catch(() => undefined);
}
