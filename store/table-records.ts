import { parquetSource } from "./parquet-source.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DuckSession } from "./duck-session.js";
import type { TableName } from "../analysis/schema/tables.js";
import type { ColumnKind } from "../analysis/schema/columns.js";
import { decodeUtf8, parseCsv, parseJsonl, type RawRecord } from "./parse-text.js";
import { parquetValues } from "./parquet-values.js";
import { parquetTypedRows, TYPED_READ_MAX_COLUMNS } from "./parquet-rows.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import { type ReadContext, cannotReadParquet, duckOf, trajectoryReference } from "./read-context.js";

/**
 * Raw records of a file in any of the three formats, in chunks (a text file is one chunk), with the
 * header's columns when the format has one.
 */
export async function loadRecords(
  ctx: ReadContext,
  table: TableName,
  file: string,
): Promise<{ chunks: AsyncIterable<RawRecord[]>; columns?: string[] } | undefined> {
  const path = join(ctx.dir, file);
  if (file.endsWith(".parquet")) {
    const duck = await duckOf(ctx);
    try {
      return await parquetRecords(ctx, duck, table, path);
    } catch (e) {
      ctx.add(cannotReadParquet(file, e));
      return undefined;
    }
  }
  const text = decodeUtf8(readFileSync(path), file);
  if (typeof text !== "string") {
    ctx.add(text);
    return undefined;
  }
  if (file.endsWith(".jsonl")) return { chunks: oneChunk(parseJsonl(text, file, ctx.add)) };
  const parsed = parseCsv(text, file, ctx.add);
  if (!parsed) return undefined;
  const kinds = new Map(ctx.columns[table].map((c) => [c.name, c.kind]));
  const records = parsed.records.map((r) => ({ ...r, values: convertCsvCells(kinds, r) }));
  return { chunks: oneChunk(records), columns: parsed.header };
}

async function* oneChunk(records: RawRecord[]): AsyncIterable<RawRecord[]> {
  yield records;
}

/**
 * A Parquet table's rows, typed column by column (store/parquet-rows.ts); a file with a column of the
 * name that reader gives file row numbers, or with more columns than its null mask holds, is read row
 * by row as JSON.
 */
async function parquetRecords(
  ctx: ReadContext,
  duck: DuckSession,
  table: TableName,
  path: string,
): Promise<{ chunks: AsyncIterable<RawRecord[]>; columns: string[] }> {
  const from = parquetSource(path, { rowNumbers: false });
  const conn = await duck.connect();
  let columns: string[];
  try {
    columns = (await conn.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`)).columnNames();
  } finally {
    conn.closeSync?.();
  }
  if (columns.includes("file_row_number") || columns.length > TYPED_READ_MAX_COLUMNS)
    return { chunks: parquetChunks(duck, from), columns };
  const names = table !== "trajectories" && columns.includes("trajectory_id");
  const trajectories = names ? await trajectoryReference(ctx, duck) : undefined;
  const unpooled = table === "trajectories" ? ["trajectory_id"] : [];
  const onStreaming = table === "trajectories" ? ctx.startJudgmentLoad : undefined;
  return {
    chunks: parquetTypedRows(duck, path, { strings: ctx.strings, trajectories, unpooled, onStreaming }),
    columns,
  };
}

/**
 * The rows of a Parquet file as DuckDB streams them (≈ 2,048 rows a chunk), each one JSON text parsed by
 * V8's native JSON.parse: one string to decode per row instead of one per cell, about twice as fast on
 * trajectories and method scores (`npm run bench -- store`).
 */
async function* parquetChunks(duck: DuckSession, from: string): AsyncIterable<RawRecord[]> {
  const conn = await duck.connect();
  let cells: DuckDBConnection | undefined;
  try {
    const result = await conn.stream(`SELECT to_json(f)::VARCHAR AS j FROM ${from} f`);
    let row = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const texts = chunk.getColumnVector(0);
      const records: RawRecord[] = new Array(chunk.rowCount);
      const rows = chunk.rowCount; // a native call: read once, not once per row
      for (let i = 0; i < rows; i++) {
        let values: Record<string, unknown>;
        try {
          values = JSON.parse(texts.getItem(i) as string);
        } catch {
          // NaN and ±Infinity are not JSON: read that row cell by cell (the schema then rejects them).
          cells ??= await duck.connect();
          values = await parquetRow(cells, from, row + i);
        }
        // Parquet nulls mean "absent" for optional fields.
        for (const k of Object.keys(values)) if (values[k] === null) delete values[k];
        records[i] = { values, row: row + i + 1 };
      }
      row += chunk.rowCount;
      yield records;
    }
  } finally {
    cells?.closeSync?.();
    conn.closeSync?.();
  }
}

async function parquetRow(conn: DuckDBConnection, from: string, i: number): Promise<Record<string, unknown>> {
  return parquetValues((await conn.runAndReadAll(`SELECT * FROM ${from} LIMIT 1 OFFSET ${i}`)).getRowObjectsJS()[0]);
}

/** CSV cells → typed values per the contract (rule 1: empty cell = null; booleans true/false; lists as JSON
 * arrays). */
/** A CSV record's cells as the contract's values (blank cells absent), by column kind. */
export function convertCsvCells(kinds: Map<string, ColumnKind>, rec: RawRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, cell] of Object.entries(rec.values) as [string, string][]) {
    if (cell === "") continue; // absent
    out[field] = convertCell(kinds.get(field) ?? "string", cell);
  }
  return out;
}

function convertCell(kind: ColumnKind, cell: string): unknown {
  if (kind === "int" || kind === "number") {
    // "NaN" / "Infinity" become numbers the schema rejects as non-finite; other text stays text and is
    // rejected as such.
    const x = Number(cell);
    return Number.isNaN(x) && cell.trim() !== "NaN" ? cell : x;
  }
  if (kind === "boolean") return cell === "true" ? true : cell === "false" ? false : cell;
  if (kind === "list") {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  return cell;
}
