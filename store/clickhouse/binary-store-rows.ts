import { tableColumns } from "../../analysis/schema/columns.js";
import type { TableName } from "../../analysis/schema/tables.js";
import type { BinaryColumn, RowReader } from "./row-binary.js";
import { fromClickhouseValue, ROW_COLUMN } from "./table-layout.js";
import { InternedText } from "./interned-text.js";

const COLUMNS = tableColumns();

/**
 * A store table's RowBinary answer (its contract columns, then `_row`, as stored-tables.ts storedRows selects them)
 * decoded straight into store rows: the fields of table-layout.ts fromClickhouseRow (absent where null, each value
 * by fromClickhouseValue) and each row's `_row` beside them. One object per row: decoding into ClickHouse's row
 * shape and then copying it into the store's made two, and at scale 10 their garbage collection cost about as much
 * as the decoding. `read` decodes one row (connection.ts binaryRead streams the answer to it); `rows` and `at` fill
 * as it does.
 */
export function storeRowsReader(table: TableName, columns: readonly BinaryColumn[]) {
  const kinds = new Map(COLUMNS[table].map((c) => [c.name, c.kind]));
  const plan = columns.map((c) => ({
    column: c,
    kind: kinds.get(c.name),
    interned: c.type === "String" && !c.array ? new InternedText() : undefined,
  }));
  // A list column's JSON text parsed once per distinct text, and that list (frozen: the analyses only read a
  // row's lists) shared by every row that holds it: at scale 100 a copy a row was 485,000 arrays of tags.
  // (Text that is not a list is parsed each time and left to the schema to refuse.)
  const lists = new Map<string, readonly unknown[]>();
  const list = (text: string) => {
    let parsed = lists.get(text);
    if (parsed === undefined) {
      const value = fromClickhouseValue("list", text);
      if (!Array.isArray(value)) return value;
      parsed = Object.freeze(value);
      if (lists.size < 4096) lists.set(text, parsed);
    }
    return parsed;
  };
  const rows: Record<string, unknown>[] = [];
  const at: number[] = [];
  const read: RowReader = (cursor) => {
    const row: Record<string, unknown> = {};
    let position = 0;
    for (const { column, kind, interned } of plan) {
      const v = cursor.value(column, interned);
      if (column.name === ROW_COLUMN) position = v as number;
      else if (v === null) continue;
      else if (kind === "list") row[column.name] = list(v as string);
      else row[column.name] = kind ? fromClickhouseValue(kind, v) : v;
    }
    // Kept only once the row's last value is read (a row cut by a piece's end is read again: RowBinaryPieces).
    rows.push(row);
    at.push(position);
  };
  return { read, rows, at };
}
