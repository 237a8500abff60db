import { statSync } from "node:fs";
import { join } from "node:path";
import { TABLE_SCHEMAS, type TableName } from "../analysis/schema/tables.js";
import type { TableSchemas } from "../analysis/schema/columns.js";
import type { RawRecord } from "./parse-text.js";
import { RowLocations } from "./check-references.js";
import { loadRecordJudgments } from "./judgment-table.js";
import { fastRowOf } from "./fast-rows.js";
import { parquetMethodScoreColumns } from "./method-score-table.js";
import type { MethodScoreColumns } from "../analysis/schema/method-score-columns.js";
import {
  type ReadContext,
  cannotReadParquet,
  duckOf,
  judgmentsConnection,
  trajectoryReference,
} from "./read-context.js";
import { loadRecords } from "./table-records.js";
import { issueField, issueMessage } from "./zod-issues.js";

interface TableRows {
  valid: unknown[];
  locations: RowLocations;
  complete: boolean;
  /** Valid rows, when they are not held in `valid` (judgments stay in DuckDB). */
  rows?: number;
}

/** One table file: parsed, required columns checked, rows validated. Undefined when it cannot be read at all. */
export async function readTable(ctx: ReadContext, table: TableName, file: string): Promise<TableRows | undefined> {
  const path = join(ctx.dir, file);
  if (statSync(path).size === 0) {
    ctx.add({ file, message: "file is empty" });
    return undefined;
  }
  const format = { field: issueField, message: issueMessage };
  if (table === "judgments" && file.endsWith(".parquet")) {
    // Started once the trajectories streamed, or before this table (loadJudgmentsFirst); its problems are
    // this table's.
    const load = await ctx.judgmentLoad!;
    for (const p of load.problems) ctx.add(p);
    if (load.error !== undefined) {
      ctx.add(cannotReadParquet(file, load.error));
      return undefined;
    }
    ctx.judgmentRepeats = load.repeats;
    ctx.judgmentPass = load.pass;
    const r = load.loaded;
    return r && { valid: [], locations: new RowLocations(), complete: r.complete, rows: r.rows };
  }
  if (table === "method_scores" && file.endsWith(".parquet")) {
    const columns = await methodScoresAsColumns(ctx, path);
    if (columns) return { valid: [], locations: new RowLocations(), complete: true, rows: columns.length };
  }
  const loaded = await loadRecords(ctx, table, file);
  if (!loaded) return undefined;
  const { chunks, columns } = loaded;
  if (columns) {
    const missing = ctx.columns[table].filter((c) => c.required && !columns.includes(c.name)).map((c) => c.name);
    const line = file.endsWith(".csv") ? 1 : undefined;
    for (const f of missing) ctx.add({ file, line, field: f, message: `required column "${f}" is missing` });
    if (missing.length) return undefined;
  }
  if (table === "judgments") {
    const conn = await judgmentsConnection(ctx);
    // A text file is one chunk (concat, not push(...chunk): millions of rows exceed the argument limit).
    let records: RawRecord[] = [];
    for await (const chunk of chunks) records = records.length === 0 ? chunk : records.concat(chunk);
    const r = await loadRecordJudgments(conn, records, {
      file,
      schema: ctx.schemas.judgments,
      add: ctx.add,
      format,
      withEvidence: ctx.evidence,
    });
    return { valid: [], locations: new RowLocations(), complete: r.complete, rows: r.rows };
  }
  const schema = ctx.schemas[table];
  const valid: unknown[] = [];
  const locations = new RowLocations();
  let total = 0;
  try {
    // Chunk by chunk: a chunk's raw values are garbage once validated, so a large Parquet table never
    // holds its raw and its validated rows at once.
    for await (const chunk of chunks) {
      total += chunk.length;
      for (const rec of chunk) validateRecord(ctx, schema, file, rec, valid, locations);
    }
  } catch (e) {
    // Only DuckDB's streaming of a Parquet file can fail here; anything else is a bug, not bad input.
    if (!file.endsWith(".parquet")) throw e;
    ctx.add(cannotReadParquet(file, e));
    return undefined;
  }
  if (total === 0) ctx.add({ file, message: "table has no rows" });
  return { valid, locations, complete: valid.length === total };
}

/**
 * method_scores.parquet as columns when its screen finds nothing to report (store/method-score-table.ts),
 * kept in the context; undefined otherwise (the rows are then read and checked as any table's: a file
 * DuckDB cannot read is reported there too). Only under the contract's own row schema, which the screen
 * restates, and with the trajectories read and their ids unique.
 */
async function methodScoresAsColumns(ctx: ReadContext, path: string): Promise<MethodScoreColumns | undefined> {
  if (ctx.schemas.method_scores !== TABLE_SCHEMAS.method_scores) return undefined;
  const duck = await duckOf(ctx);
  try {
    if (!(await trajectoryReference(ctx, duck))) return undefined;
    ctx.methodScoreColumns = await parquetMethodScoreColumns(duck, path, ctx.strings);
  } catch {
    return undefined;
  }
  return ctx.methodScoreColumns;
}

function validateRecord(
  ctx: ReadContext,
  schema: TableSchemas[TableName],
  file: string,
  rec: RawRecord,
  valid: unknown[],
  locations: RowLocations,
): void {
  // The contract's trajectory, item and task rows skip zod when they are plainly valid (the same object,
  // store/fast-rows.ts).
  const fast = fastRowOf(schema)?.(rec.values);
  const parsed = fast ? { success: true as const, data: fast } : schema.safeParse(rec.values);
  if (parsed.success) {
    if (!rec.interned) ctx.strings.internRow(parsed.data as Record<string, unknown>);
    valid.push(parsed.data);
    locations.push(rec.line, rec.row);
    return;
  }
  for (const issue of parsed.error.issues) {
    ctx.add({
      file,
      line: rec.line,
      row: rec.row,
      field: issueField(issue),
      message: issueMessage(issue, rec.values),
    });
  }
}
