import type { DuckSession } from "./duck-session.js";
import { parquetSource } from "./parquet-source.js";
import type { MethodScoreColumns } from "../analysis/schema/method-score-columns.js";
import type { StringPool } from "./string-pool.js";

/** The column types the screen below is written for; any other set of columns takes the row path. */
const PLAIN_COLUMNS = "method:VARCHAR,score:DOUBLE,trajectory_id:VARCHAR";

/**
 * method_scores.parquet as columns, without an object per row (at 100× the paper, 6.5 M rows
 * took 17 s to read as rows and ≈ 450 MB of heap), when DuckDB finds nothing the row path would report.
 *
 * The screen is SQL for every problem that path reports on a table of plain columns (trajectory_id and
 * method VARCHAR, score DOUBLE, nothing else): a value the schema (MethodScoreRow) rejects — an empty or
 * missing id or method, a missing, NaN, infinite or out-of-[0, 1] score —, a trajectory_id no trajectory
 * has, a repeated (trajectory_id, method). When it finds any, or the columns are not the plain ones, this
 * returns undefined and the caller reads the rows as before, so every problem keeps its wording and place
 * (test/method-score-table.test.ts feeds each kind). `ref_trajectories` must hold the valid trajectories,
 * with unique ids, and `_idx` their positions.
 */
export async function parquetMethodScoreColumns(
  duck: DuckSession,
  path: string,
  strings: StringPool,
): Promise<MethodScoreColumns | undefined> {
  const conn = await duck.connect();
  const from = parquetSource(path, { rowNumbers: true });
  try {
    const described = (await conn.runAndReadAll(`DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${from}`))
      .getRowObjectsJS()
      .map((r) => `${r.column_name}:${r.column_type}`)
      .sort()
      .join(",");
    if (described !== PLAIN_COLUMNS) return undefined;
    const screen = await conn.runAndReadAll(
      `SELECT count(*)::DOUBLE AS total,
         count(*) FILTER (WHERE NOT (coalesce(m.trajectory_id, '') <> '' AND coalesce(m.method, '') <> ''
           AND m.score IS NOT NULL AND NOT isnan(m.score) AND NOT isinf(m.score) AND m.score BETWEEN 0 AND 1
           AND r._idx IS NOT NULL))::DOUBLE AS flagged,
         (SELECT count(*) FROM (SELECT 1 FROM ${from} GROUP BY trajectory_id, method HAVING count(*) > 1))::DOUBLE
           AS repeated
       FROM ${from} m LEFT JOIN ref_trajectories r ON r.trajectory_id = m.trajectory_id`,
    );
    const [total, flagged, repeated] = screen.getRows()[0] as number[];
    if (total === 0 || flagged > 0 || repeated > 0) return undefined;
    // Methods numbered in order of first appearance, each name read once.
    await conn.run(
      `CREATE TEMP TABLE gcpc_methods AS SELECT method, (row_number() OVER (ORDER BY min(file_row_number)) - 1)::INTEGER
         AS code FROM ${from} GROUP BY method`,
    );
    const dictionary = await conn.runAndReadAll("SELECT method FROM gcpc_methods ORDER BY code");
    const methods = dictionary.getRows().map(([name]) => strings.intern("method", name as string));
    const columns: MethodScoreColumns = {
      length: total,
      trajectory: new Int32Array(total),
      method: new Int32Array(total),
      methods,
      score: new Float64Array(total),
    };
    const result = await conn.stream(
      `SELECT r._idx::INTEGER, d.code::INTEGER, m.score
       FROM ${from} m JOIN ref_trajectories r ON r.trajectory_id = m.trajectory_id
       JOIN gcpc_methods d ON d.method = m.method
       ORDER BY m.file_row_number`,
    );
    let k = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [trajectory, method, score] = [0, 1, 2].map((c) => chunk.getColumnVector(c));
      const rows = chunk.rowCount; // a native call: read once, not once per row
      for (let i = 0; i < rows; i++, k++) {
        columns.trajectory[k] = trajectory.getItem(i) as number;
        columns.method[k] = method.getItem(i) as number;
        columns.score[k] = score.getItem(i) as number;
      }
    }
    return columns;
  } finally {
    conn.closeSync?.();
  }
}
