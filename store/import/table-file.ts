import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { csvParse, tsvParse } from "d3";
import { InputError } from "../problems.js";

/** A cell of a user's table: what CSV/TSV give (text), or JSONL/Parquet values. Empty and null are absent. */
export type Cell = string | number | boolean | null;

/** A cell's text, trimmed; undefined when it is absent or blank. */
export const cellText = (c: Cell | undefined): string | undefined =>
  c === null || c === undefined ? undefined : String(c).trim() || undefined;

/** A user's table read whole: its columns and rows, each row with where it is (JSONL: line; others: data row). */
export interface UserTable {
  file: string;
  columns: string[];
  rows: { values: Record<string, Cell>; line?: number; row?: number }[];
}

/**
 * A table of per-item grades from any pipeline: CSV, TSV, Parquet or JSONL (one JSON object per line), each
 * optionally gzip-compressed (`.gz`). The format is the file name's (before `.gz`). CSV and TSV cells are
 * text (an empty cell is absent); JSONL and Parquet keep their values' types. CSV/TSV rows are numbered as data
 * rows (the header is not one), JSONL by file line, Parquet by row.
 */
export async function readUserTable(file: string): Promise<UserTable> {
  const name = file.toLowerCase().replace(/\.gz$/, "");
  const gz = file.toLowerCase().endsWith(".gz");
  if (name.endsWith(".parquet")) {
    if (gz) throw new InputError(`${file}: a gzip-compressed Parquet file is not read (Parquet compresses itself)`);
    return parquetTable(file);
  }
  const format = name.endsWith(".csv")
    ? "csv"
    : name.endsWith(".tsv")
      ? "tsv"
      : /\.(jsonl|ndjson)$/.test(name)
        ? "jsonl"
        : undefined;
  if (!format) throw new InputError(`${file}: not a .csv, .tsv, .jsonl or .parquet file (optionally .gz)`);
  let bytes: Buffer = readFileSync(file);
  if (gz) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      throw new InputError(`${file}: not a gzip file (${(e as Error).message})`);
    }
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw new InputError(`${file}: not UTF-8 text`);
  }
  return format === "jsonl" ? jsonlTable(file, text) : delimitedTable(file, text, format);
}

function delimitedTable(file: string, text: string, format: "csv" | "tsv"): UserTable {
  const parsed = (format === "csv" ? csvParse : tsvParse)(text);
  if (parsed.columns.length === 0) throw new InputError(`${file}: no header row`);
  const rows = parsed.map((r, i) => ({
    values: Object.fromEntries(parsed.columns.map((c) => [c, r[c] === undefined || r[c] === "" ? null : r[c]!])),
    row: i + 1,
  }));
  return { file, columns: parsed.columns, rows };
}

function jsonlTable(file: string, text: string): UserTable {
  const columns = new Set<string>();
  const rows: UserTable["rows"] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new InputError(`${file}, line ${i + 1}: not valid JSON (${(e as Error).message})`);
    }
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new InputError(`${file}, line ${i + 1}: expected a JSON object`);
    const values: Record<string, Cell> = {};
    for (const [k, v] of Object.entries(value)) {
      columns.add(k);
      if (v !== null && typeof v === "object")
        throw new InputError(`${file}, line ${i + 1}, column "${k}": a list or object is not a cell value`);
      values[k] = v === "" ? null : (v as Cell);
    }
    rows.push({ values, line: i + 1 });
  }
  return { file, columns: [...columns], rows };
}

async function parquetTable(file: string): Promise<UserTable> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const literal = `'${file.replaceAll("'", "''")}'`;
    const described = (
      await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${literal})`)
    ).getColumnsObjectJS();
    const columns = described.column_name as string[];
    const result = await conn.runAndReadAll(`SELECT to_json(t)::VARCHAR FROM read_parquet(${literal}) t`);
    const rows = result.getRows().map(([json], i) => {
      const values: Record<string, Cell> = {};
      for (const [k, v] of Object.entries(JSON.parse(String(json)) as Record<string, unknown>)) {
        if (v !== null && typeof v === "object")
          throw new InputError(`${file}, row ${i + 1}, column "${k}": a list or struct is not a cell value`);
        values[k] = v === "" ? null : (v as Cell);
      }
      return { values, row: i + 1 };
    });
    return { file, columns, rows };
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${file}: not a readable Parquet file (${(e as Error).message})`);
  } finally {
    conn.closeSync();
  }
}
