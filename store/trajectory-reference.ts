import type { DuckDBConnection } from "@duckdb/node-api";
import { parquetSource } from "./parquet-source.js";
import type { TrajectoryOrder } from "../analysis/schema/trajectory-order.js";

/**
 * ref_trajectories (id, task, _idx) straight from trajectories.parquet, for a file whose every row was valid:
 * a trajectory's position in the read is then its file row. The JavaScript appender it replaces took 2.3 s
 * of the main thread at 100× the paper. Whether the ids are unique, counted over the same rows.
 */
export async function trajectoryReferenceFromFile(conn: DuckDBConnection, path: string): Promise<boolean> {
  await conn.run(
    `CREATE TABLE ref_trajectories AS SELECT trajectory_id, task_id, file_row_number::BIGINT AS _idx
     FROM ${parquetSource(path, { rowNumbers: true })}`,
  );
  return refTrajectoryIdsUnique(conn);
}

/** Whether ref_trajectories holds each trajectory_id once (however it was loaded). */
export async function refTrajectoryIdsUnique(conn: DuckDBConnection): Promise<boolean> {
  const check = await conn.runAndReadAll(
    "SELECT count(*) = count(DISTINCT trajectory_id) AS unique_ids FROM ref_trajectories",
  );
  return check.getRowObjectsJS()[0].unique_ids === true;
}

/**
 * The file's trajectories in id order with the log_hash deduplication decided (TrajectoryOrder), for a file
 * whose every row was valid and whose ids are unique. DuckDB compares text byte by byte, and UTF-8's byte
 * order is code-point order, the order `analysis/order.ts` sorts ids in (tested with ids past U+FFFF).
 */
export async function trajectoryOrderFromFile(conn: DuckDBConnection, path: string): Promise<TrajectoryOrder> {
  const from = parquetSource(path, { rowNumbers: true });
  const columns = (await conn.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`)).columnNames();
  const first = columns.includes("log_hash")
    ? "log_hash IS NULL OR row_number() OVER (PARTITION BY log_hash ORDER BY trajectory_id) = 1"
    : "true";
  const result = await conn.stream(
    `SELECT (row_number() OVER (ORDER BY trajectory_id) - 1)::INTEGER AS rank, (${first})::UTINYINT AS kept
     FROM ${from} ORDER BY file_row_number`,
  );
  const rank: number[] = [];
  const kept: number[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const ranks = chunk.getColumnVector(0);
    const keeps = chunk.getColumnVector(1);
    const rows = chunk.rowCount; // a native call: read once, not once per row
    for (let i = 0; i < rows; i++) {
      rank.push(ranks.getItem(i) as number);
      kept.push(keeps.getItem(i) as number);
    }
  }
  return { rank: Int32Array.from(rank), kept: Uint8Array.from(kept) };
}
