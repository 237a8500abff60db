import type { TableName } from "../../analysis/schema/tables.js";
import { sqlString, type ClickhouseConnection } from "./connection.js";
import { MANIFEST_TABLE, ROW_COLUMN, selectColumns } from "./table-layout.js";

/** The tables of database `db` (what a copy must not clash with, what a read finds). */
export async function tablesIn(conn: ClickhouseConnection, db: string): Promise<Set<string>> {
  const rows = await conn.rows<{ name: string }>(`SELECT name FROM system.tables WHERE database = ${sqlString(db)}`);
  return new Set(rows.map((r) => r.name));
}

/** A store table's rows as ClickHouse holds them (contract columns and `_row`), in store order. */
export function storedRows(conn: ClickhouseConnection, db: string, table: TableName) {
  return conn.rows(`SELECT ${selectColumns(table)} FROM ${db}.${table} ORDER BY ${ROW_COLUMN}`);
}

/** The texts of the manifest table's rows (a store has exactly one). */
export async function manifestTexts(conn: ClickhouseConnection, db: string): Promise<string[]> {
  return (await conn.rows<{ manifest: string }>(`SELECT manifest FROM ${db}.${MANIFEST_TABLE}`)).map((r) => r.manifest);
}
