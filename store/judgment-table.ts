import { parquetSource } from "./parquet-source.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { z } from "zod";
import { JudgmentRow, type Item, type Task, type Trajectory } from "../analysis/schema/tables.js";
import { columnsOfSchema } from "../analysis/schema/columns.js";
import type { RawRecord } from "./parse-text.js";
import { parquetValues } from "./parquet-values.js";
import type { Problem } from "./problems.js";

/**
 * The judgments table lives in DuckDB: it is the one table with a row per (trajectory,
 * item, run, judge), so it is validated, checked and turned into label vectors there, and only
 * O(trajectory runs) data comes back to JavaScript. Every row keeps its location (`_loc`: the file
 * line for JSONL/CSV, the 1-based row for Parquet) so every problem still names it.
 */
export const JUDGMENTS_DDL = `CREATE TABLE judgments (trajectory_id VARCHAR, item_id VARCHAR, label VARCHAR,
  run BIGINT, judge VARCHAR, evidence VARCHAR, _loc BIGINT, grade DOUBLE)`;

/** How a row's location is named in problems. */
export type LocationKind = "line" | "row";

type Add = (p: Problem) => void;
type Issue = z.core.$ZodIssue;
type IssueFormat = {
  field: (i: Issue) => string | undefined;
  message: (i: Issue, v: Record<string, unknown>) => string;
};

/** The contract's judgment columns, from the zod row schema. */
const KNOWN = Object.keys(JudgmentRow.shape);
const SAFE_INT = "9007199254740991";

/**
 * SQL that is true exactly for the rows the zod row schema (JudgmentRow) rejects, by column type:
 * DuckDB types a Parquet column as a whole, so a non-string id column fails every row. The rows it
 * selects are re-read and passed through zod, which writes the messages, so the schema stays the
 * one source of the wording; test/judgment-table.test.ts checks both select the same rows.
 */
export function invalidJudgmentSql(types: Map<string, string>): string {
  const q = (c: string) => `"${c.replaceAll('"', '""')}"`;
  const isText = (c: string) => types.get(c) === "VARCHAR";
  const parts: string[] = [];
  for (const id of ["trajectory_id", "item_id"])
    parts.push(isText(id) ? `(${q(id)} IS NULL OR length(${q(id)}) = 0)` : "TRUE");
  parts.push(labelOrGradeInvalidSql(types));
  const run = types.get("run");
  if (run !== undefined) {
    if (/^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|UHUGEINT)$/.test(run))
      parts.push(`(run IS NOT NULL AND (run < 1 OR run > ${SAFE_INT}))`);
    else if (/^(FLOAT|DOUBLE|DECIMAL)/.test(run)) {
      const x = "CAST(run AS DOUBLE)";
      parts.push(
        `(run IS NOT NULL AND (isnan(${x}) OR isinf(${x}) OR ${x} <> floor(${x}) OR ${x} < 1 OR ${x} > ${SAFE_INT}))`,
      );
    } else parts.push("(run IS NOT NULL)");
  }
  for (const c of ["judge", "evidence", "raw"]) if (types.has(c) && !isText(c)) parts.push(`(${q(c)} IS NOT NULL)`);
  // The schema is strict: a non-null value in a column outside the contract is a problem.
  for (const c of types.keys()) if (!KNOWN.includes(c) && c !== "_loc") parts.push(`(${q(c)} IS NOT NULL)`);
  return parts.join(" OR ");
}

/**
 * True for a row whose label and grade (schema_version 2) the row schema rejects: a label outside the
 * contract's, a grade that is not a number in [0, 1], neither given, or a grade that contradicts its label
 * (Yes is 1, No is 0; Abstain and NotApplicable carry none). checkGradedLabel (tables.ts) in SQL.
 */
function labelOrGradeInvalidSql(types: Map<string, string>): string {
  const label = types.get("label");
  const gradeType = types.get("grade");
  if (label !== undefined && label !== "VARCHAR") return "TRUE";
  const hasLabel = label !== undefined;
  const labelSql = hasLabel ? "label" : "NULL::VARCHAR";
  const numeric =
    gradeType !== undefined && /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/.test(gradeType);
  // A grade column of another type: zod rejects every row that holds a value in it.
  const g = numeric ? "CAST(grade AS DOUBLE)" : "NULL::DOUBLE";
  const wrongType = gradeType !== undefined && !numeric ? "(grade IS NOT NULL) OR " : "";
  const missing = gradeType !== undefined && !numeric ? "grade IS NULL" : `${g} IS NULL`;
  return `(${wrongType}
    (${labelSql} IS NOT NULL AND ${labelSql} NOT IN ('Yes', 'No', 'Abstain', 'NotApplicable'))
    OR (${g} IS NOT NULL AND (isnan(${g}) OR ${g} < 0 OR ${g} > 1))
    OR (${labelSql} IS NULL AND ${missing})
    OR (${labelSql} IS NOT NULL AND ${g} IS NOT NULL
        AND NOT ((${labelSql} = 'Yes' AND ${g} = 1) OR (${labelSql} = 'No' AND ${g} = 0))))`;
}

/**
 * Loads judgments.parquet: the rows zod would reject are reported (through zod, with their row),
 * the others go into the `judgments` table. Returns the number of rows and whether all were valid.
 * Without `withEvidence` the evidence column is validated but not kept: only the site's label vectors
 * read it, and at 100× the paper it is 10 M strings of the table DuckDB holds and spills.
 */
export async function loadParquetJudgments(
  conn: DuckDBConnection,
  o: { path: string; file: string; schema: z.ZodObject; add: Add; format: IssueFormat; withEvidence?: boolean },
): Promise<{ rows: number; complete: boolean } | undefined> {
  await conn.run(
    `CREATE TEMP VIEW judgments_file AS SELECT * EXCLUDE (file_row_number), file_row_number + 1 AS _loc
     FROM ${parquetSource(o.path, { rowNumbers: true })}`,
  );
  const described = await conn.runAndReadAll("DESCRIBE judgments_file");
  const d = described.getColumnsObjectJS() as Record<string, string[]>;
  const types = new Map(d.column_name.map((c, i) => [c, d.column_type[i]]));
  const missing = columnsOfSchema(o.schema)
    .filter((c) => c.required && !types.has(c.name))
    .map((c) => c.name);
  for (const f of missing) o.add({ file: o.file, field: f, message: `required column "${f}" is missing` });
  if (missing.length) return undefined;
  const invalid = invalidJudgmentSql(types);
  const bad = await conn.runAndReadAll(`SELECT * FROM judgments_file WHERE ${invalid} ORDER BY _loc LIMIT 100000`);
  const rows = bad.getRowObjectsJS() as Record<string, unknown>[];
  for (const r of rows) reportRow(o, { values: parquetValues(r, ["_loc"]), row: Number(r._loc) });
  const col = (c: string, cast = "") => (types.has(c) ? (cast ? `CAST(${c} AS ${cast})` : c) : "NULL");
  await conn.run(
    `INSERT INTO judgments SELECT ${col("trajectory_id")}, ${col("item_id")}, ${col("label")}, ${col("run", "BIGINT")},
       ${col("judge")}, ${o.withEvidence === false ? "NULL" : col("evidence")}, _loc, ${col("grade", "DOUBLE")}
     FROM judgments_file WHERE NOT (${invalid})`,
  );
  const count = await conn.runAndReadAll("SELECT count(*)::BIGINT AS n FROM judgments_file");
  const total = Number((count.getColumnsObjectJS() as Record<string, bigint[]>).n[0]);
  if (total === 0) o.add({ file: o.file, message: "table has no rows" });
  return { rows: total, complete: rows.length === 0 };
}

/** JSONL/CSV judgments, already parsed with their lines: zod per row, valid rows appended to DuckDB. */
export async function loadRecordJudgments(
  conn: DuckDBConnection,
  records: readonly RawRecord[],
  o: { file: string; schema: z.ZodObject; add: Add; format: IssueFormat; withEvidence?: boolean },
): Promise<{ rows: number; complete: boolean }> {
  const appender = await conn.createAppender("judgments");
  let valid = 0;
  const text = (v: unknown) =>
    v === null || v === undefined ? appender.appendNull() : appender.appendVarchar(String(v));
  for (const rec of records) {
    const parsed = o.schema.safeParse(rec.values);
    if (!parsed.success) {
      reportRow(o, rec, parsed.error.issues);
      continue;
    }
    const j = parsed.data as Record<string, unknown>;
    text(j.trajectory_id);
    text(j.item_id);
    text(j.label);
    if (j.run === null || j.run === undefined) appender.appendNull();
    else appender.appendBigInt(BigInt(j.run as number));
    text(j.judge);
    if (o.withEvidence === false) appender.appendNull();
    else text(j.evidence);
    appender.appendBigInt(BigInt(rec.line ?? rec.row ?? 0));
    if (j.grade === null || j.grade === undefined) appender.appendNull();
    else appender.appendDouble(j.grade as number);
    appender.endRow();
    valid++;
  }
  appender.closeSync();
  if (records.length === 0) o.add({ file: o.file, message: "table has no rows" });
  return { rows: valid, complete: valid === records.length };
}

function reportRow(
  o: { file: string; schema: z.ZodObject; add: Add; format: IssueFormat },
  rec: RawRecord,
  known?: Issue[],
) {
  const issues = known ?? (o.schema.safeParse(rec.values).error?.issues as Issue[] | undefined) ?? [];
  for (const issue of issues)
    o.add({
      file: o.file,
      line: rec.line,
      row: rec.row,
      field: o.format.field(issue),
      message: o.format.message(issue, rec.values),
    });
}

/** The validated rows the judgments are checked against, loaded as small reference tables. */
export async function loadReferenceTables(
  conn: DuckDBConnection,
  t: { tasks?: Task[]; items?: Item[]; trajectories?: Trajectory[] },
  /** ref_trajectories is already loaded (loadTrajectoryReference, for the other tables' read). */
  trajectoriesLoaded = false,
): Promise<void> {
  await conn.run("CREATE TABLE ref_tasks (task_id VARCHAR)");
  await conn.run("CREATE TABLE ref_items (task_id VARCHAR, item_id VARCHAR, _pos BIGINT)");
  await appendRows(
    conn,
    "ref_tasks",
    (t.tasks ?? []).map((x) => [x.task_id]),
  );
  await appendRows(
    conn,
    "ref_items",
    (t.items ?? []).map((x, i) => [x.task_id, x.item_id, i]),
  );
  if (!trajectoriesLoaded) await loadTrajectoryReference(conn, t.trajectories ?? []);
}

/**
 * The trajectories read, as ref_trajectories (id, task, _idx = position in `trajectories`): judgments
 * and label vectors join it, and the other tables' Parquet read returns a trajectory's position from it
 * (store/parquet-rows.ts).
 */
export async function loadTrajectoryReference(conn: DuckDBConnection, trajectories: Trajectory[]): Promise<void> {
  await conn.run("CREATE TABLE ref_trajectories (trajectory_id VARCHAR, task_id VARCHAR, _idx BIGINT)");
  await appendRows(
    conn,
    "ref_trajectories",
    trajectories.map((x, i) => [x.trajectory_id, x.task_id, i]),
  );
}

async function appendRows(conn: DuckDBConnection, table: string, rows: unknown[][]): Promise<void> {
  const a = await conn.createAppender(table);
  for (const row of rows) {
    for (const v of row) typeof v === "number" ? a.appendBigInt(BigInt(v)) : a.appendVarchar(String(v));
    a.endRow();
  }
  a.closeSync();
}

/**
 * Duplicate judgments (contract rule 13: the key is normalised first, omitted run = 1, omitted judge
 * = the primary judge) and references (a known trajectory, an item of that trajectory's task), as
 * problems in file order, worded as for every other table (store/check-references.ts).
 */
export async function judgmentProblems(
  conn: DuckDBConnection,
  o: { file: string; loc: LocationKind; primaryJudge: string; checkTrajectories: boolean; checkItems: boolean },
  /** The duplicate screen's count (duplicateScreen), when it already ran. */
  screened?: number,
): Promise<{ duplicates: Problem[]; references: Problem[] }> {
  const repeats = screened ?? (await duplicateScreen(conn, o.primaryJudge));
  const duplicates = repeats === 0 ? [] : await duplicateJudgments(conn, o);
  const refs = await conn.runAndReadAll(
    `SELECT j._loc, j.trajectory_id, j.item_id, t.task_id, t.trajectory_id IS NULL AS unknown,
            t.task_id IN (SELECT task_id FROM ref_tasks) AS task_known
     FROM judgments j LEFT JOIN ref_trajectories t USING (trajectory_id)
     LEFT JOIN ref_items i ON i.task_id = t.task_id AND i.item_id = j.item_id
     WHERE t.trajectory_id IS NULL OR i.item_id IS NULL ORDER BY j._loc`,
  );
  const references: Problem[] = [];
  for (const r of refs.getRowObjectsJS() as Record<string, unknown>[]) {
    if (r.unknown) {
      if (o.checkTrajectories) {
        const message = `unknown trajectory ${JSON.stringify(r.trajectory_id)} (not in trajectories)`;
        references.push({ file: o.file, ...locationOf(o.loc, r._loc), field: "trajectory_id", message });
      }
    } else if (o.checkItems && r.task_known) {
      const message =
        `item ${JSON.stringify(r.item_id)} is not in the checklist of task ${JSON.stringify(r.task_id)} ` +
        "(the trajectory's task)";
      references.push({ file: o.file, ...locationOf(o.loc, r._loc), field: "item_id", message });
    }
  }
  return { duplicates, references };
}

/**
 * The keys whose hash repeats, counted. Equal keys hash alike, so no repeat means no duplicate; a repeat
 * (a duplicate, or rarely two keys sharing a hash) runs the exact query (duplicateJudgments). Grouping one
 * 64-bit hash instead of sorting every row by four text keys: 2.1 → 0.9 s at scale 100. It
 * needs only the judgments table, so it can run while JavaScript reads the other tables.
 */
/**
 * A judgment's judge with the primary judge as NULL, named or left out (contract rule 13): a key compares alike
 * without a copy of the primary judge's name in every row (a 300 KB name, copied into each of 1,768 rows of the
 * window below, ran DuckDB out of memory; issue 57.3's long primary_judge, on the folder path).
 */
const JUDGE_OR_NULL = "CASE WHEN judge IS NULL OR judge = $primary THEN NULL ELSE judge END";

export async function duplicateScreen(conn: DuckDBConnection, primaryJudge: string): Promise<number> {
  const screen = await conn.runAndReadAll(
    `SELECT count(*)::BIGINT AS n FROM (
       SELECT hash(trajectory_id, item_id, coalesce(run, 1), ${JUDGE_OR_NULL}) AS h FROM judgments
       GROUP BY h HAVING count(*) > 1)`,
    { primary: primaryJudge },
  );
  return Number((screen.getColumnsObjectJS() as Record<string, bigint[]>).n[0]);
}

/** A problem's location: the file line (JSONL, CSV) or the 1-based row (Parquet). */
const locationOf = (kind: LocationKind, loc: unknown) =>
  kind === "line" ? { line: Number(loc) } : { row: Number(loc) };

/** Every duplicate judgment (after the first of its normalised key), in file order. */
async function duplicateJudgments(
  conn: DuckDBConnection,
  o: { file: string; loc: LocationKind; primaryJudge: string },
): Promise<Problem[]> {
  const where = (loc: unknown) => `${o.loc} ${Number(loc)}`;
  const dup = await conn.runAndReadAll(
    `SELECT _loc, trajectory_id, item_id, run, judge, first_loc FROM (
       SELECT _loc, trajectory_id, item_id, coalesce(run, 1) AS run, ${JUDGE_OR_NULL} AS judge,
              first_value(_loc) OVER w AS first_loc, row_number() OVER w AS k
       FROM judgments WINDOW w AS (PARTITION BY trajectory_id, item_id, coalesce(run, 1), ${JUDGE_OR_NULL}
                                   ORDER BY _loc))
     WHERE k > 1 ORDER BY _loc`,
    { primary: o.primaryJudge },
  );
  return (dup.getRowObjectsJS() as Record<string, unknown>[]).map((r) => ({
    file: o.file,
    ...locationOf(o.loc, r._loc),
    field: "item_id",
    message:
      "duplicate judgment (trajectory / item / run / judge, normalized) " +
      `${JSON.stringify(`${r.trajectory_id} / ${r.item_id} / ${r.run} / ${r.judge ?? o.primaryJudge}`)} ` +
      `(first at ${where(r.first_loc)})`,
  }));
}
