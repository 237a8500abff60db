import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * Per-trajectory plain GCPC as one SQL GROUP BY over the store's files (scoring as plain SQL
 * over Parquet, so the same query runs in DuckDB on one machine, on Parquet in object storage, or on
 * a distributed SQL engine). Primary judge, run 1 (contract rules 8 and 13: omitted run = 1, omitted
 * judge = the primary judge); a judgment counts only for an item of its trajectory's task; missing
 * judgments are Abstain. GCPC = Yes / (Yes + No); NULL (zero-evidence) when nothing is decided.
 * Only O(trajectories) rows come back. The TypeScript scorer (analysis/scoring) stays the reference;
 * test/sql-scoring.test.ts checks both agree on every trajectory of the demo.
 */
/** The primary judge's run-1 judgments (contract rules 8 and 13), as the first CTE `j` of a scoring query. */
export const PRIMARY_RUN_JUDGMENTS = `j AS (
  SELECT trajectory_id, item_id, label FROM judgments
  WHERE coalesce(run, 1) = 1 AND coalesce(judge, $primary) = $primary
)`;

export const TRAJECTORY_SCORES_SQL = `
WITH ${PRIMARY_RUN_JUDGMENTS},
counted AS (
  SELECT t.trajectory_id,
         count(*) FILTER (WHERE j.label = 'Yes') AS yes,
         count(*) FILTER (WHERE j.label = 'No') AS no
  FROM trajectories t
  JOIN items i ON i.task_id = t.task_id
  JOIN j ON j.trajectory_id = t.trajectory_id AND j.item_id = i.item_id
  GROUP BY t.trajectory_id
),
sizes AS (SELECT task_id, count(*) AS items FROM items GROUP BY task_id)
SELECT t.trajectory_id,
       coalesce(c.yes, 0) AS yes,
       coalesce(c.yes, 0) + coalesce(c.no, 0) AS decided,
       coalesce(s.items, 0) AS items,
       CASE WHEN coalesce(c.yes, 0) + coalesce(c.no, 0) = 0 THEN NULL
            ELSE c.yes / (c.yes + c.no) END AS gcpc
FROM trajectories t
LEFT JOIN counted c USING (trajectory_id)
LEFT JOIN sizes s ON s.task_id = t.task_id
ORDER BY t.trajectory_id`;

export interface TrajectoryScoreColumns {
  trajectory_id: string[];
  yes: Float64Array;
  decided: Float64Array;
  items: Float64Array;
  /** NaN for zero-evidence trajectories. */
  gcpc: Float64Array;
}

/** Runs the query over a Parquet store folder; the result is columnar (one typed array per column). */
export async function trajectoryScores(dir: string, primaryJudge: string): Promise<TrajectoryScoreColumns> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    await parquetScoringViews(conn, dir);
    const reader = await conn.runAndReadAll(TRAJECTORY_SCORES_SQL, { primary: primaryJudge });
    const cols = reader.getColumnsObjectJS() as Record<string, unknown[]>;
    const num = (xs: unknown[]) => Float64Array.from(xs, (x) => (x === null ? NaN : Number(x)));
    return {
      trajectory_id: cols.trajectory_id as string[],
      yes: num(cols.yes),
      decided: num(cols.decided),
      items: num(cols.items),
      gcpc: num(cols.gcpc),
    };
  } finally {
    conn.closeSync?.();
    duck.closeSync?.();
  }
}

/** Views `trajectories`, `items` and `judgments` over a Parquet store folder's files: what the scoring SQL reads. */
export async function parquetScoringViews(conn: DuckDBConnection, dir: string): Promise<void> {
  for (const table of ["trajectories", "items", "judgments"]) {
    const path = join(dir, `${table}.parquet`).replaceAll("'", "''");
    await conn.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet('${path}')`);
  }
}
