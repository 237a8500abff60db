import { tableColumns } from "../../analysis/schema/columns.js";
import type { TableName } from "../../analysis/schema/tables.js";
import { type BinaryColumn, Cursor } from "./row-binary.js";
import { fromClickhouseValue, ROW_COLUMN } from "./table-layout.js";

const COLUMNS = tableColumns();

/**
 * A store table's RowBinary answer (its contract columns, then `_row`, as stored-tables.ts storedRows selects them)
 * decoded straight into store rows: the fields of table-layout.ts fromClickhouseRow (absent where null, each value
 * by fromClickhouseValue) and each row's `_row` beside them. One object per row: decoding into ClickHouse's row
 * shape and then copying it into the store's made two, and at scale 10 their garbage collection cost about as much
 * as the decoding.
 */
export function storeRowsOfRowBinary(
  table: TableName,
  columns: readonly BinaryColumn[],
  body: Buffer,
): { rows: Record<string, unknown>[]; at: number[] } {
  const kinds = new Map(COLUMNS[table].map((c) => [c.name, c.kind]));
  const plan = columns.map((c) => ({ column: c, kind: kinds.get(c.name) }));
  const rows: Record<string, unknown>[] = [];
  const at: number[] = [];
  const cursor = new Cursor(body);
  while (cursor.offset < body.length) {
    const row: Record<string, unknown> = {};
    for (const { column, kind } of plan) {
      const v = cursor.value(column);
      if (column.name === ROW_COLUMN) at.push(v as number);
      else if (v !== null) row[column.name] = kind ? fromClickhouseValue(kind, v) : v;
    }
    rows.push(row);
  }
  return { rows, at };
}
