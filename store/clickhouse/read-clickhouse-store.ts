import {
  DEFAULT_JUDGE,
  type Manifest,
  TABLE_NAMES,
  TABLE_SCHEMAS,
  type TableName,
} from "../../analysis/schema/tables.js";
import type { StoreFrame } from "../../analysis/schema/store.js";
import type { LabelRun, LabelVectors } from "../../analysis/schema/label-vectors.js";
import { gradeChar } from "../../analysis/schema/grades.js";
import { formatProblem, ProblemList, StoreValidationError, InputError, type Problem } from "../problems.js";
import { manifestOfText } from "../store-folder.js";
import { checkReferences, RowLocations } from "../check-references.js";
import { issueField, issueMessage } from "../zod-issues.js";
import { fastTrajectory } from "../fast-rows.js";
import type { ReadStoreOptions, ReadStoreResult } from "../read-store.js";
import { parseClickhouseLocation } from "./location.js";
import { ClickhouseConnection, sqlString } from "./connection.js";
import {
  checkJudgments,
  LABEL_RUN_SETTINGS,
  labelRunColumns,
  labelRunsSql,
  type LabelRunRow,
} from "./judgments-sql.js";
import { fromClickhouseRow, MANIFEST_TABLE, ROW_COLUMN } from "./table-layout.js";
import { manifestTexts, shardTables, storedRows, tablesIn } from "./stored-tables.js";

/**
 * Reads and validates a store held in ClickHouse (`clickhouse://HOST:PORT/DATABASE`, written by `gcpc copy`)
 * into the same StoreFrame a folder gives. The small tables (tasks, items, trajectories, scores, human
 * tables) come back as rows and are validated by the contract's zod schemas; the judgments never leave the
 * server as rows: they are checked there (store/clickhouse/judgments-sql.ts) and joined to the checklists
 * and grouped per (trajectory, judge, run) there, so one label string per run comes back.
 * @throws InputError (unreachable server, no such database, not a store, unreadable schema version) or
 *   StoreValidationError (rows that break the contract).
 */
export async function readClickhouseStore(text: string, options: ReadStoreOptions = {}): Promise<ReadStoreResult> {
  const location = parseClickhouseLocation(text);
  const db = location.database;
  const conn = new ClickhouseConnection(location);
  try {
    options.onProgress?.(`connecting to ${location.url}`);
    await conn.reach();
    const tables = await storeTablesIn(conn, text, db);
    const manifest = await readManifestRow(conn, text, db);
    const primaryJudge = manifest.primary_judge ?? DEFAULT_JUDGE;
    const problems = new ProblemList(options.maxProblems ?? 50);
    // The server checks and groups the judgments while this process reads and validates the small tables: both
    // are started now and awaited after (their results are dropped if the store turns out invalid).
    const judged = tables.has("judgments") && tables.has("trajectories") && tables.has("items");
    const shard = judged ? await shardTables(conn, db) : new Map<string, string>();
    const evidence = options.evidence === true;
    const server = judged
      ? {
          checks: checkJudgments(conn, db, `${db}.judgments`, primaryJudge, problems.cap, shard),
          runs: conn.binaryRows(
            labelRunsSql(db, shard.get("items") ?? "items", primaryJudge, evidence),
            labelRunColumns(evidence),
            LABEL_RUN_SETTINGS,
          ) as Promise<unknown[]> as Promise<LabelRunRow[]>,
        }
      : undefined;
    server?.checks.catch(() => {});
    server?.runs.catch(() => {});
    const { files, rows, read, locations } = await smallTables(conn, db, tables, problems, options);
    // As a folder's (store/store-folder.ts checkRequiredTables): items and judgments may be absent together
    // when the store says judgments are optional.
    const judgmentsOptional = options.allowMissingJudgments || manifest.judgments_optional === true;
    for (const required of ["tasks", "items", "trajectories", "judgments"] as const) {
      const optional =
        (required === "items" || required === "judgments") && judgmentsOptional && !tables.has("judgments");
      if (!tables.has(required) && !optional)
        problems.add({ file: `${db}.${required}`, message: `required table "${required}" is missing` });
    }
    let checks: Awaited<ReturnType<typeof checkJudgments>> | undefined;
    if (server) {
      options.onProgress?.(`checking ${db}.judgments on the server`);
      checks = await server.checks;
      rows.judgments = checks.rows;
      for (const p of checks.rowProblems) problems.add(p);
      if (checks.graded && (manifest.schema_version ?? 1) < 2)
        problems.add({
          file: files.judgments,
          field: "grade",
          message: 'grades or NotApplicable labels need "schema_version": 2 in store.json (docs/verdict-store.md)',
        });
    }
    checkReferences(read, locations, files, (p) => problems.add(p), {
      primaryJudge,
      judgments: checks && { duplicates: checks.duplicates, references: checks.references },
      schemaVersion: manifest.schema_version ?? 1,
    });
    if (problems.count > 0) throw new StoreValidationError(text, problems.items, problems.dropped);
    options.onProgress?.("reading label vectors from the server");
    const labels =
      server && checks
        ? labelVectors(await server.runs, read as StoreFrame, options.evidence === true, checks.rows, primaryJudge)
        : { judgments: 0, runs: new Map() };
    const store = { manifest, ...read, items: read.items ?? [], labels } as StoreFrame;
    return { store, files, warnings: [], rows };
  } finally {
    await conn.close();
  }
}

/** Every table but the judgments, as validated rows with their row numbers (the judgments' file name too). */
async function smallTables(
  conn: ClickhouseConnection,
  db: string,
  tables: Set<string>,
  problems: { add(p: Problem): void },
  options: ReadStoreOptions,
) {
  const files: Record<string, string> = {};
  const rows: Record<string, number> = {};
  const read: Partial<Record<TableName, unknown[]>> = {};
  const locations: Partial<Record<TableName, RowLocations>> = {};
  const present = TABLE_NAMES.filter((table) => tables.has(table));
  for (const table of present) files[table] = `${db}.${table}`;
  // Read at once (the server answers one while this process decodes another); their problems are added in the
  // tables' order, as a folder's are.
  const got = await Promise.all(
    present
      .filter((table) => table !== "judgments")
      .map(async (table) => {
        options.onProgress?.(`reading ${db}.${table}`);
        return { table, ...(await validRows(conn, db, table, files[table])) };
      }),
  );
  for (const g of got) {
    for (const p of g.problems) problems.add(p);
    read[g.table] = g.rows;
    locations[g.table] = g.locations;
    rows[g.table] = g.count;
  }
  return { files, rows, read, locations };
}

/** The store tables the database holds; an InputError when there is no such database or it holds no store. */
async function storeTablesIn(conn: ClickhouseConnection, text: string, db: string): Promise<Set<string>> {
  const dbs = await conn.rows(`SELECT name FROM system.databases WHERE name = ${sqlString(db)}`);
  if (dbs.length === 0) throw new InputError(`${text}: no database "${db}" on the server`);
  const set = await tablesIn(conn, db);
  if (!set.has(MANIFEST_TABLE))
    throw new InputError(
      `${text}: database "${db}" is not a gcpc store ` +
        `(it has no ${MANIFEST_TABLE} table; gcpc copy STORE ${text} writes one)`,
    );
  return set;
}

/**
 * The manifest table's one row, checked as a folder's store.json is (store/store-folder.ts manifestOfText); any
 * problem, an unreadable schema version included, is one line.
 */
async function readManifestRow(conn: ClickhouseConnection, text: string, db: string): Promise<Manifest> {
  const texts = await manifestTexts(conn, db);
  const file = `${db}.${MANIFEST_TABLE}`;
  if (texts.length !== 1) throw new InputError(`${text}: ${file} holds ${texts.length} rows, not 1`);
  const problems: Problem[] = [];
  const manifest = manifestOfText(texts[0], file, (p) => problems.push(p));
  if (problems.length > 0 || !manifest) throw new InputError(`${text}: ${formatProblem(problems[0])}`);
  return manifest;
}

/** A small table's rows in store order, each validated by the contract's schema (problems name the row). */
async function validRows(
  conn: ClickhouseConnection,
  db: string,
  table: TableName,
  file: string,
): Promise<{ rows: unknown[]; locations: RowLocations; count: number; problems: Problem[] }> {
  const raw = await storedRows(conn, db, table);
  const rows: unknown[] = [];
  const problems: Problem[] = [];
  const locations = new RowLocations();
  for (const r of raw) {
    const row = fromClickhouseRow(table, r);
    const at = Number(r[ROW_COLUMN]) + 1;
    // A plainly valid trajectory skips zod, as a folder's does (store/fast-rows.ts).
    const fast = table === "trajectories" ? fastTrajectory(row) : undefined;
    if (fast) {
      rows.push(fast);
      locations.push(undefined, at);
      continue;
    }
    const parsed = TABLE_SCHEMAS[table].safeParse(row);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ file, row: at, field: issueField(issue), message: issueMessage(issue, row) });
      continue;
    }
    rows.push(parsed.data);
    locations.push(undefined, at);
  }
  return { rows, locations, count: raw.length, problems };
}

/** The label vectors from the server's rows, one per (trajectory, judge, run), in the order of each run's first row. */
function labelVectors(
  got: LabelRunRow[],
  store: StoreFrame,
  evidence: boolean,
  judgments: number,
  primaryJudge: string,
): LabelVectors {
  const size = new Map<string, number>();
  for (const it of store.items) size.set(it.task_id, (size.get(it.task_id) ?? 0) + 1);
  const taskOf = new Map(store.trajectories.map((t) => [t.trajectory_id, t.task_id]));
  got.sort((a, b) => a.first - b.first);
  const runs = new Map<string, LabelRun[]>();
  for (const r of got) {
    const n = size.get(taskOf.get(r.trajectory_id) ?? "") ?? 0;
    // A run that judges every item comes in checklist order; one that does not names its positions.
    const at = (k: number) => (r.ps.length ? r.ps[k] : k + 1) - 1;
    // The primary judge comes back as null (judgments-sql.ts primaryAsNull).
    const run: LabelRun = { judge: r.jj ?? primaryJudge, run: r.rr, labels: labelString(r, n, at) };
    if (evidence) {
      const e = new Array<string | null>(n).fill(null);
      (r.ev ?? []).forEach((text, k) => {
        e[at(k)] = text;
      });
      run.evidence = e;
    }
    const list = runs.get(r.trajectory_id);
    if (list) list.push(run);
    else runs.set(r.trajectory_id, [run]);
  }
  return { judgments, runs };
}

/** A run's label string: its codes as they came when it judged every item with no grade, else placed by position. */
function labelString(r: LabelRunRow, n: number, at: (k: number) => number): string {
  if (r.ps.length === 0 && r.gp.length === 0 && r.codes.length === n) return r.codes;
  const chars = new Array<string>(n).fill(".");
  for (let k = 0; k < r.codes.length; k++) chars[at(k)] = r.codes[k];
  r.gp.forEach((pos, k) => {
    chars[pos - 1] = gradeChar(r.gv[k]);
  });
  return chars.join("");
}
