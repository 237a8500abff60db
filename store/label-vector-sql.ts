// The SQL of the label vectors: judgments placed at their checklist positions, packed per run while a
// checklist fits the packed code's items, and the checks the judgments table's rows must pass.
import type { DuckDBConnection } from "@duckdb/node-api";

/**
 * Where placedJudgmentsSql reads: the judgments (trajectory_id, item_id, judge, run, _loc, …), the
 * trajectories (trajectory_id, task_id, _idx) and the items (task_id, item_id, in store order by
 * `itemOrder`): the tables loaded for the read, or the one pass's files (store/judgment-pass.ts).
 */
export interface PlacedSources {
  judgments: string;
  trajectories: string;
  items: string;
  itemOrder: string;
}

export const LOADED_TABLES: PlacedSources = {
  judgments: "judgments",
  trajectories: "ref_trajectories",
  items: "ref_items",
  itemOrder: "_pos",
};

/**
 * The CTEs the label-vector queries start from: `idx`, each checklist item's position k (1-based, store
 * order) and its task's checklist size n; and `placed`, each judgment with its trajectory's position
 * (_idx), its normalised judge and run, its row, k and n, plus the `columns` given (expressions over j),
 * restricted by `where`. The joins run in the order written (see startLabelVectors).
 */
export function placedJudgmentsSql(columns: string, where = "", from: PlacedSources = LOADED_TABLES): string {
  return `idx AS (SELECT task_id, item_id, row_number() OVER (PARTITION BY task_id ORDER BY ${from.itemOrder}) AS k,
                         count(*) OVER (PARTITION BY task_id) AS n FROM ${from.items}),
     placed AS (
       SELECT t._idx, coalesce(j.judge, $primary) AS judge, coalesce(j.run, 1) AS run, j._loc, idx.k, idx.n,
              ${columns}
       FROM ${from.judgments} j JOIN ${from.trajectories} t USING (trajectory_id)
       JOIN idx ON idx.task_id = t.task_id AND idx.item_id = j.item_id
       ${where})`;
}

/** A judgment's label as its packed two-bit code (Yes 1, No 2, Abstain 3), a column of `placed`. */
export const PACKED_CODE_SQL = "CASE j.label WHEN 'Yes' THEN 1 WHEN 'No' THEN 2 ELSE 3 END::BIGINT AS code";

/**
 * Each judgment is placed at its checklist position k (1-based), then each run's string is read off a
 * position → label map, "." where the run has no judgment (2× faster than a gap-filling join); runs in
 * the order of their first row in the file.
 */
export function labelVectorSql(options: { evidence?: boolean; graded?: boolean }): string {
  // A grade strictly between 0 and 1 is "G" here, its value in the grades list; 1 and 0 are Y and N.
  const placed = placedJudgmentsSql(
    `CASE WHEN j.grade IS NOT NULL AND j.grade NOT IN (0, 1) THEN 'G'
          WHEN j.label = 'Yes' OR j.grade = 1 THEN 'Y' WHEN j.label = 'No' OR j.grade = 0 THEN 'N'
          WHEN j.label = 'NotApplicable' THEN '-' ELSE 'A' END AS c, j.evidence, j.grade`,
    "WHERE hash(j.trajectory_id) % $buckets::UBIGINT = $bucket::UBIGINT",
  );
  const graded = options.graded === true;
  return `WITH ${placed},
     runs AS (SELECT _idx, judge, run, min(_loc) AS first_loc, any_value(n) AS n,
                     map_from_entries(list((k, c))) AS m
                     ${options.evidence ? ", map_from_entries(list((k, evidence))) AS e" : ""}
                     ${graded ? ", map_from_entries(list((k, grade))) AS g" : ""}
              FROM placed GROUP BY _idx, judge, run)
     SELECT _idx::INTEGER AS idx, judge, run::INTEGER AS run, first_loc,
            array_to_string(list_transform(range(1, n + 1), x -> coalesce(m[x], '.')), '') AS labels,
            ${options.evidence ? "list_transform(range(1, n + 1), x -> e[x])" : "NULL"} AS evidence
            ${graded ? ", list_transform(range(1, n + 1), x -> g[x]) AS grades" : ""}
     FROM runs ORDER BY first_loc`;
}

/** Items a packed label run holds: two numbers of 26 two-bit codes each, exact below 2⁵³. */
export const PACKED_ITEMS = 52;

/** Rows of the read's judgments table. */
export async function judgmentRows(conn: DuckDBConnection): Promise<number> {
  const count = await conn.runAndReadAll("SELECT count(*)::BIGINT AS n FROM judgments");
  return Number((count.getColumnsObjectJS() as Record<string, bigint[]>).n[0]);
}

/** The most items a task's checklist holds, in `items` (a table or a file's table expression). */
export async function longestChecklist(conn: DuckDBConnection, items = "ref_items"): Promise<number> {
  const r = await conn.runAndReadAll(
    `SELECT coalesce(max(n), 0)::INTEGER AS n FROM (SELECT count(*) AS n FROM ${items} GROUP BY task_id)`,
  );
  return (r.getColumnsObjectJS() as Record<string, number[]>).n[0];
}

/**
 * judge_codes: each normalised judge of `judges` (a query with a `judge` column; omitted = the primary
 * judge) numbered in code-point order, for packedRunsSql. Returns the judges by code. A judge crosses into
 * JavaScript as its code: a text cell costs about 1 µs to bring over.
 */
export async function createJudgeCodes(
  conn: DuckDBConnection,
  judges: string,
  primaryJudge: string,
): Promise<string[]> {
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE judge_codes AS SELECT judge, (row_number() OVER (ORDER BY judge) - 1)::INTEGER AS code
     FROM (SELECT DISTINCT coalesce(judge, $primary) AS judge FROM (${judges}))`,
    { primary: primaryJudge },
  );
  return (await conn.runAndReadAll("SELECT judge FROM judge_codes ORDER BY code")).getColumnsObjectJS()
    .judge as string[];
}

/**
 * The CTEs `runs` and `packed` that group `placed` (a CTE of judgments with _idx, judge, run, _loc, k, n and
 * their label's code) into packed runs: idx, judge code (judge_codes), run, n, lo, hi and first_loc. With
 * `checks`, each run also counts its judgments (`judged`), the distinct items they judge (`distinct_items`:
 * fewer when a key repeats) and those `placed` marks `bad` (store/judgment-pass.ts).
 */
export function packedRunsSql(checks: boolean): string {
  return `runs AS (
       SELECT _idx, judge, run, min(_loc) AS first_loc, any_value(n) AS n,
              sum(CASE WHEN k <= 26 THEN code << (2 * (k - 1)) ELSE 0 END)::DOUBLE AS lo,
              sum(CASE WHEN k > 26 THEN code << (2 * (k - 27)) ELSE 0 END)::DOUBLE AS hi
              ${checks ? CHECK_AGGREGATES : ""}
       FROM placed GROUP BY _idx, judge, run),
     packed AS (
       SELECT _idx::INTEGER AS idx, c.code AS judge, run::INTEGER AS run, n::INTEGER AS n, lo, hi, first_loc
              ${checks ? ", judged, distinct_items, bad" : ""}
       FROM runs JOIN judge_codes c USING (judge))`;
}

/** A run's items are distinct when the bits 1 << (k − 1) of its judgments are (k ≤ PACKED_ITEMS < 64). */
export const CHECK_AGGREGATES = `, count(*)::BIGINT AS judged,
              bit_count(bit_or(1::BIGINT << (k - 1)))::BIGINT AS distinct_items,
              count_if(bad)::BIGINT AS bad`;
