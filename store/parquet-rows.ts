import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import type { DuckSession } from "./duck-session.js";
import { parquetSource } from "./parquet-source.js";
import type { RawRecord } from "./parse-text.js";
import type { StringPool } from "./string-pool.js";
import { parquetValues } from "./parquet-values.js";
import { TextBlocks } from "./text-blocks.js";

/**
 * The rows of a Parquet file as typed column values, in file order (a text cell costs about
 * 1 µs to bring from DuckDB into JavaScript, a number almost nothing):
 *
 * - numbers and booleans are read from DuckDB's vectors as they are;
 * - text columns with few distinct values (a method, a harness, a task id) come back as codes into a
 *   dictionary read once, each value interned once;
 * - `trajectory_id`, when the trajectories already read are loaded as `ref_trajectories` (id, _idx),
 *   comes back as the position of its trajectory, whose id string is reused (an id no trajectory has
 *   keeps its text, for the reference check to report);
 * - text that is not pooled (ids unique by nature, free text) comes in blocks of 2,048 rows' cells,
 *   each cell cut out by its length (store/text-blocks.ts), in tables of 10,000 rows or more;
 * - other text is read cell by cell; other types (lists, structs, FLOAT, DECIMAL…) as JSON text per
 *   cell, parsed by JSON.parse, as the row-as-JSON reader did before.
 *
 * A null cell is an absent field; BIGINT becomes a number (the schema rejects unsafe integers). Rows
 * carry `interned: true`: every pooled string already is its pool's copy.
 */
export async function* parquetTypedRows(
  duck: DuckSession,
  path: string,
  o: {
    strings: StringPool;
    trajectories?: readonly { trajectory_id: string }[];
    /**
     * Text columns unique by nature in this table, read without pooling: the trajectories' own ids (2 M
     * at 100× the paper, ≈ 3 s and a Map entry each to pool; the tables naming a trajectory read its
     * position and reuse its string, so no other Parquet table asks the pool for them).
     */
    unpooled?: readonly string[];
    /** Called once the rows stream (their first chunk is in). */
    onStreaming?: () => void;
  },
): AsyncIterable<RawRecord[]> {
  const conn = await duck.connect();
  let cells: DuckDBConnection | undefined;
  const from = parquetSource(path, { rowNumbers: true });
  const dictionaries: string[] = [];
  const blocks = new Map<string, TextBlocks>();
  try {
    const plan = await columnPlan(conn, from, o);
    dictionaries.push(...plan.flatMap((c) => (c.dictionary ? [c.dictionary.table] : [])));
    for (const c of plan)
      if (c.kind === "blocks") blocks.set(c.name, await TextBlocks.open(duck, from, quoted(c.name)));
    const result = await conn.stream(selectSql(plan, from));
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      o.onStreaming?.();
      await ensureBlocks(chunk, plan, blocks);
      const records = recordsOf(chunk, plan, o, blocks);
      for (const name of plan.filter((c) => c.kind === "json").map((c) => c.name)) {
        for (const r of records) {
          const text = r.values[name];
          if (typeof text !== "string") continue;
          try {
            r.values[name] = JSON.parse(text);
          } catch {
            // NaN and ±Infinity inside a nested value are not JSON: that cell through DuckDB's own values.
            cells ??= await duck.connect();
            const row = await cells.runAndReadAll(
              `SELECT ${quoted(name)} AS v FROM ${from} WHERE file_row_number = ${r.row! - 1}`,
            );
            r.values[name] = parquetValues(row.getRowObjectsJS()[0]).v;
          }
        }
      }
      yield records;
    }
  } finally {
    for (const table of dictionaries) await conn.run(`DROP TABLE IF EXISTS ${table}`);
    for (const b of blocks.values()) await b.close().catch(() => undefined);
    cells?.closeSync?.();
    conn.closeSync?.();
  }
}

type ColumnPlan = {
  name: string;
  kind: "value" | "text" | "blocks" | "json" | "dictionary" | "trajectory";
  dictionary?: { table: string; values: string[] };
  /** What stands in for a null cell in the select (the null mask says which cells are null). */
  zero?: string;
};

/** Types read from the vectors as they are (FLOAT is not: its JSON text is the float's shortest form). */
const PLAIN_TYPES: Record<string, string> = {
  DOUBLE: "0::DOUBLE",
  BIGINT: "0::BIGINT",
  INTEGER: "0::INTEGER",
  SMALLINT: "0::SMALLINT",
  TINYINT: "0::TINYINT",
  BOOLEAN: "false",
  VARCHAR: "''",
};
/** The null mask is one double, so at most 53 columns (a table of the contract has 11 at most). */
export const TYPED_READ_MAX_COLUMNS = 53;
/** A text column is dictionary-coded when its rows outnumber its distinct values this many times. */
const DICTIONARY_RATIO = 8;
/** Below this many rows every text cell is read as it is (a dictionary costs two queries). */
const DICTIONARY_MIN_ROWS = 10_000;

/** Names the dictionary tables apart within the one database of a read. */
let dictionaryCount = 0;

async function columnPlan(
  conn: DuckDBConnection,
  from: string,
  o: { strings: StringPool; trajectories?: readonly { trajectory_id: string }[]; unpooled?: readonly string[] },
): Promise<ColumnPlan[]> {
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${from}`))
    .getRowObjectsJS()
    .map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  const text = described.filter((c) => c.type === "VARCHAR" && o.strings.isPooled(c.name));
  const distinct = text.map((c) => `, approx_count_distinct(${quoted(c.name)})::DOUBLE`).join("");
  const counts = (await conn.runAndReadAll(`SELECT count(*)::DOUBLE${distinct} FROM ${from}`)).getRows()[0] as number[];
  const rows = counts[0];
  const plan: ColumnPlan[] = [];
  for (const c of described) {
    if (!(c.type in PLAIN_TYPES)) plan.push({ name: c.name, kind: "json" });
    else if (c.type !== "VARCHAR") plan.push({ name: c.name, kind: "value", zero: PLAIN_TYPES[c.type] });
    else if (c.name === "trajectory_id" && o.trajectories) plan.push({ name: c.name, kind: "trajectory" });
    else if (!o.strings.isPooled(c.name) || o.unpooled?.includes(c.name))
      plan.push({ name: c.name, kind: rows >= DICTIONARY_MIN_ROWS ? "blocks" : "text", zero: "''" });
    else {
      const values = counts[1 + text.indexOf(c)];
      const coded = values !== undefined && rows >= DICTIONARY_MIN_ROWS && values * DICTIONARY_RATIO <= rows;
      plan.push(
        coded ? await dictionaryColumn(conn, from, c.name, o.strings) : { name: c.name, kind: "text", zero: "''" },
      );
    }
  }
  return plan;
}

/** A text column's distinct values as a table (value, code) and, in code order, as interned strings. */
async function dictionaryColumn(
  conn: DuckDBConnection,
  from: string,
  name: string,
  strings: StringPool,
): Promise<ColumnPlan> {
  const table = `gcpc_dictionary_${++dictionaryCount}`;
  await conn.run(
    `CREATE TEMP TABLE ${table} AS SELECT v, (row_number() OVER (ORDER BY v) - 1)::INTEGER AS code
     FROM (SELECT DISTINCT ${quoted(name)} AS v FROM ${from} WHERE ${quoted(name)} IS NOT NULL)`,
  );
  const values: string[] = [];
  const result = await conn.stream(`SELECT v FROM ${table} ORDER BY code`);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    const vector = chunk.getColumnVector(0);
    const rows = chunk.rowCount; // a native call: read once, not once per row
    for (let i = 0; i < rows; i++) values.push(strings.intern(name, vector.getItem(i) as string));
  }
  return { name, kind: "dictionary", dictionary: { table, values } };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The select list: the file row, one mask of the null cells (bit k for column k), then one column per
 * planned column (the trajectory's two: its position, and its text when unknown), each with its nulls
 * replaced. Reading a vector that has nulls costs a BigInt test per cell in @duckdb/node-api, so no
 * column but the mask carries one.
 */
function selectSql(plan: ColumnPlan[], from: string): string {
  const mask = plan.map((c, k) => `((f.${quoted(c.name)} IS NULL)::BIGINT << ${k})`).join(" | ");
  const select = ["f.file_row_number", plan.length > 0 ? `(${mask})::DOUBLE` : "0::DOUBLE"];
  const joins: string[] = [];
  for (const c of plan) {
    const cell = `f.${quoted(c.name)}`;
    if (c.kind === "json") select.push(`coalesce(to_json(${cell})::VARCHAR, '')`);
    else if (c.kind === "dictionary") {
      const d = c.dictionary!.table;
      select.push(`coalesce(${d}.code, -1)`);
      joins.push(`LEFT JOIN ${d} ON ${cell} = ${d}.v`);
    } else if (c.kind === "trajectory") {
      select.push("coalesce(r._idx, -1)::INTEGER", `coalesce(${cell}, '')`);
      joins.push(`LEFT JOIN ref_trajectories r ON ${cell} = r.trajectory_id`);
    } else if (c.kind === "blocks") select.push(`strlen(coalesce(${cell}, ''))::INTEGER`);
    else select.push(`coalesce(${cell}, ${c.zero})`);
  }
  return `SELECT ${select.join(", ")} FROM ${from} f ${joins.join(" ")} ORDER BY f.file_row_number`;
}

/** The column vector index of each planned column in a chunk (a trajectory column has two). */
function vectorIndices(plan: ColumnPlan[]): number[] {
  let k = 2;
  return plan.map((c) => {
    const at = k;
    k += c.kind === "trajectory" ? 2 : 1;
    return at;
  });
}

/** Each block-read column's blocks fetched as far as the chunk's cells reach (their lengths summed). */
async function ensureBlocks(chunk: DuckDBDataChunk, plan: ColumnPlan[], blocks: Map<string, TextBlocks>) {
  if (blocks.size === 0) return;
  const at = vectorIndices(plan);
  for (const [j, c] of plan.entries()) {
    if (c.kind !== "blocks") continue;
    const lengths = chunk.getColumnVector(at[j]);
    let bytes = 0;
    const rows = chunk.rowCount; // a native call: read once, not once per row
    for (let i = 0; i < rows; i++) bytes += lengths.getItem(i) as number;
    await blocks.get(c.name)!.ensure(bytes);
  }
}

/** A chunk's rows as records (row = 1-based file row), pooled strings interned. */
function recordsOf(
  chunk: DuckDBDataChunk,
  plan: ColumnPlan[],
  o: { strings: StringPool; trajectories?: readonly { trajectory_id: string }[]; unpooled?: readonly string[] },
  blocks: Map<string, TextBlocks>,
): RawRecord[] {
  const n = chunk.rowCount;
  const records: RawRecord[] = new Array(n);
  const rowNumbers = chunk.getColumnVector(0);
  const maskVector = chunk.getColumnVector(1);
  const masks = Float64Array.from({ length: n }, (_, i) => maskVector.getItem(i) as number);
  for (let i = 0; i < n; i++) records[i] = { values: {}, row: Number(rowNumbers.getItem(i)) + 1, interned: true };
  const at = vectorIndices(plan);
  for (const [j, c] of plan.entries()) {
    const vector = chunk.getColumnVector(at[j]);
    const text = c.kind === "trajectory" ? chunk.getColumnVector(at[j] + 1) : undefined;
    const bit = 2 ** j;
    const pooled = c.kind === "text" && o.strings.isPooled(c.name) && !o.unpooled?.includes(c.name);
    const cut = blocks.get(c.name);
    for (let i = 0; i < n; i++) {
      // The mask holds at most 53 columns' bits exactly (a double); ⌊mask / 2^j⌋ is odd when cell j is null.
      if (Math.floor(masks[i] / bit) % 2 === 1) continue;
      const v = vector.getItem(i);
      let value: unknown;
      if (c.kind === "dictionary") value = c.dictionary!.values[v as number];
      else if (cut) value = cut.take(v as number);
      else if (c.kind === "trajectory")
        value =
          (v as number) >= 0
            ? o.trajectories![v as number].trajectory_id
            : o.strings.intern(c.name, text!.getItem(i) as string);
      else if (pooled) value = o.strings.intern(c.name, v as string);
      else value = typeof v === "bigint" ? Number(v) : v;
      records[i].values[c.name] = value;
    }
  }
  return records;
}
