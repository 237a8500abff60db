import { StringPool } from "./string-pool.js";
import { join } from "node:path";
import { statSync } from "node:fs";
import { DEFAULT_JUDGE, TABLE_SCHEMAS, type TableName, type Trajectory } from "../analysis/schema/tables.js";
import type { StoreFrame } from "../analysis/schema/store.js";
import { tableColumns } from "../analysis/schema/columns.js";
import { ProblemList, StoreValidationError, type Problem } from "./problems.js";
import { checkReferences, type RowLocations } from "./check-references.js";
import { judgmentsInDuckDB, loadJudgmentsFirst } from "./judgments-in-duckdb.js";
import { type ReadContext, trajectoriesInDuckDB } from "./read-context.js";
import { readTable } from "./read-table.js";
import type { ReadStoreOptions } from "./read-options.js";
export type { ReadStoreOptions } from "./read-options.js";
export { issueField, issueMessage } from "./zod-issues.js";
import { checkIsFolder, checkRequiredTables, findTableFiles, readManifest } from "./store-folder.js";

export interface ReadStoreResult {
  /** The store's tables, its judgments as label vectors (analysis/schema/store.ts). */
  store: StoreFrame;
  files: Record<string, string>;
  warnings: string[];
  rows: Record<string, number>;
}

/** Rows read from which a read closes its DuckDB instance instead of leaving it to the next read. */
const RELEASE_ROWS = 100_000;

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
  // Problems go to the list of the table being read while the tables are read (each table's are held
  // until the read reaches it), to the read's own list otherwise: `routeProblems` moves the target.
  let target: { add(p: Problem): void } = problems;
  const add = (p: Problem) => target.add(p);
  const routeProblems = (to: { add(p: Problem): void }) => {
    target = to;
  };
  checkIsFolder(dir);
  const warnings: string[] = [];
  const found = findTableFiles(dir, warnings);
  const manifest = readManifest(dir, add);
  const ctx: ReadContext = {
    dir,
    add,
    schemas,
    columns: tableColumns(schemas),
    strings: new StringPool(),
    primaryJudge: manifest.primary_judge ?? DEFAULT_JUDGE,
    evidence: options.evidence === true,
    bytes: tableBytes(dir, found),
    startJudgmentLoad: () => {},
  };
  checkRequiredTables(found, options.allowMissingJudgments || manifest.judgments_optional === true, ctx.add);
  // The read's DuckDB databases are closed whatever happens from here, the tables' read included.
  let rowsCount: Record<string, number> = {};
  try {
    const read = await readTables(ctx, found, problems, options, routeProblems);
    const { files, tables, locations, incomplete } = read;
    rowsCount = read.rowsCount;
    // References are checked on the rows that passed validation, so one run lists every kind of problem;
    // the judgments' own checks run in DuckDB, where their rows are.
    const primaryJudge = ctx.primaryJudge;
    const {
      checks: judgmentChecks,
      labels,
      graded,
    } = await judgmentsInDuckDB(ctx, tables, files, incomplete, {
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
      schemaVersion: manifest.schema_version ?? 1,
    });
    if (graded && (manifest.schema_version ?? 1) < 2)
      ctx.add({
        file: files.judgments ?? "judgments",
        field: "grade",
        message: 'grades or NotApplicable labels need "schema_version": 2 in store.json (docs/verdict-store.md)',
      });
    if (problems.count > 0) {
      await labels?.abandon();
      throw new StoreValidationError(dir, problems.items, problems.dropped);
    }
    if (labels) options.onProgress?.("reading label vectors from DuckDB");
    const store: StoreFrame = {
      manifest,
      ...(tablesAsStored(tables, ctx) as Omit<StoreFrame, "manifest" | "labels">),
      items: (tables.items as StoreFrame["items"] | undefined) ?? [],
      labels: labels ? await labels.finish() : { judgments: 0, runs: new Map() },
    };
    return { store, files, warnings, rows: rowsCount };
  } finally {
    // A large read hands its DuckDB memory back (store/duck-session.ts, CloseOptions); a small one leaves the
    // instance to the next read of this process.
    const closing = { release: Object.values(rowsCount).reduce((a, b) => a + b, 0) >= RELEASE_ROWS };
    // The pass is the read's to close (through its load: also when the read stopped before taking it).
    await (await ctx.judgmentLoad)?.pass?.close(closing);
    ctx.judgments?.closeSync?.();
    await (await ctx.duck?.catch(() => undefined))?.close(closing).catch(() => undefined);
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
  routeProblems: (to: { add(p: Problem): void }) => void,
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
    await readEachTable(ctx, found, problems.cap, options, read, routeProblems);
  } finally {
    // Never left running past the read (their connections are closed then), even when a read step threw.
    await ctx.judgmentLoad;
    ctx.order = await ctx.trajectoryOrder;
  }
  routeProblems(problems);
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

/** Each table read in turn (trajectories first), its problems held in a list of its own. */
async function readEachTable(
  ctx: ReadContext,
  found: Map<TableName, string[]>,
  cap: number,
  options: ReadStoreOptions,
  { files, tables, locations, rowsCount, incomplete, tableProblems }: TablesRead,
  routeProblems: (to: { add(p: Problem): void }) => void,
): Promise<void> {
  const foundTables: ReadonlySet<TableName> = new Set(found.keys());
  for (const [table, names] of [...found].sort(([a], [b]) => readRank(a) - readRank(b))) {
    const own = new ProblemList(cap);
    tableProblems.set(table, own);
    routeProblems(own);
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
    options.onTableRead?.({ table, found: foundTables, incomplete, tables: () => tablesAsStored(tables, ctx) });
  }
}

/**
 * Sort key reading the trajectories table first (the tables naming a trajectory then read its position),
 * then the other tables without a row per judgment or annotation (small, and all an early look at the store
 * needs: see `onTableRead`), then the rest in the order found.
 */
const readRank = (table: TableName) => {
  const k = (READ_FIRST as readonly string[]).indexOf(table);
  return k >= 0 ? k : READ_FIRST.length;
};

/**
 * The method scores last of these: the uplift rows need the others only, and start on the other thread while
 * the method scores are read (cli/early-frame.ts).
 */
const READ_FIRST = ["trajectories", "tasks", "verifier_results", "method_scores"] as const;

/** The tables read so far as the store will hold them (method scores read as columns replace the rows). */
function tablesAsStored(tables: Partial<Record<TableName, unknown[]>>, ctx: ReadContext): Partial<StoreFrame> {
  const { method_scores, ...rest } = tables as Partial<StoreFrame>;
  return {
    ...rest,
    ...(ctx.methodScoreColumns
      ? { method_score_columns: ctx.methodScoreColumns }
      : method_scores
        ? { method_scores }
        : {}),
    ...(ctx.order ? { trajectory_order: ctx.order } : {}),
  };
}

/** The table files' total size, or undefined when one cannot be read (its read then reports why). */
function tableBytes(dir: string, found: Map<TableName, string[]>): number | undefined {
  let total = 0;
  for (const name of [...found.values()].flat()) {
    const size = statSync(join(dir, name), { throwIfNoEntry: false })?.size;
    if (size === undefined) return undefined;
    total += size;
  }
  return total;
}
