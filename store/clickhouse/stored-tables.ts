import type { TableName } from "../../analysis/schema/tables.js";
import { sqlString, type ClickhouseConnection } from "./connection.js";
import { InputError } from "../problems.js";
import { binaryColumn } from "./row-binary.js";
import { storeRowsReader } from "./binary-store-rows.js";
import { storeOrder } from "./row-order.js";
import { tableColumns } from "../../analysis/schema/columns.js";
import { columnTypes, MANIFEST_TABLE, ROW_COLUMN, TASK_COLUMN } from "./table-layout.js";

/** The tables of database `db` (what a copy must not clash with, what a read finds). */
export async function tablesIn(conn: ClickhouseConnection, db: string): Promise<Set<string>> {
  const rows = await conn.rows<{ name: string }>(`SELECT name FROM system.tables WHERE database = ${sqlString(db)}`);
  return new Set(rows.map((r) => r.name));
}

/**
 * A store table's rows (table-layout.ts fromClickhouseRow's store rows) and their `_row`, in store order, read as
 * RowBinary
 * (issue 57.5: as JSONEachRow the trajectories of the scale-10 store were 17 MB of text). The columns are decoded
 * by the types the server reports for them, not the ones this version would write, so a table written otherwise
 * fails with its column's name instead of decoding into wrong values.
 */
export async function storedRows(conn: ClickhouseConnection, db: string, table: TableName) {
  const types = new Map(
    (
      await conn.rows<{ name: string; type: string }>(
        `SELECT name, type FROM system.columns WHERE database = ${sqlString(db)} AND table = ${sqlString(table)}`,
      )
    ).map((c) => [c.name, c.type]),
  );
  // A copy written before a column was added to the contract (items.points) lacks it: an optional column the
  // table does not hold is read as absent on every row.
  const optional = new Set(
    tableColumns()
      [table].filter((c) => !c.required)
      .map((c) => c.name),
  );
  const columns = columnTypes(table)
    .filter(([name]) => name !== TASK_COLUMN && (types.has(name) || !optional.has(name)))
    .map(([name]) => {
      const type = types.get(name);
      if (type === undefined) throw new InputError(`${db}.${table}: the table has no column "${name}"`);
      const column = /^(Nullable\()?(String|Int64|UInt64|Float64|UInt8)\)?$/.test(type) && binaryColumn(name, type);
      if (!column) throw new InputError(`${db}.${table}: column "${name}" is ${type}, not a type gcpc copy writes`);
      return column;
    });
  // Put in order here, not by the server: on the scale-10 store ORDER BY took 0.21 s of the server's 0.07 s read
  // of the method scores, and a copy's `_row`s are 0 … n − 1, so each row's place is its `_row` (storeOrder).
  const select = columns.map((c) => (c.name === ROW_COLUMN ? c.name : `\`${c.name}\``)).join(", ");
  const { rows, at } = await conn.binaryRead(`SELECT ${select} FROM ${db}.${table}`, () => {
    const decoder = storeRowsReader(table, columns);
    return { read: decoder.read, result: () => decoder };
  });
  return inStoreOrder(rows, at);
}

/** The rows and their `_row`s put in store order (by `_row`), into arrays made at their length. */
function inStoreOrder<T>(rows: readonly T[], at: readonly number[]): { rows: T[]; at: number[] } {
  const order = storeOrder(at);
  const n = order.length;
  const ordered = { rows: new Array<T>(n), at: new Array<number>(n) };
  for (let k = 0; k < n; k++) {
    ordered.rows[k] = rows[order[k]];
    ordered.at[k] = at[order[k]];
  }
  return ordered;
}

/** The texts of the manifest table's rows (a store has exactly one). */
export async function manifestTexts(conn: ClickhouseConnection, db: string): Promise<string[]> {
  return (await conn.rows<{ manifest: string }>(`SELECT manifest FROM ${db}.${MANIFEST_TABLE}`)).map((r) => r.manifest);
}

/**
 * Each table of `db` and the table that holds its rows on a shard: the shard table a Distributed table names
 * (`Distributed(cluster, db, table_local_TOKEN, key)`), or the table itself on one server. A query that starts
 * from a Distributed table runs on every shard, and a join or IN on a shard table there reads that shard's rows
 * only: the rows of one task, which the layout keeps on one shard (issue 57.5). With it, the clusters the
 * Distributed tables spread over (none for a store on one server).
 */
export async function storeTables(
  conn: ClickhouseConnection,
  db: string,
): Promise<{ shard: Map<string, string>; clusters: string[] }> {
  const rows = await conn.rows<{ name: string; engine: string; engine_full: string }>(
    `SELECT name, engine, engine_full FROM system.tables WHERE database = ${sqlString(db)}`,
  );
  const clusters = new Set<string>();
  const shard = new Map(
    rows.map((r) => {
      const named =
        r.engine === "Distributed"
          ? /^Distributed\(\s*'?([^',\s]+)'?,\s*[^,]+,\s*'?([^',\s)]+)/.exec(r.engine_full)
          : null;
      if (named) clusters.add(named[1]);
      return [r.name, named ? named[2] : r.name];
    }),
  );
  return { shard, clusters: [...clusters] };
}
