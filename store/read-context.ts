// What one reading pass of a store shares between its steps: where problems go, the DuckDB database the
// Parquet files and the judgments table live in, and what the trajectories' read left for the other tables.
import type { StringPool } from "./string-pool.js";
import { join } from "node:path";
import { openDuckSession, type CloseOptions, type DuckSession } from "./duck-session.js";
import type { TableName, Trajectory } from "../analysis/schema/tables.js";
import type { Column, TableSchemas } from "../analysis/schema/columns.js";
import type { Problem } from "./problems.js";
import { JUDGMENTS_DDL, loadTrajectoryReference } from "./judgment-table.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import { tmpdir } from "node:os";
import type { JudgmentLoad } from "./early-judgments.js";
import type { JudgmentPass } from "./judgment-pass.js";
import {
  refTrajectoryIdsUnique,
  trajectoryOrderFromFile,
  trajectoryReferenceFromFile,
} from "./trajectory-reference.js";
import type { TrajectoryOrder } from "../analysis/schema/trajectory-order.js";
import type { MethodScoreColumns } from "../analysis/schema/method-score-columns.js";

/**
 * What a read is asked to do, fixed before its first table is read (the manifest is read first): where
 * problems go, the schemas, the primary judge, whether evidence is kept. No stage changes it.
 */
export interface ReadSettings {
  readonly dir: string;
  readonly add: (p: Problem) => void;
  readonly columns: Record<TableName, Column[]>;
  readonly schemas: TableSchemas;
  /** Shared copies of repeated string values across every table of the read (store/string-pool.ts). */
  readonly strings: StringPool;
  /** The primary judge (store.json), which normalises the judgments' keys. */
  readonly primaryJudge: string;
  /** Whether the judgments' evidence is kept (ReadStoreOptions.evidence). */
  readonly evidence: boolean;
  /** The store's table files' total size in bytes (a small store is read on one thread: SMALL_STORE_BYTES). */
  readonly bytes?: number;
}

/** The read's DuckDB database (store/duck-session.ts) and the connection holding its judgments table. */
export interface ReadDatabase {
  /** Created on first use; a promise, so that two steps asking at once (the early judgments) share one. */
  duck?: Promise<DuckSession & { close(options?: CloseOptions): Promise<void> }>;
  /** The connection holding the judgments table (created when the store has one). */
  judgments?: DuckDBConnection;
}

/** What a stage leaves for the later ones: each field is written by one stage and read after it. */
export interface ReadHandoffs {
  /** The valid trajectories, once read (the first table read). */
  trajectories?: Trajectory[];
  /** Whether they are loaded as ref_trajectories (for the other tables' Parquet read), and with unique ids. */
  trajectoryReference?: "unique" | "repeated";
  /** method_scores.parquet read as columns (store/method-score-table.ts), when nothing in it is to report. */
  methodScoreColumns?: MethodScoreColumns;
  /** judgments.parquet, loading in DuckDB since the trajectories began to stream (store/early-judgments.ts). */
  judgmentLoad?: Promise<JudgmentLoad>;
  /** Starts that load (once; nothing when there is none to start). Set by the stage that plans it. */
  startJudgmentLoad: () => void;
  /** The judgments' duplicate screen (duplicateScreen), when it ran with the load. */
  judgmentRepeats?: number;
  /** The judgments' one-pass check and label vectors, when they held (store/judgment-pass.ts). */
  judgmentPass?: JudgmentPass;
  /** The trajectories' id order, computed in DuckDB while the next table is read (trajectoriesInDuckDB). */
  trajectoryOrder?: Promise<TrajectoryOrder | undefined>;
  /** The same, once that table is read. */
  order?: TrajectoryOrder;
}

/** One reading pass: its fixed settings, its database, and what its stages hand on to each other. */
export interface ReadContext extends ReadSettings, ReadDatabase, ReadHandoffs {}

/**
 * DuckDB's buffer pool while reading. Its default, 80% of RAM, let the judgments table of a large store
 * stay resident beside the JavaScript heap: at 100× the paper the read peaked at 5.6 GiB. Capped, the
 * table spills to the temp folder: 3.0 GiB, and 109 → 120 s; at scale 100, 1.37 → 1.25 GiB at the same
 * speed (docs/scaling.md).
 */
const READ_MEMORY_LIMIT = "512MB";

/** Where the read's databases spill, and their buffer pool limit. */
export const DUCKDB_TEMP = { temp: join(tmpdir(), "gcpc-duckdb"), memoryLimit: READ_MEMORY_LIMIT };

/**
 * A store under 8 MiB is read on one DuckDB thread. On the bundled example store a second thread only
 * waited for work: validating it took 36 ms of CPU and 32 ms with DuckDB's default of one thread per core,
 * 26 ms and 26 ms with one (the mean of 80 in-process validates, 2-core machine). Larger stores keep
 * the default, where the second thread reads Parquet and sorts the judgments in parallel.
 */
export const SMALL_STORE_BYTES = 8 * 1024 * 1024;

/**
 * The one DuckDB database of a reading pass (Parquet files, the judgments table): in memory, in the
 * process's shared instance (store/duck-session.ts), spilling to the OS temp folder when large. Created on
 * first use, and only once: the judgments' load and the first table's read ask for it at once (two
 * databases would not see each other's tables).
 */
export async function duckOf(ctx: ReadDatabase & Pick<ReadSettings, "bytes">): Promise<DuckSession> {
  const small = ctx.bytes !== undefined && ctx.bytes < SMALL_STORE_BYTES;
  ctx.duck ??= openDuckSession({
    temp_directory: DUCKDB_TEMP.temp,
    memory_limit: DUCKDB_TEMP.memoryLimit,
    ...(small ? { threads: "1" } : {}),
  });
  return ctx.duck;
}

/** The connection holding the judgments table. */
export async function judgmentsConnection(ctx: ReadDatabase): Promise<DuckDBConnection> {
  const conn = await (await duckOf(ctx)).connect();
  await conn.run(JUDGMENTS_DDL);
  ctx.judgments = conn;
  return conn;
}

/**
 * A trajectories.parquet whose rows were all valid: ref_trajectories loaded from the file, and, when its ids
 * are unique, their order computed meanwhile (store/trajectory-reference.ts). On any failure nothing is kept
 * and trajectoryReference loads the rows read, as for the other formats.
 */
export async function trajectoriesInDuckDB(ctx: ReadDatabase & ReadHandoffs, path: string): Promise<void> {
  const duck = await duckOf(ctx);
  const conn = await duck.connect();
  try {
    ctx.trajectoryReference = (await trajectoryReferenceFromFile(conn, path)) ? "unique" : "repeated";
  } catch {
    await conn.run("DROP TABLE IF EXISTS ref_trajectories").catch(() => undefined);
    conn.closeSync?.();
    return;
  }
  if (ctx.trajectoryReference === "repeated") {
    conn.closeSync?.();
    return;
  }
  ctx.trajectoryOrder = trajectoryOrderFromFile(conn, path)
    .catch(() => undefined)
    .finally(() => conn.closeSync?.());
}

/**
 * The trajectories read, loaded once as ref_trajectories; undefined when there are none or an id repeats
 * (a join would then repeat rows; the repeat is reported by the key check).
 */
export async function trajectoryReference(ctx: ReadHandoffs, duck: DuckSession): Promise<Trajectory[] | undefined> {
  if (ctx.trajectoryReference === undefined && ctx.trajectories) {
    const conn = await duck.connect();
    try {
      await loadTrajectoryReference(conn, ctx.trajectories);
      ctx.trajectoryReference = (await refTrajectoryIdsUnique(conn)) ? "unique" : "repeated";
    } finally {
      conn.closeSync?.();
    }
  }
  return ctx.trajectoryReference === "unique" ? ctx.trajectories : undefined;
}

/** A Parquet file DuckDB cannot read: the problem names the file and DuckDB's first line. */
export function cannotReadParquet(file: string, e: unknown): Problem {
  return { file, message: `cannot read Parquet: ${(e as Error).message.split("\n")[0]}` };
}
