import type { DuckDBConnection } from "@duckdb/node-api";
import { openDuckSession, type CloseOptions } from "./duck-session.js";
import type { LabelVectors } from "../analysis/schema/label-vectors.js";
import { invalidJudgmentSql } from "./judgment-table.js";
import {
  createJudgeCodes,
  longestChecklist,
  PACKED_CODE_SQL,
  PACKED_ITEMS,
  packedRunsSql,
  placedJudgmentsSql,
  startPackedStream,
  type PackedRunsUnderWay,
} from "./label-vector-query.js";
import { parquetSource } from "./parquet-source.js";
import type { StringPool } from "./string-pool.js";

/**
 * The judgments of a store whose trajectories, items and judgments are Parquet files, checked and grouped
 * into packed label runs in one pass over judgments.parquet, before JavaScript has read any table
 *. The pass reads the three files as they are: a trajectory's position is its file row, an
 * item's checklist position its row among its task's. That is what the read gives when every row of those
 * tables is valid, so the caller uses the pass only for a store the read finds nothing wrong with.
 *
 * Every run counts its judgments, the distinct items they judge and the rows the contract rejects
 * (invalidJudgmentSql). The pass holds when every row joined a trajectory and an item of its task (the
 * runs' judgments add up to the file's rows; trajectory ids and item keys are unique, so none joined
 * twice), no key repeats (a run judges as many items as it has judgments: the key is trajectory, item,
 * normalised judge and run, contract rule 13) and no row is invalid. Otherwise the read loads the
 * judgments table and checks it row by row as before (store/judgment-table.ts), which names each problem;
 * the pass only says there is none.
 *
 * When it holds, the row-by-row checks would find no problem of the judgments' own even if another table
 * has some: no row is invalid and no key repeats, and a reference is checked only against a table read
 * whole (a trajectory row that failed validation leaves the trajectories unchecked, not the judgment
 * naming it unknown), where the file's rows are the rows read.
 *
 * The table path loaded 3.8 M rows into DuckDB, screened their keys for repeats, joined them for
 * references and again for the label vectors: 5.3 s of CPU at scale 100; the pass takes 1.5–2 s.
 */
export interface JudgmentPass {
  /** Rows of judgments.parquet: all valid, referenced and of distinct keys. */
  rows: number;
  /** Label vectors of the `trajectories` read (the rows of trajectories.parquet, in its order). */
  labelVectors(
    trajectories: readonly { trajectory_id: string }[],
    strings: StringPool,
  ): Promise<{ finish(): Promise<LabelVectors>; abandon(): Promise<void> }>;
  /** Frees the pass's database (once; later calls do nothing). */
  close(options?: CloseOptions): Promise<void>;
}

export interface JudgmentPassFiles {
  judgments: string;
  trajectories: string;
  items: string;
  primaryJudge: string;
  /** The judgments' required columns (the row schema's): without one, the row-by-row read reports it. */
  required: readonly string[];
  /** DuckDB's spill folder and buffer pool limit, as for the read's own database. */
  temp: string;
  memoryLimit: string;
}

/** The pass, or undefined when it does not apply or does not hold (the read then checks row by row). */
export async function judgmentPass(files: JudgmentPassFiles): Promise<JudgmentPass | undefined> {
  // An instance of its own (shared by the process's passes, store/duck-session.ts): the joins must run in
  // the order written (see placedSql), and DuckDB sets that only for a whole instance, while the read's
  // database runs other queries meanwhile.
  const duck = await openDuckSession({
    temp_directory: files.temp,
    memory_limit: files.memoryLimit,
    disabled_optimizers: "join_order",
  });
  let closed = false;
  const close = async (options?: CloseOptions) => {
    if (closed) return;
    closed = true;
    conn?.closeSync?.();
    await duck.close(options).catch(() => undefined);
  };
  let conn: DuckDBConnection | undefined;
  try {
    conn = await duck.connect();
    const pass = await passRows(conn, files);
    if (pass === undefined) {
      close();
      return undefined;
    }
    const { rows, judges } = pass;
    const held = conn;
    return {
      rows,
      labelVectors: async (trajectories, strings) => {
        const sql = "SELECT idx, judge, run, n, lo, hi FROM packed_runs ORDER BY first_loc";
        const packed: PackedRunsUnderWay = await startPackedStream(held, sql, {}, judges, trajectories, strings);
        return { finish: () => packed.finish(rows), abandon: packed.abandon };
      },
      close,
    };
  } catch {
    // A file DuckDB cannot read, or columns of unexpected types: the row-by-row read reports it.
    close();
    return undefined;
  }
}

/** Groups the judgments into packed_runs; the file's rows and the judges by code, when the pass holds. */
async function passRows(
  conn: DuckDBConnection,
  files: JudgmentPassFiles,
): Promise<{ rows: number; judges: string[] } | undefined> {
  const judgments = parquetSource(files.judgments, { rowNumbers: true });
  const plain = parquetSource(files.judgments, { rowNumbers: false });
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${plain}`)).getColumnsObjectJS() as Record<
    string,
    string[]
  >;
  const types = new Map(described.column_name.map((c, i) => [c, described.column_type[i]]));
  // Names the pass itself uses, and the contract's required columns: the row-by-row read reports these.
  if (types.has("file_row_number") || types.has("_loc")) return undefined;
  // Grades (schema_version 2) do not pack into two bits: the row-by-row read places them.
  if (types.has("grade")) return undefined;
  if (!["trajectory_id", "item_id", "label", ...files.required].every((c) => types.has(c))) return undefined;
  if ((await longestChecklist(conn, parquetSource(files.items, { rowNumbers: false }))) > PACKED_ITEMS)
    return undefined;
  // With a repeated trajectory id or item key a judgment would join twice, and the count below could
  // balance a row that joined nothing.
  if (
    !(await unique(conn, files.trajectories, "trajectory_id")) ||
    !(await unique(conn, files.items, "task_id, item_id"))
  )
    return undefined;
  const total = await count(conn, `SELECT count(*) FROM ${judgments}`);
  if (total === 0) return undefined;
  const judge = types.has("judge") ? "judge" : "NULL::VARCHAR AS judge";
  const judges = await createJudgeCodes(conn, `SELECT ${judge} FROM ${judgments}`, files.primaryJudge);
  await conn.run(
    `CREATE TEMP TABLE packed_runs AS WITH ${placedSql(files, types)}, ${packedRunsSql(true)}
     SELECT * FROM packed`,
    { primary: files.primaryJudge },
  );
  const check = (
    await conn.runAndReadAll(
      `SELECT coalesce(sum(judged), 0)::BIGINT AS judged, count_if(judged <> distinct_items)::BIGINT AS repeats,
              coalesce(sum(bad), 0)::BIGINT AS bad FROM packed_runs`,
    )
  ).getColumnsObjectJS() as Record<string, bigint[]>;
  const holds = Number(check.judged[0]) === total && check.repeats[0] === 0n && check.bad[0] === 0n;
  return holds ? { rows: total, judges } : undefined;
}

/**
 * The CTE `placed` of packedRunsSql, straight from the files (placedJudgmentsSql over them): each judgment
 * with its trajectory's file row (_idx), its normalised judge and run, its 1-based row (_loc), its item's
 * checklist position k and size n, its label's code, and whether the contract rejects it or the packed codes
 * cannot hold it (`bad`: NotApplicable, schema_version 2; then the pass does not hold). The
 * joins run in the order written (judgments ⋈ trajectories ⋈ items, each hash table built on the smaller
 * side): DuckDB's join-order optimizer joined the trajectories to every item of their task first
 * (store/judgment-table.ts), 1.5 → 5 s of CPU at scale 100.
 */
function placedSql(files: JudgmentPassFiles, types: Map<string, string>): string {
  const has = (c: string) => types.has(c);
  const judged = `judged AS (
       SELECT trajectory_id, item_id, label, ${has("run") ? "TRY_CAST(run AS BIGINT)" : "NULL::BIGINT"} AS run,
              ${has("judge") ? "judge" : "NULL::VARCHAR"} AS judge, file_row_number + 1 AS _loc,
              (${invalidJudgmentSql(types)} OR label = 'NotApplicable') AS bad
       FROM ${parquetSource(files.judgments, { rowNumbers: true })})`;
  const trajectories = `file_trajectories AS (SELECT trajectory_id, task_id, file_row_number AS _idx
       FROM ${parquetSource(files.trajectories, { rowNumbers: true })})`;
  const placed = placedJudgmentsSql(`${PACKED_CODE_SQL}, j.bad`, "", {
    judgments: "judged",
    trajectories: "file_trajectories",
    items: parquetSource(files.items, { rowNumbers: true }),
    itemOrder: "file_row_number",
  });
  return `${judged}, ${trajectories}, ${placed}`;
}

/** Whether no two rows of a file share `key` (NULLs included: the read reports those). */
async function unique(conn: DuckDBConnection, path: string, key: string): Promise<boolean> {
  const from = parquetSource(path, { rowNumbers: false });
  const distinct = await count(conn, `SELECT count(*) - count(DISTINCT (${key})) FROM ${from}`);
  return distinct === 0;
}

async function count(conn: DuckDBConnection, sql: string): Promise<number> {
  const rows = (await conn.runAndReadAll(sql)).getRows();
  return Number(rows[0][0]);
}
