import { StringPool } from "./string-pool.js";
import { parquetSource } from "./parquet-source.js";
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import {
  Manifest,
  SCHEMA_VERSION,
  REQUIRED_TABLES,
  TABLE_NAMES,
  TABLE_SCHEMAS,
  type MethodScore,
  type TableName,
  type Task,
  type Trajectory,
  type VerifierResult,
} from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/store.js";
import type { FrameTables } from "../analysis/rq/trajectory-frame.js";
import { tableColumns, type Column, type ColumnKind, type TableSchemas } from "../analysis/schema/columns.js";
import { decodeUtf8, parseCsv, parseJsonl, type RawRecord } from "./parse-text.js";
import { ProblemList, StoreValidationError, type Problem } from "./problems.js";
import { checkReferences, RowLocations } from "./check-references.js";
import { parquetValues } from "./parquet-values.js";
import {
  JUDGMENTS_DDL,
  judgmentProblems,
  startLabelVectors,
  type LabelVectorsUnderWay,
  loadRecordJudgments,
  loadReferenceTables,
  loadTrajectoryReference,
} from "./judgment-table.js";
import { parquetTypedRows, TYPED_READ_MAX_COLUMNS } from "./parquet-rows.js";
import { fastTrajectory } from "./fast-rows.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import { tmpdir } from "node:os";
import { DEFAULT_JUDGE } from "../analysis/schema/tables.js";
import { parquetMethodScoreColumns } from "./method-score-table.js";
import { loadJudgmentsAhead, type JudgmentLoad } from "./early-judgments.js";
import type { JudgmentPass } from "./judgment-pass.js";
import {
  refTrajectoryIdsUnique,
  trajectoryOrderFromFile,
  trajectoryReferenceFromFile,
} from "./trajectory-reference.js";
import type { TrajectoryOrder } from "../analysis/schema/trajectory-order.js";
import type { MethodScoreColumns } from "../analysis/schema/method-score-columns.js";

export interface ReadStoreOptions {
  maxProblems?: number;
  /** Progress of the slow steps (the CLI prints it on a terminal). */
  onProgress?: (step: string) => void;
  /** Allow a store without judgments (documented extension for outcome-only imports). */
  allowMissingJudgments?: boolean;
  /** Row schemas to validate against: the contract's by default (a test extends one to show the single source). */
  schemas?: TableSchemas;
  /** Carry the judge's evidence per item in the label vectors (the site's explorer shows it). */
  evidence?: boolean;
  /** Judgments per bucket when building label vectors (store/judgment-table.ts); tests set small ones. */
  labelBucketJudgments?: number;
  /**
   * false: check an all-Parquet store's judgments row by row even where the one pass applies
   * (store/judgment-pass.ts); tests compare the two.
   */
  judgmentPass?: boolean;
  /**
   * Called once the tables of a trajectory frame (analysis/rq/trajectory-frame.ts) are read without a
   * problem, before the judgments: the same arrays the returned store will hold. The store may still
   * fail validation afterwards; the CLI starts intervals from them meanwhile.
   */
  onFrameTables?: (tables: FrameTables) => void;
}

export interface ReadStoreResult {
  store: Store;
  files: Record<string, string>;
  warnings: string[];
  rows: Record<string, number>;
}

/** Everything one reading pass needs: where problems go and which tables could not be read. */
interface ReadContext {
  dir: string;
  add: (p: Problem) => void;
  columns: Record<TableName, Column[]>;
  schemas: TableSchemas;
  /** Created on first use; a promise, so that two steps asking at once (the early judgments) share one. */
  duck?: Promise<DuckDBInstance>;
  /** The connection holding the judgments table (created when the store has one). */
  judgments?: DuckDBConnection;
  /** Shared copies of repeated string values across every table of the read (store/string-pool.ts). */
  strings: StringPool;
  /** The valid trajectories, once read (the first table read). */
  trajectories?: Trajectory[];
  /** Whether they are loaded as ref_trajectories (for the other tables' Parquet read), and with unique ids. */
  trajectoryReference?: "unique" | "repeated";
  /** method_scores.parquet read as columns (store/method-score-table.ts), when nothing in it is to report. */
  methodScoreColumns?: MethodScoreColumns;
  /** The primary judge (store.json), which normalises the judgments' keys. */
  primaryJudge: string;
  /** Whether the judgments' evidence is kept (ReadStoreOptions.evidence). */
  evidence: boolean;
  /** judgments.parquet, loading in DuckDB since the trajectories began to stream (store/early-judgments.ts). */
  judgmentLoad?: Promise<JudgmentLoad>;
  /** Starts that load (once; nothing when there is none to start). */
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

interface TableRows {
  valid: unknown[];
  locations: RowLocations;
  complete: boolean;
  /** Valid rows, when they are not held in `valid` (judgments stay in DuckDB). */
  rows?: number;
}

/**
 * Reads and validates a verdict store folder (docs/verdict-store.md).
 * JSONL and CSV are parsed in TypeScript so every problem names its exact
 * line; Parquet is read through DuckDB (@duckdb/node-api). All rows are
 * validated with the zod schemas, then keys and references are checked.
 * @throws StoreValidationError listing every problem found (up to the cap).
 */
export async function readStore(dir: string, options: ReadStoreOptions = {}): Promise<ReadStoreResult> {
  const problems = new ProblemList(options.maxProblems ?? 50);
  const schemas = options.schemas ?? TABLE_SCHEMAS;
  const ctx: ReadContext = {
    dir,
    add: (p) => problems.add(p),
    schemas,
    columns: tableColumns(schemas),
    strings: new StringPool(),
    primaryJudge: DEFAULT_JUDGE,
    evidence: options.evidence === true,
    startJudgmentLoad: () => {},
  };
  checkIsFolder(dir);
  const warnings: string[] = [];
  const found = findTableFiles(dir, warnings);
  const manifest = readManifest(dir, ctx.add);
  ctx.primaryJudge = manifest.primary_judge ?? DEFAULT_JUDGE;
  const optionalJudgments = options.allowMissingJudgments || manifest.judgments_optional === true;
  checkRequiredTables(found, optionalJudgments, ctx.add);
  const { files, tables, locations, rowsCount, incomplete } = await readTables(ctx, found, problems, options);
  try {
    // References are checked on the rows that passed validation, so one run lists every kind of problem;
    // the judgments' own checks run in DuckDB, where their rows are.
    const primaryJudge = ctx.primaryJudge;
    const { checks: judgmentChecks, labels } = await judgmentsInDuckDB(ctx, tables, files, incomplete, {
      clean: () => problems.count === 0,
      rows: rowsCount.judgments ?? 0,
      options,
    });
    options.onProgress?.("checking keys and references");
    checkReferences(tables, locations, files, ctx.add, {
      incomplete,
      primaryJudge,
      judgments: judgmentChecks,
      // Counted over the same valid rows when ref_trajectories was loaded for the other tables' read.
      trajectoryIdsUnique: ctx.trajectoryReference === "unique",
    });
    if (problems.count > 0) {
      await labels?.abandon();
      throw new StoreValidationError(dir, problems.items, problems.dropped);
    }
    const store = { manifest, ...tables } as Store;
    if (ctx.methodScoreColumns) {
      delete store.method_scores;
      store.method_score_columns = ctx.methodScoreColumns;
    }
    store.judgments = [];
    store.items ??= [];
    if (ctx.order) store.trajectory_order = ctx.order;
    if (labels) {
      options.onProgress?.("reading label vectors from DuckDB");
      store.labels = await labels.finish();
    }
    return { store, files, warnings, rows: rowsCount };
  } finally {
    // The pass is the read's to close (through its load: also when the read stopped before taking it).
    (await ctx.judgmentLoad)?.pass?.close();
    ctx.judgments?.closeSync?.();
    (await ctx.duck?.catch(() => undefined))?.closeSync?.();
  }
}

/**
 * Every table file, read and validated. Trajectories first: the tables naming a trajectory then read its
 * position rather than its id's text (store/parquet-rows.ts). Each table's problems are held apart and
 * listed in file-name order, as if read in that order (the cap applies to the list as a whole, as before).
 */
async function readTables(
  ctx: ReadContext,
  found: Map<TableName, string[]>,
  problems: ProblemList,
  options: ReadStoreOptions,
) {
  const read: TablesRead = {
    files: {},
    tables: {},
    locations: {},
    rowsCount: {},
    // Tables with rows that could not be read: references into them are not checked (they would only cascade).
    incomplete: new Set<TableName>(),
    tableProblems: new Map<TableName, ProblemList>(),
  };
  loadJudgmentsFirst(ctx, found, options.judgmentPass !== false);
  try {
    await readEachTable(ctx, found, problems.cap, options, read);
  } finally {
    // Never left running past the read (their connections are closed then), even when a read step threw.
    await ctx.judgmentLoad;
    ctx.order = await ctx.trajectoryOrder;
  }
  ctx.add = (p) => problems.add(p);
  for (const table of found.keys()) {
    const own = read.tableProblems.get(table)!;
    for (const p of own.items) problems.add(p);
    problems.dropped += own.dropped;
  }
  const { files, tables, locations, rowsCount, incomplete } = read;
  return { files, tables, locations, rowsCount, incomplete };
}

/** What the reading of every table gathers. */
interface TablesRead {
  files: Record<string, string>;
  tables: Partial<Record<TableName, unknown[]>>;
  locations: Partial<Record<TableName, RowLocations>>;
  rowsCount: Record<string, number>;
  incomplete: Set<TableName>;
  tableProblems: Map<TableName, ProblemList>;
}

/**
 * Readies the load of judgments.parquet in DuckDB, when it is the judgments' one file and not empty (the
 * other cases are reported or read when the read reaches the table). It starts once the trajectories'
 * rows stream (parquetTypedRows' onStreaming), so that their first queries do not wait behind it for
 * DuckDB's threads (the trajectories' first rows came 1.5 s into the read, 0.4 s alone), or
 * when the read reaches any other table first. When the trajectories and items are Parquet files too, the
 * one pass (store/judgment-pass.ts) is tried first; the rows are loaded only when it does not hold.
 */
function loadJudgmentsFirst(ctx: ReadContext, found: ReadonlyMap<TableName, string[]>, onePass: boolean): void {
  const names = found.get("judgments");
  if (names?.length !== 1 || !names[0].endsWith(".parquet")) return;
  const path = join(ctx.dir, names[0]);
  if (statSync(path).size === 0) return;
  const parquet = (table: TableName) => {
    const files = found.get(table);
    return files?.length === 1 && files[0].endsWith(".parquet") ? join(ctx.dir, files[0]) : undefined;
  };
  const trajectories = parquet("trajectories");
  const items = parquet("items");
  ctx.startJudgmentLoad = () => {
    ctx.judgmentLoad ??= loadJudgmentsAhead(() => judgmentsConnection(ctx), {
      path,
      file: names[0],
      schema: ctx.schemas.judgments,
      format: { field: issueField, message: issueMessage },
      primaryJudge: ctx.primaryJudge,
      withEvidence: ctx.evidence,
      onePass: onePass && trajectories && items ? { trajectories, items, ...DUCKDB_TEMP } : undefined,
    });
  };
}

/** Each table read in turn (trajectories first), its problems held in a list of its own. */
async function readEachTable(
  ctx: ReadContext,
  found: Map<TableName, string[]>,
  cap: number,
  options: ReadStoreOptions,
  { files, tables, locations, rowsCount, incomplete, tableProblems }: TablesRead,
): Promise<void> {
  const framed = new FrameWatch(found, options.onFrameTables);
  for (const [table, names] of [...found].sort(([a], [b]) => readRank(a) - readRank(b))) {
    const own = new ProblemList(cap);
    tableProblems.set(table, own);
    ctx.add = (p) => own.add(p);
    if (names.length > 1) {
      ctx.add({ file: names.join(", "), message: `two files for table "${table}": keep exactly one` });
      incomplete.add(table);
      continue;
    }
    files[table] = names[0];
    options.onProgress?.(`reading ${names[0]}`);
    if (table !== "trajectories") ctx.startJudgmentLoad();
    const read = await readTable(ctx, table, names[0]);
    if (!read) {
      incomplete.add(table);
      continue;
    }
    if (!read.complete || own.count > 0) incomplete.add(table);
    if (table !== "judgments") {
      tables[table] = read.valid;
      locations[table] = read.locations;
    }
    if (table === "trajectories") {
      ctx.trajectories = read.valid as Trajectory[];
      if (names[0].endsWith(".parquet") && read.complete && own.count === 0)
        await trajectoriesInDuckDB(ctx, join(ctx.dir, names[0]));
    }
    rowsCount[table] = read.rows ?? read.valid.length;
    if (table !== "trajectories" && ctx.trajectoryOrder) ctx.order = await ctx.trajectoryOrder;
    framed.read(table, incomplete.has(table), () => frameTables(tables, ctx));
  }
}

/**
 * DuckDB's checks of the judgments table, then, when they and every table read so far found nothing, its
 * label vectors started: their query runs in DuckDB while the caller checks keys and references.
 * They are dropped if the store turns out invalid.
 */
async function judgmentsInDuckDB(
  ctx: ReadContext,
  tables: Partial<Record<TableName, unknown[]>>,
  files: Record<string, string>,
  incomplete: ReadonlySet<TableName>,
  o: { clean: () => boolean; rows: number; options: ReadStoreOptions },
): Promise<{ checks?: Awaited<ReturnType<typeof checkJudgments>>; labels?: LabelVectorsUnderWay }> {
  if (ctx.judgmentPass) {
    // Its judgments have no problem of their own, whatever the other tables' (store/judgment-pass.ts).
    const checks = { duplicates: [], references: [] };
    if (!o.clean()) return { checks };
    o.options.onProgress?.(`${o.rows} judgments checked in one pass with their label vectors`);
    return { checks, labels: await ctx.judgmentPass.labelVectors(tables.trajectories as Trajectory[], ctx.strings) };
  }
  if (!ctx.judgments) return {};
  o.options.onProgress?.(`checking ${o.rows} judgments in DuckDB`);
  const checks = await checkJudgments(
    ctx.judgments,
    tables,
    files.judgments,
    incomplete,
    ctx.primaryJudge,
    // Loaded once trajectoryReference ran, even when ids repeat: then it holds the repeats too.
    ctx.trajectoryReference !== undefined,
    ctx.judgmentRepeats,
  );
  if (!o.clean() || hasProblems(checks)) return { checks };
  o.options.onProgress?.("building label vectors in DuckDB");
  const labels = await startLabelVectors(ctx.judgments, ctx.primaryJudge, tables.trajectories as Trajectory[], {
    evidence: o.options.evidence,
    bucketJudgments: o.options.labelBucketJudgments,
    strings: ctx.strings,
  });
  return { checks, labels };
}

const hasProblems = (checks: { duplicates: Problem[]; references: Problem[] }) =>
  checks.duplicates.length > 0 || checks.references.length > 0;

async function checkJudgments(
  conn: DuckDBConnection,
  tables: Partial<Record<TableName, unknown[]>>,
  file: string,
  incomplete: ReadonlySet<TableName>,
  primaryJudge: string,
  trajectoriesLoaded: boolean,
  repeats: number | undefined,
) {
  await loadReferenceTables(conn, tables as Parameters<typeof loadReferenceTables>[1], trajectoriesLoaded);
  const checks = {
    file,
    loc: file.endsWith(".parquet") ? ("row" as const) : ("line" as const),
    primaryJudge,
    checkTrajectories: !incomplete.has("trajectories"),
    checkItems: !incomplete.has("items") && !incomplete.has("tasks"),
  };
  return judgmentProblems(conn, checks, repeats);
}

/**
 * DuckDB's buffer pool while reading. Its default, 80% of RAM, let the judgments table of a large store
 * stay resident beside the JavaScript heap: at 100× the paper the read peaked at 5.6 GiB. Capped, the
 * table spills to the temp folder: 3.0 GiB, and 109 → 120 s; at scale 100, 1.37 → 1.25 GiB at the same
 * speed (docs/scaling.md).
 */
const READ_MEMORY_LIMIT = "512MB";

/** Where the read's databases spill, and their buffer pool limit. */
const DUCKDB_TEMP = { temp: join(tmpdir(), "gcpc-duckdb"), memoryLimit: READ_MEMORY_LIMIT };

/**
 * The one DuckDB database of a reading pass (Parquet files, the judgments table): in memory,
 * spilling to the OS temp folder when large. Created on first use, and only once: the judgments' load
 * and the first table's read ask for it at once (two databases would not see each other's tables).
 */
async function duckOf(ctx: ReadContext): Promise<DuckDBInstance> {
  ctx.duck ??= DuckDBInstance.create(":memory:", {
    temp_directory: DUCKDB_TEMP.temp,
    memory_limit: DUCKDB_TEMP.memoryLimit,
  });
  return ctx.duck;
}

/** The connection holding the judgments table. */
async function judgmentsConnection(ctx: ReadContext): Promise<DuckDBConnection> {
  const conn = await (await duckOf(ctx)).connect();
  await conn.run(JUDGMENTS_DDL);
  ctx.judgments = conn;
  return conn;
}

function checkIsFolder(dir: string): void {
  if (!existsSync(dir)) throw new StoreValidationError(dir, [{ file: dir, message: "no such file or directory" }]);
  if (!statSync(dir).isDirectory()) {
    throw new StoreValidationError(dir, [{ file: dir, message: "not a folder (a store is a folder of table files)" }]);
  }
}

/** Table name → its files in the folder (more than one is an error reported by the caller). */
function findTableFiles(dir: string, warnings: string[]): Map<TableName, string[]> {
  const found = new Map<TableName, string[]>();
  for (const name of readdirSync(dir).sort()) {
    const m = /^(.+)\.(jsonl|csv|parquet)$/.exec(name);
    if (!m) continue;
    if (!(TABLE_NAMES as string[]).includes(m[1])) {
      warnings.push(`ignored ${name}: not a table of the contract`);
      continue;
    }
    const list = found.get(m[1] as TableName) ?? [];
    list.push(name);
    found.set(m[1] as TableName, list);
  }
  return found;
}

/** store.json, validated; a store without one is named after its folder. */
function readManifest(dir: string, add: (p: Problem) => void): Manifest {
  const fallback: Manifest = { name: dir.split("/").filter(Boolean).pop() ?? "store" };
  if (!existsSync(join(dir, "store.json"))) return fallback;
  const text = decodeUtf8(readFileSync(join(dir, "store.json")), "store.json");
  if (typeof text !== "string") {
    add(text);
    return fallback;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    add({ file: "store.json", message: `not valid JSON (${(e as Error).message})` });
    return fallback;
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      add({
        file: "store.json",
        field: issueField(issue),
        message: issueMessage(issue, raw as Record<string, unknown>),
      });
    }
    return fallback;
  }
  const version = parsed.data.schema_version;
  if (version != null && version !== SCHEMA_VERSION) {
    const reads = `this gcpc reads schema_version ${SCHEMA_VERSION} (docs/verdict-store.md)`;
    const message = `${reads}, the store says ${version}`;
    add({ file: "store.json", field: "schema_version", message });
  }
  return parsed.data;
}

function checkRequiredTables(found: Map<TableName, string[]>, optionalJudgments: boolean, add: (p: Problem) => void) {
  for (const table of REQUIRED_TABLES) {
    if (found.has(table) || ((table === "judgments" || table === "items") && optionalJudgments)) continue;
    const message = `required table "${table}" is missing (expected ${table}.jsonl, ${table}.csv or ${table}.parquet)`;
    add({ file: `${table}.*`, message });
  }
}

/** One table file: parsed, required columns checked, rows validated. Undefined when it cannot be read at all. */
async function readTable(ctx: ReadContext, table: TableName, file: string): Promise<TableRows | undefined> {
  const path = join(ctx.dir, file);
  if (statSync(path).size === 0) {
    ctx.add({ file, message: "file is empty" });
    return undefined;
  }
  const format = { field: issueField, message: issueMessage };
  if (table === "judgments" && file.endsWith(".parquet")) {
    // Started once the trajectories streamed, or before this table (loadJudgmentsFirst); its problems are
    // this table's.
    const load = await ctx.judgmentLoad!;
    for (const p of load.problems) ctx.add(p);
    if (load.error !== undefined) {
      ctx.add(cannotReadParquet(file, load.error));
      return undefined;
    }
    ctx.judgmentRepeats = load.repeats;
    ctx.judgmentPass = load.pass;
    const r = load.loaded;
    return r && { valid: [], locations: new RowLocations(), complete: r.complete, rows: r.rows };
  }
  if (table === "method_scores" && file.endsWith(".parquet")) {
    const columns = await methodScoresAsColumns(ctx, path);
    if (columns) return { valid: [], locations: new RowLocations(), complete: true, rows: columns.length };
  }
  const loaded = await loadRecords(ctx, table, file);
  if (!loaded) return undefined;
  const { chunks, columns } = loaded;
  if (columns) {
    const missing = ctx.columns[table].filter((c) => c.required && !columns.includes(c.name)).map((c) => c.name);
    const line = file.endsWith(".csv") ? 1 : undefined;
    for (const f of missing) ctx.add({ file, line, field: f, message: `required column "${f}" is missing` });
    if (missing.length) return undefined;
  }
  if (table === "judgments") {
    const conn = await judgmentsConnection(ctx);
    // A text file is one chunk (concat, not push(...chunk): millions of rows exceed the argument limit).
    let records: RawRecord[] = [];
    for await (const chunk of chunks) records = records.length === 0 ? chunk : records.concat(chunk);
    const r = await loadRecordJudgments(conn, records, {
      file,
      schema: ctx.schemas.judgments,
      add: ctx.add,
      format,
      withEvidence: ctx.evidence,
    });
    return { valid: [], locations: new RowLocations(), complete: r.complete, rows: r.rows };
  }
  const schema = ctx.schemas[table];
  const valid: unknown[] = [];
  const locations = new RowLocations();
  let total = 0;
  try {
    // Chunk by chunk: a chunk's raw values are garbage once validated, so a large Parquet table never
    // holds its raw and its validated rows at once.
    for await (const chunk of chunks) {
      total += chunk.length;
      for (const rec of chunk) validateRecord(ctx, schema, file, rec, valid, locations);
    }
  } catch (e) {
    // Only DuckDB's streaming of a Parquet file can fail here; anything else is a bug, not bad input.
    if (!file.endsWith(".parquet")) throw e;
    ctx.add(cannotReadParquet(file, e));
    return undefined;
  }
  if (total === 0) ctx.add({ file, message: "table has no rows" });
  return { valid, locations, complete: valid.length === total };
}

/**
 * method_scores.parquet as columns when its screen finds nothing to report (store/method-score-table.ts),
 * kept in the context; undefined otherwise (the rows are then read and checked as any table's: a file
 * DuckDB cannot read is reported there too). Only under the contract's own row schema, which the screen
 * restates, and with the trajectories read and their ids unique.
 */
async function methodScoresAsColumns(ctx: ReadContext, path: string): Promise<MethodScoreColumns | undefined> {
  if (ctx.schemas.method_scores !== TABLE_SCHEMAS.method_scores) return undefined;
  const duck = await duckOf(ctx);
  try {
    if (!(await trajectoryReference(ctx, duck))) return undefined;
    ctx.methodScoreColumns = await parquetMethodScoreColumns(duck, path, ctx.strings);
  } catch {
    return undefined;
  }
  return ctx.methodScoreColumns;
}

/** A Parquet file DuckDB cannot read: the problem names the file and DuckDB's first line. */
function cannotReadParquet(file: string, e: unknown): Problem {
  return { file, message: `cannot read Parquet: ${(e as Error).message.split("\n")[0]}` };
}

function validateRecord(
  ctx: ReadContext,
  schema: TableSchemas[TableName],
  file: string,
  rec: RawRecord,
  valid: unknown[],
  locations: RowLocations,
): void {
  // The contract's trajectory rows skip zod when they are plainly valid (the same object, store/fast-rows.ts).
  const fast = schema === TABLE_SCHEMAS.trajectories ? fastTrajectory(rec.values) : undefined;
  const parsed = fast ? { success: true as const, data: fast } : schema.safeParse(rec.values);
  if (parsed.success) {
    if (!rec.interned) ctx.strings.internRow(parsed.data as Record<string, unknown>);
    valid.push(parsed.data);
    locations.push(rec.line, rec.row);
    return;
  }
  for (const issue of parsed.error.issues) {
    ctx.add({
      file,
      line: rec.line,
      row: rec.row,
      field: issueField(issue),
      message: issueMessage(issue, rec.values),
    });
  }
}

/**
 * Raw records of a file in any of the three formats, in chunks (a text file is one chunk), with the
 * header's columns when the format has one.
 */
async function loadRecords(
  ctx: ReadContext,
  table: TableName,
  file: string,
): Promise<{ chunks: AsyncIterable<RawRecord[]>; columns?: string[] } | undefined> {
  const path = join(ctx.dir, file);
  if (file.endsWith(".parquet")) {
    const duck = await duckOf(ctx);
    try {
      return await parquetRecords(ctx, duck, table, path);
    } catch (e) {
      ctx.add(cannotReadParquet(file, e));
      return undefined;
    }
  }
  const text = decodeUtf8(readFileSync(path), file);
  if (typeof text !== "string") {
    ctx.add(text);
    return undefined;
  }
  if (file.endsWith(".jsonl")) return { chunks: oneChunk(parseJsonl(text, file, ctx.add)) };
  const parsed = parseCsv(text, file, ctx.add);
  if (!parsed) return undefined;
  const kinds = new Map(ctx.columns[table].map((c) => [c.name, c.kind]));
  const records = parsed.records.map((r) => ({ ...r, values: convertCsvCells(kinds, r) }));
  return { chunks: oneChunk(records), columns: parsed.header };
}

async function* oneChunk(records: RawRecord[]): AsyncIterable<RawRecord[]> {
  yield records;
}

/**
 * A Parquet table's rows, typed column by column (store/parquet-rows.ts); a file with a column of the
 * name that reader gives file row numbers, or with more columns than its null mask holds, is read row
 * by row as JSON.
 */
async function parquetRecords(
  ctx: ReadContext,
  duck: DuckDBInstance,
  table: TableName,
  path: string,
): Promise<{ chunks: AsyncIterable<RawRecord[]>; columns: string[] }> {
  const from = parquetSource(path, { rowNumbers: false });
  const conn = await duck.connect();
  let columns: string[];
  try {
    columns = (await conn.runAndReadAll(`SELECT * FROM ${from} LIMIT 0`)).columnNames();
  } finally {
    conn.closeSync?.();
  }
  if (columns.includes("file_row_number") || columns.length > TYPED_READ_MAX_COLUMNS)
    return { chunks: parquetChunks(duck, from), columns };
  const names = table !== "trajectories" && columns.includes("trajectory_id");
  const trajectories = names ? await trajectoryReference(ctx, duck) : undefined;
  const unpooled = table === "trajectories" ? ["trajectory_id"] : [];
  const onStreaming = table === "trajectories" ? ctx.startJudgmentLoad : undefined;
  return {
    chunks: parquetTypedRows(duck, path, { strings: ctx.strings, trajectories, unpooled, onStreaming }),
    columns,
  };
}

/**
 * A trajectories.parquet whose rows were all valid: ref_trajectories loaded from the file, and, when its ids
 * are unique, their order computed meanwhile (store/trajectory-reference.ts). On any failure nothing is kept
 * and trajectoryReference loads the rows read, as for the other formats.
 */
async function trajectoriesInDuckDB(ctx: ReadContext, path: string): Promise<void> {
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
async function trajectoryReference(ctx: ReadContext, duck: DuckDBInstance): Promise<Trajectory[] | undefined> {
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

/**
 * Sort key reading the trajectories table first (the tables naming a trajectory then read its position),
 * then the other tables of a trajectory frame, then the rest.
 */
const readRank = (table: TableName) =>
  table === "trajectories" ? 0 : (FRAME_TABLES as readonly string[]).includes(table) ? 1 : 2;

/** The tables a trajectory frame is built from (analysis/rq/trajectory-frame.ts). */
const FRAME_TABLES = ["trajectories", "tasks", "method_scores", "verifier_results"] as const;

/** The frame's tables as the store will hold them (method scores read as columns replace the rows). */
function frameTables(tables: Partial<Record<TableName, unknown[]>>, ctx: ReadContext): FrameTables {
  return {
    trajectories: tables.trajectories as Trajectory[],
    tasks: tables.tasks as Task[],
    ...(ctx.methodScoreColumns
      ? { method_scores: undefined, method_score_columns: ctx.methodScoreColumns }
      : { method_scores: tables.method_scores as MethodScore[] | undefined, method_score_columns: undefined }),
    verifier_results: tables.verifier_results as VerifierResult[] | undefined,
    trajectory_order: ctx.order,
  };
}

/** Calls `onFrameTables` once every frame table present was read, if none of them had a problem. */
class FrameWatch {
  private readonly waiting: Set<TableName>;
  private spoiled: boolean;

  constructor(
    found: ReadonlyMap<TableName, string[]>,
    private readonly onFrame?: (tables: FrameTables) => void,
  ) {
    this.waiting = new Set(FRAME_TABLES.filter((t) => found.has(t)));
    // Without trajectories or tasks the store is invalid (both are required): nothing to start.
    this.spoiled = !onFrame || !found.has("trajectories") || !found.has("tasks");
  }

  read(table: TableName, incomplete: boolean, tables: () => FrameTables): void {
    if (!this.waiting.delete(table)) return;
    if (incomplete) this.spoiled = true;
    if (this.waiting.size === 0 && !this.spoiled) this.onFrame?.(tables());
  }
}

/**
 * The rows of a Parquet file as DuckDB streams them (≈ 2,048 rows a chunk), each one JSON text parsed by
 * V8's native JSON.parse: one string to decode per row instead of one per cell, about twice as fast on
 * trajectories and method scores (`npm run bench -- store`).
 */
async function* parquetChunks(duck: DuckDBInstance, from: string): AsyncIterable<RawRecord[]> {
  const conn = await duck.connect();
  let cells: DuckDBConnection | undefined;
  try {
    const result = await conn.stream(`SELECT to_json(f)::VARCHAR AS j FROM ${from} f`);
    let row = 0;
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const texts = chunk.getColumnVector(0);
      const records: RawRecord[] = new Array(chunk.rowCount);
      for (let i = 0; i < chunk.rowCount; i++) {
        let values: Record<string, unknown>;
        try {
          values = JSON.parse(texts.getItem(i) as string);
        } catch {
          // NaN and ±Infinity are not JSON: read that row cell by cell (the schema then rejects them).
          cells ??= await duck.connect();
          values = await parquetRow(cells, from, row + i);
        }
        // Parquet nulls mean "absent" for optional fields.
        for (const k of Object.keys(values)) if (values[k] === null) delete values[k];
        records[i] = { values, row: row + i + 1 };
      }
      row += chunk.rowCount;
      yield records;
    }
  } finally {
    cells?.closeSync?.();
    conn.closeSync?.();
  }
}

async function parquetRow(conn: DuckDBConnection, from: string, i: number): Promise<Record<string, unknown>> {
  return parquetValues((await conn.runAndReadAll(`SELECT * FROM ${from} LIMIT 1 OFFSET ${i}`)).getRowObjectsJS()[0]);
}

/** CSV cells → typed values per the contract (rule 1: empty cell = null; booleans true/false; lists as JSON
 * arrays). */
function convertCsvCells(kinds: Map<string, ColumnKind>, rec: RawRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, cell] of Object.entries(rec.values) as [string, string][]) {
    if (cell === "") continue; // absent
    out[field] = convertCell(kinds.get(field) ?? "string", cell);
  }
  return out;
}

function convertCell(kind: ColumnKind, cell: string): unknown {
  if (kind === "int" || kind === "number") {
    // "NaN" / "Infinity" become numbers the schema rejects as non-finite; other text stays text and is
    // rejected as such.
    const x = Number(cell);
    return Number.isNaN(x) && cell.trim() !== "NaN" ? cell : x;
  }
  if (kind === "boolean") return cell === "true" ? true : cell === "false" ? false : cell;
  if (kind === "list") {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  return cell;
}

export function issueField(issue: { path: PropertyKey[]; code?: string; keys?: string[] }): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.keys) return issue.keys.join(", ");
  return issue.path.length ? issue.path.map(String).join(".") : undefined;
}

export function issueMessage(
  issue: { message: string; code?: string; path: PropertyKey[]; keys?: string[] },
  values?: Record<string, unknown>,
): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field(s) ${issue.keys?.map((k) => JSON.stringify(k)).join(", ")} (not in the contract)`;
  const field = issue.path[0];
  const value = values && field !== undefined ? values[String(field)] : undefined;
  if (value === undefined && issue.code === "invalid_type") return "missing required field";
  const shown = typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return `${issue.message} (got ${shown})`;
}
