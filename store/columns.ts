import type { Column, ColumnKind } from "../analysis/schema/columns.js";

/** DuckDB type of each column kind, used to write Parquet with a stable schema. */
const DUCKDB_TYPES: Record<ColumnKind, string> = {
  string: "VARCHAR",
  int: "BIGINT",
  number: "DOUBLE",
  boolean: "BOOLEAN",
  list: "VARCHAR[]",
};

/** [name, DuckDB type] pairs of a table, in contract order. */
export function duckdbColumns(columns: Column[]): [string, string][] {
  return columns.map((c) => [c.name, DUCKDB_TYPES[c.kind]]);
}
