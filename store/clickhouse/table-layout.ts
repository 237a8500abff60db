import { tableColumns, type Column } from "../../analysis/schema/columns.js";
import type { TableName } from "../../analysis/schema/tables.js";

/**
 * How a store's tables sit in a ClickHouse database (`gcpc copy` writes it, the ClickHouse reader reads it):
 * - `gcpc_manifest`: one row, `manifest` (store.json's text); a database without it holds no store;
 * - one table per contract table the store has, named as the table, with the contract's columns and two
 *   more: `_row` (the row's position in the store, so every read keeps the folder's row order; ClickHouse
 *   keeps none) and `_task` (the task the row belongs to: its own task_id, its trajectory's for the tables
 *   naming a trajectory, "" for the rest), the sharding key of a cluster copy, so a task's rows sit together.
 * Types: text String, integers Int64, numbers Float64, booleans UInt8, lists their JSON text; a contract
 * field that may be absent is Nullable.
 */
export const MANIFEST_TABLE = "gcpc_manifest";

export const ROW_COLUMN = "_row";
export const TASK_COLUMN = "_task";

/** The contract's columns per table, computed once (a read converts millions of rows with them). */
const COLUMNS = tableColumns();

const TYPE_OF_KIND: Record<Column["kind"], string> = {
  string: "String",
  int: "Int64",
  number: "Float64",
  boolean: "UInt8",
  list: "String",
};

/** Each column of a table as ClickHouse holds it: its name and type, the contract's columns then `_row`, `_task`. */
export function columnTypes(table: TableName): [string, string][] {
  const cols = COLUMNS[table].map((c): [string, string] => {
    const type = TYPE_OF_KIND[c.kind];
    return [c.name, c.required ? type : `Nullable(${type})`];
  });
  return [...cols, [ROW_COLUMN, "UInt64"], [TASK_COLUMN, "String"]];
}

/** The column list of a CREATE TABLE (names quoted: `group` is a keyword). */
export const columnDefinitions = (columns: [string, string][]): string =>
  columns.map(([name, type]) => `\`${name}\` ${type}`).join(", ");

/** The manifest table's columns. */
export const MANIFEST_COLUMNS: [string, string][] = [
  ["manifest", "String"],
  [ROW_COLUMN, "UInt64"],
  [TASK_COLUMN, "String"],
];

/** A store row as the ClickHouse table holds it (every column present; null where absent). */
export function toClickhouseRow(
  table: TableName,
  row: Record<string, unknown>,
  position: number,
  task: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS[table]) {
    const v = row[c.name];
    if (v === undefined || v === null) out[c.name] = null;
    else if (c.kind === "list") out[c.name] = JSON.stringify(v);
    else if (c.kind === "boolean") out[c.name] = v ? 1 : 0;
    else out[c.name] = v;
  }
  out[ROW_COLUMN] = position;
  out[TASK_COLUMN] = task;
  return out;
}

/** A row read back from ClickHouse as the store row it was (absent fields absent, not null). */
export function fromClickhouseRow(table: TableName, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of COLUMNS[table]) {
    const v = row[c.name];
    if (v === undefined || v === null) continue;
    out[c.name] = fromClickhouseValue(c.kind, v);
  }
  return out;
}

/**
 * A non-null value as ClickHouse holds it, as the store holds it: a list from its JSON text, a boolean from 0/1, an
 * integer from its text (JSON's Int64 arrives as text: its numbers stop at 2^53) or its number (RowBinary's).
 */
export function fromClickhouseValue(kind: Column["kind"], v: unknown): unknown {
  if (kind === "list") return JSON.parse(String(v));
  if (kind === "boolean") return Number(v) === 1;
  if (kind === "int") return Number(v);
  return v;
}

/** Every column of a table's SELECT, the contract's and `_row` (quoted: `group` is a keyword). */
export const selectColumns = (table: TableName): string =>
  [...COLUMNS[table].map((c) => `\`${c.name}\``), ROW_COLUMN].join(", ");
