import { DuckDBInstance } from "@duckdb/node-api";
import { PRIMARY_RUN_JUDGMENTS, parquetScoringViews } from "../store/sql/trajectory-scores.js";

/**
 * The floor `gcpc report` is measured against at scale (`npm run bench -- scale`): one DuckDB query over the
 * store's Parquet files that computes, per trajectory, plain GCPC and GCPC with the official-outcome step
 * (paper §3.3: on PASS the assertion-route items count Yes, and an endpoint item is appended, Yes on PASS and
 * No on FAIL; a non-binary trajectory gets no step). Primary judge, run 1; a missing judgment is Abstain.
 * It reads every judgment once and returns one row per trajectory: the least any report must do.
 */
export const FLOOR_SQL = `
WITH ${PRIMARY_RUN_JUDGMENTS},
counted AS (
  SELECT t.trajectory_id,
         count(*) FILTER (WHERE j.label = 'Yes') AS yes,
         count(*) FILTER (WHERE j.label = 'No') AS no,
         count(*) FILTER (WHERE j.label = 'Yes' AND i.route <> 'assertion') AS yes_free,
         count(*) FILTER (WHERE j.label = 'No' AND i.route <> 'assertion') AS no_free
  FROM trajectories t
  JOIN items i ON i.task_id = t.task_id
  JOIN j ON j.trajectory_id = t.trajectory_id AND j.item_id = i.item_id
  GROUP BY t.trajectory_id
),
sizes AS (SELECT task_id, count(*) FILTER (WHERE route = 'assertion') AS assertions FROM items GROUP BY task_id)
SELECT t.trajectory_id,
       CASE WHEN coalesce(c.yes, 0) + coalesce(c.no, 0) = 0 THEN NULL ELSE c.yes / (c.yes + c.no) END AS gcpc,
       CASE t.outcome
         WHEN 'PASS' THEN (coalesce(c.yes_free, 0) + coalesce(s.assertions, 0) + 1)
                          / (coalesce(c.yes_free, 0) + coalesce(c.no_free, 0) + coalesce(s.assertions, 0) + 1)
         WHEN 'FAIL' THEN coalesce(c.yes, 0) / (coalesce(c.yes, 0) + coalesce(c.no, 0) + 1)
         ELSE CASE WHEN coalesce(c.yes, 0) + coalesce(c.no, 0) = 0 THEN NULL ELSE c.yes / (c.yes + c.no) END
       END AS gcpc_outcome
FROM trajectories t
LEFT JOIN counted c USING (trajectory_id)
LEFT JOIN sizes s ON s.task_id = t.task_id`;

/** Seconds for the floor query on a Parquet store, its database created and its rows fetched; and the rows. */
export async function timeFloor(dir: string, primaryJudge = "primary"): Promise<{ seconds: number; rows: number }> {
  const t0 = performance.now();
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    await parquetScoringViews(conn, dir);
    const reader = await conn.runAndReadAll(FLOOR_SQL, { primary: primaryJudge });
    const rows = reader.currentRowCount;
    return { seconds: (performance.now() - t0) / 1000, rows };
  } finally {
    conn.closeSync?.();
    duck.closeSync?.();
  }
}
