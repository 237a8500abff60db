import type { TrajectoryOrder } from "../../analysis/schema/trajectory-order.js";
import type { ClickhouseConnection } from "./connection.js";
import { binaryColumn, Cursor } from "./row-binary.js";
import { ROW_COLUMN } from "./table-layout.js";

/**
 * The store's trajectories in id order with the log_hash deduplication (paper §4.1) decided, computed by the
 * server, as a folder's read computes it in DuckDB (store/trajectory-reference.ts trajectoryOrderFromFile): at
 * scale 100 the analyses' own sort of the ids and Set of hashes took the main thread 1.6 s more on a ClickHouse
 * store than on its folder. ClickHouse compares strings byte by byte, and UTF-8's byte order is code-point order,
 * the order `analysis/order.ts` sorts ids in. A log_hash keeps its trajectory of least id. Five bytes a trajectory.
 */
export function trajectoryOrderSql(db: string): string {
  const key = "ifNull(concat('h', log_hash), '')";
  return `SELECT toUInt32(${ROW_COLUMN}) AS r, toUInt8(k = '' OR trajectory_id = least_id) AS kept FROM (
      SELECT ${ROW_COLUMN}, trajectory_id, ${key} AS k FROM ${db}.trajectories)
    ANY LEFT JOIN (
      SELECT ${key} AS k, min(trajectory_id) AS least_id FROM ${db}.trajectories WHERE log_hash IS NOT NULL
      GROUP BY k) USING (k)
    ORDER BY trajectory_id`;
}

const [R, KEPT] = [binaryColumn("r", "UInt32"), binaryColumn("kept", "UInt8")];

/**
 * The order from trajectoryOrderSql's answer, for `n` trajectories, each at `positionOf` its `_row` (every row
 * valid, ids distinct: the caller checks); undefined when the answer names another set of rows.
 */
export function trajectoryOrderOf(
  body: Buffer,
  n: number,
  positionOf: (row: number) => number | undefined,
): TrajectoryOrder | undefined {
  if (body.length !== 5 * n) return undefined;
  const rank = new Int32Array(n).fill(-1);
  const kept = new Uint8Array(n);
  const cursor = new Cursor(body);
  for (let k = 0; k < n; k++) {
    const at = positionOf(cursor.value(R) as number);
    if (at === undefined || rank[at] !== -1) return undefined;
    rank[at] = k;
    kept[at] = cursor.value(KEPT) as number;
  }
  return { rank, kept };
}

/** The order's answer, asked for at once (it is dropped when the trajectories turn out not to allow it). */
export function startTrajectoryOrder(conn: ClickhouseConnection, db: string): Promise<Buffer | undefined> {
  return conn.binaryBody(trajectoryOrderSql(db)).catch(() => undefined);
}
