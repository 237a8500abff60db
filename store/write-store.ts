import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, basename } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { openDuckSession } from "./duck-session.js";
import { TABLE_NAMES, type TableName } from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/store.js";
import { tableColumns, type TableSchemas } from "../analysis/schema/columns.js";
import { duckdbColumns } from "./columns.js";

export type WriteFormat = "parquet" | "jsonl";

/**
 * Writes a store folder atomically: everything goes to a temporary sibling
 * folder that is renamed into place at the end, so a failure leaves no
 * half-written store. Refuses to overwrite a non-empty folder.
 * Parquet is written by DuckDB with explicit column types (stable schema).
 */
/** The columns schema_version 2 added (docs/verdict-store.md). */
const V2_COLUMNS = new Set(["weight", "points", "prerequisites", "group", "grade", "raw"]);

export async function writeStore(
  out: string,
  store: Store,
  format: WriteFormat = "parquet",
  schemas?: TableSchemas,
): Promise<void> {
  const columns = tableColumns(schemas);
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`refusing to overwrite non-empty folder ${out}`);
  mkdirSync(dirname(out), { recursive: true });
  const tmp = mkdtempSync(join(dirname(out), `.${basename(out)}.tmp-`));
  // One database writes every table (its creation is most of a small table's write).
  const duck = format === "parquet" ? await parquetWriter() : undefined;
  try {
    writeFileSync(join(tmp, "store.json"), `${JSON.stringify(store.manifest, null, 2)}\n`);
    for (const table of TABLE_NAMES) {
      const rows = store[table as TableName] as Record<string, unknown>[] | undefined;
      if (!rows || rows.length === 0) continue; // absent, not empty: an empty file is invalid input
      if (format === "jsonl")
        writeFileSync(join(tmp, `${table}.jsonl`), `${rows.map((r) => JSON.stringify(dropNulls(r))).join("\n")}\n`);
      else {
        // schema_version 2's optional columns are written only when a row uses them: a version 1 store's
        // Parquet files stay as they were, column for column.
        const used = columns[table].filter((c) => !V2_COLUMNS.has(c.name) || rows.some((r) => r[c.name] != null));
        await writeParquet(join(tmp, `${table}.parquet`), rows, duckdbColumns(used), duck?.conn);
      }
    }
    if (existsSync(out)) rmSync(out, { recursive: true });
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    await duck?.close();
  }
}

/**
 * The one-thread DuckDB database Parquet files are written with (in the process's shared one-thread
 * instance, store/duck-session.ts: an instance of its own cost about 13 ms a write), and how to close it.
 */
async function parquetWriter(): Promise<{ conn: DuckDBConnection; close: () => Promise<void> }> {
  const duck = await openDuckSession({ threads: "1" });
  const conn = await duck.connect();
  return {
    conn,
    close: async () => {
      conn.closeSync?.();
      await duck.close();
    },
  };
}

/**
 * Rows → one Parquet file, written by DuckDB from a temporary JSONL copy. With `columns`
 * the schema is fixed (the store tables); without, DuckDB infers it from every row
 * (site downloads).
 */
export async function writeParquet(
  path: string,
  rows: Record<string, unknown>[],
  columns?: [string, string][],
  /** A writer's connection to use (writeStore's, for every table); else one is made and closed here. */
  conn?: DuckDBConnection,
): Promise<void> {
  const src = `${path}.src.jsonl`;
  const shaped = columns ? rows.map((r) => Object.fromEntries(columns.map(([c]) => [c, r[c] ?? null]))) : rows;
  writeFileSync(src, `${shaped.map((r) => JSON.stringify(r)).join("\n")}\n`);
  const own = conn ? undefined : await parquetWriter();
  try {
    await (conn ?? own!.conn).run(
      `COPY (${jsonlSelectSql(src, columns)}) TO '${path}' (FORMAT parquet, COMPRESSION zstd)`,
    );
  } finally {
    await own?.close();
    rmSync(src, { force: true });
  }
}

/**
 * SQL reading a JSONL file: with `columns` ([name, DuckDB type]) the types are fixed (the store tables),
 * without them DuckDB infers them from every row.
 */
export function jsonlSelectSql(src: string, columns?: [string, string][]): string {
  const schema = columns ? `columns = {${columns.map(([c, t]) => `'${c}': '${t}'`).join(", ")}}` : "sample_size = -1";
  return `SELECT * FROM read_json('${src}', format = 'newline_delimited', ${schema})`;
}

function dropNulls(r: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined));
}

/** Writes a file atomically (temp file in the same folder, then rename): all of it appears, or none. */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  writeChunksAtomic(path, [content]);
}

/** writeFileAtomic for content made of chunks (a report too long for one string). */
export function writeChunksAtomic(path: string, chunks: Iterable<string | Uint8Array>): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, "w");
    // writeFileSync on a descriptor writes at its position until the whole chunk is written.
    for (const chunk of chunks) writeFileSync(fd, chunk);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}
