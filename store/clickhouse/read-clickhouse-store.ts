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
import { fastRowOf } from "../fast-rows.js";
import type { MethodScoreColumns } from "../../analysis/schema/method-score-columns.js";
import type { Trajectory } from "../../analysis/schema/tables.js";
import { clickhouseMethodScoreColumns } from "./method-score-columns.js";
import type { ReadStoreOptions, ReadStoreResult } from "../read-store.js";
import { parseClickhouseLocation } from "./location.js";
import { ClickhouseConnection, sqlString } from "./connection.js";
import { checkJudgments } from "./judgments-sql.js";
import {
  type CodedRunRow,
  codedRunColumns,
  codedRunsSql,
  type PackedRunColumns,
  packedRunsReader,
  packedRunsSql,
  type RunColumns,
  runColumnsOf,
  type RunTables,
  screenLabelRuns,
} from "./label-runs-sql.js";
import { positionsByRow } from "./row-order.js";
import { startTrajectoryOrder, trajectoryOrderOf } from "./trajectory-order-sql.js";
import { MANIFEST_TABLE } from "./table-layout.js";
import { labelVectorsByPosition, PackedLabels } from "../packed-label-runs.js";
import { StringPool } from "../string-pool.js";
import { manifestTexts, storeTables, storedRows } from "./stored-tables.js";
import { readThreadsOf } from "./read-threads.js";
import { countHint } from "./count-hint.js";

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
    const { shard, clusters } = await storeTablesIn(conn, text, db);
    const tables = new Set(shard.keys());
    const [manifest, threads] = await Promise.all([readManifestRow(conn, text, db), readThreadsOf(conn, clusters)]);
    if (threads !== undefined) conn.readSettings = { max_threads: threads };
    const primaryJudge = manifest.primary_judge ?? DEFAULT_JUDGE;
    const problems = new ProblemList(options.maxProblems ?? 50);
    const judged = tables.has("judgments") && tables.has("trajectories") && tables.has("items");
    const evidence = options.evidence === true;
    // The server groups the judgments into label runs, and screens them, while this process reads and validates
    // the small tables (dropped if the store turns out invalid).
    const runTables = { db, judgments: shard.get("judgments") ?? "judgments", items: shard.get("items") ?? "items" };
    const runs = judged ? labelRuns(conn, runTables, primaryJudge, evidence) : undefined;
    const order = tables.has("trajectories") ? startTrajectoryOrder(conn, db) : undefined;
    runs?.catch(() => {});
    const small = await smallTables(conn, db, { tables, shard, order }, problems, options);
    const { files, rows, read, method_score_columns, positionOf } = small;
    requiredTables(db, tables, manifest, options, problems);
    // Checked before waiting for the server's label runs, whose grouping can end after this process's reads.
    const schemaVersion = manifest.schema_version ?? 1;
    const references = referenceProblems(small, { primaryJudge, trajectoryIdsUnique: small.idsUnique, schemaVersion });
    const checks = runs && (await judgmentChecks(conn, db, { runs, small, problems, primaryJudge, options }));
    if (checks?.graded && (manifest.schema_version ?? 1) < 2)
      problems.add({
        file: files.judgments,
        field: "grade",
        message: 'grades or NotApplicable labels need "schema_version": 2 in store.json (docs/verdict-store.md)',
      });
    for (const p of references(checks && { duplicates: checks.duplicates, references: checks.references }))
      problems.add(p);
    if (problems.count > 0) throw new StoreValidationError(text, problems.items, problems.dropped);
    options.onProgress?.("reading label vectors from the server");
    const labels =
      runs && checks
        ? labelVectors(await runs, read as StoreFrame, {
            evidence,
            judgments: checks.rows,
            primaryJudge,
            positionOf,
          })
        : { judgments: 0, runs: new Map() };
    // As a folder's: only when every trajectory row is valid and the ids are distinct.
    const trajectory_order = small.plain ? small.order : undefined;
    const store = {
      manifest,
      ...read,
      ...(method_score_columns ? { method_score_columns } : {}),
      ...(trajectory_order ? { trajectory_order } : {}),
      items: read.items ?? [],
      labels,
    } as StoreFrame;
    return { store, files, warnings: [], rows };
  } finally {
    await conn.close();
  }
}

/**
 * A store's label runs as the server sends them: packed (a few numbers a run, as columns), or as label codes (rows,
 * and their columns); `judgments`, the rows of the judgments table (the runs should hold them all).
 */
type Runs = { judgments: number } & (
  | { packed: true; columns: PackedRunColumns }
  | { packed: false; columns: RunColumns; rows: CodedRunRow[] }
);

/**
 * The label runs, packed unless the evidence is asked for or a run holds what packing cannot (a grade, a
 * NotApplicable label, an item past the 52nd): those stores are read again as label codes.
 */
async function labelRuns(
  conn: ClickhouseConnection,
  tables: RunTables,
  primaryJudge: string,
  evidence: boolean,
): Promise<Runs> {
  const counted = conn.rows<{ n: string; t: string }>(
    `SELECT (SELECT count() FROM ${tables.db}.judgments) AS n, (SELECT count() FROM ${tables.db}.trajectories) AS t`,
  );
  counted.catch(() => {});
  const judgments = async () => Number((await counted)[0].n);
  if (!evidence) {
    // Asked for at once: the grouping is the servers' longest work, and the counts that size its columns come
    // back long before its first run. Sized for two runs a trajectory, at most a run a judgment (the columns grow
    // if there are more): room never written costs nothing (its pages are not touched), while growing copied the
    // columns into fresh ones (the scale-100 store has 485,436 runs of 484,788 trajectories).
    const expected = countHint(counted, ([{ n, t }]) => Math.min(Number(n), 2 * Number(t)));
    const columns = await conn.binaryRead(packedRunsSql(tables, primaryJudge), () => packedRunsReader(expected));
    if (!columns.special.includes(1)) return { packed: true, columns, judgments: await judgments() };
  }
  const rows = (await conn.binaryRows(
    codedRunsSql(tables, primaryJudge, evidence),
    codedRunColumns(evidence),
  )) as unknown[] as CodedRunRow[];
  return { packed: false, rows, columns: runColumnsOf(rows), judgments: await judgments() };
}

/** As a folder's (store/store-folder.ts checkRequiredTables): items and judgments may be absent together when the
 * store says judgments are optional. */
function requiredTables(
  db: string,
  tables: Set<string>,
  manifest: Manifest,
  options: ReadStoreOptions,
  problems: { add(p: Problem): void },
) {
  const judgmentsOptional = options.allowMissingJudgments || manifest.judgments_optional === true;
  for (const required of ["tasks", "items", "trajectories", "judgments"] as const) {
    const optional =
      (required === "items" || required === "judgments") && judgmentsOptional && !tables.has("judgments");
    if (!tables.has(required) && !optional)
      problems.add({ file: `${db}.${required}`, message: `required table "${required}" is missing` });
  }
}

/**
 * The store's keys and references (store/check-references.ts), checked at once without the judgments' own problems
 * (their checks usually find none). The answer gives the problems, in checkReferences' order, given what the
 * judgments' checks found: the first check's when they found nothing (it is a function of its inputs alone), else a
 * check again with them in their place.
 */
function referenceProblems(
  small: Pick<Awaited<ReturnType<typeof smallTables>>, "read" | "locations" | "files">,
  o: { primaryJudge: string; trajectoryIdsUnique: boolean; schemaVersion: number },
) {
  const check = (judgments?: { duplicates: Problem[]; references: Problem[] }) => {
    const found: Problem[] = [];
    checkReferences(small.read, small.locations, small.files, (p) => found.push(p), { ...o, judgments });
    return found;
  };
  const alone = check();
  return (judgments?: { duplicates: Problem[]; references: Problem[] }) =>
    judgments && judgments.duplicates.length + judgments.references.length > 0 ? check(judgments) : alone;
}

/**
 * The judgments' checks: from the label runs' screen when it passes them and nothing else is wrong (a store whose
 * runs the screen passes has nothing the checks would name), else the checks themselves, to name what is wrong.
 * Their row problems are added to `problems`; the rest go to checkReferences.
 */
async function judgmentChecks(
  conn: ClickhouseConnection,
  db: string,
  o: {
    runs: Promise<Runs>;
    small: Awaited<ReturnType<typeof smallTables>>;
    problems: ProblemList;
    primaryJudge: string;
    options: ReadStoreOptions;
  },
) {
  o.options.onProgress?.(`checking ${db}.judgments on the server`);
  const runs = await o.runs;
  const screen = screenLabelRuns(runs.columns, runs.judgments);
  const checks =
    // Trajectory ids twice are named later (checkReferences), with whatever the checks say of their judgments.
    screen.clean && o.problems.count === 0 && o.small.plain
      ? { rows: screen.rows, rowProblems: [], duplicates: [], references: [], graded: screen.graded }
      : await checkJudgments(conn, db, `${db}.judgments`, o.primaryJudge, o.problems.cap);
  o.small.rows.judgments = checks.rows;
  for (const p of checks.rowProblems) o.problems.add(p);
  return checks;
}

/** Every table but the judgments, as validated rows with their row numbers (the judgments' file name too). */
async function smallTables(
  conn: ClickhouseConnection,
  db: string,
  { tables, shard, order }: { tables: Set<string>; shard: Map<string, string>; order?: Promise<Buffer | undefined> },
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
  const read1 = (table: TableName) => {
    options.onProgress?.(`reading ${db}.${table}`);
    return validRows(conn, db, table, files[table]);
  };
  const trajectories = present.includes("trajectories")
    ? Promise.all([read1("trajectories"), order]).then(([t, ids]) => withTrajectoryFacts(t, ids))
    : undefined;
  const got = await Promise.all(
    present
      .filter((table) => table !== "judgments")
      .map(async (table) => {
        if (table === "trajectories") return { table, ...(await trajectories!) };
        if (table === "method_scores" && trajectories) {
          // As columns when the server's screen finds nothing to report (method-score-columns.ts), as a folder's.
          const columns = await clickhouseMethodScoreColumns(
            conn,
            db,
            `${db}.${shard.get("trajectories")}`,
            trajectories,
          );
          if (columns) return { table, columns, rows: undefined, count: columns.length, problems: [] };
        }
        return { table, ...(await read1(table)) };
      }),
  );
  let method_score_columns: MethodScoreColumns | undefined;
  for (const g of got) {
    for (const p of g.problems) problems.add(p);
    rows[g.table] = g.count;
    if ("columns" in g) {
      method_score_columns = g.columns;
      continue;
    }
    read[g.table] = g.rows;
    locations[g.table] = g.locations;
  }
  const facts = await trajectories;
  return {
    files,
    rows,
    read,
    locations,
    method_score_columns,
    idsUnique: facts?.idsUnique ?? false,
    plain: facts?.plain ?? false,
    order: facts?.order,
    positionOf: facts?.positionOf ?? (() => undefined),
  };
}

/**
 * What the reads after the trajectories want to know of them, derived once: whether the valid rows' ids are
 * distinct (checkReferences then skips that check, as a folder's read does), whether every row is valid with
 * distinct ids (`plain`: method scores as columns, the judgments' screen taken as their checks, the trajectory
 * order), each trajectory's position by its `_row`, and the id order from the server's `_row`s in id order
 * (`ids`, trajectory-order-sql.ts), which also says whether the ids are distinct.
 */
function withTrajectoryFacts<T extends Awaited<ReturnType<typeof validRows>>>(t: T, ids: Buffer | undefined) {
  const positionOf = positionsByRow(t.at);
  const rows = t.rows as Trajectory[];
  const ordered = ids && t.problems.length === 0 ? trajectoryOrderOf(ids, rows, positionOf) : undefined;
  const idsUnique = ordered ? ordered.idsUnique : new Set(rows.map((r) => r.trajectory_id)).size === rows.length;
  return { ...t, idsUnique, plain: idsUnique && t.problems.length === 0, positionOf, order: ordered?.order };
}

/**
 * The store tables the database holds, each with its shard table, and its clusters (stored-tables.ts storeTables); an
 * InputError when there is no such database or it holds no store.
 */
async function storeTablesIn(conn: ClickhouseConnection, text: string, db: string) {
  const dbs = await conn.rows(`SELECT name FROM system.databases WHERE name = ${sqlString(db)}`);
  if (dbs.length === 0) throw new InputError(`${text}: no database "${db}" on the server`);
  const set = await storeTables(conn, db);
  if (!set.shard.has(MANIFEST_TABLE))
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
): Promise<{ rows: unknown[]; locations: RowLocations; count: number; problems: Problem[]; at: number[] }> {
  const stored = await storedRows(conn, db, table);
  const rows: unknown[] = [];
  const problems: Problem[] = [];
  const locations = new RowLocations();
  // A plainly valid trajectory, item or task skips zod, as a folder's does (store/fast-rows.ts).
  const plain = fastRowOf(TABLE_SCHEMAS[table]);
  stored.rows.forEach((row, k) => {
    const at = stored.at[k] + 1;
    const fast = plain?.(row);
    const parsed = fast ? { success: true as const, data: fast } : TABLE_SCHEMAS[table].safeParse(row);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ file, row: at, field: issueField(issue), message: issueMessage(issue, row) });
      return;
    }
    rows.push(parsed.data);
    locations.push(undefined, at);
  });
  return { rows, locations, count: stored.rows.length, problems, at: stored.at };
}

/**
 * The label vectors from the server's runs, one per (trajectory, judge, run), held by trajectory position as a
 * folder's are (store/packed-label-runs.ts labelVectorsByPosition: the Map by id is built only when asked for);
 * each trajectory's runs in the order of their first row.
 */
function labelVectors(
  got: Runs,
  store: StoreFrame,
  o: { evidence: boolean; judgments: number; primaryJudge: string; positionOf: (row: number) => number | undefined },
): LabelVectors {
  const { evidence, judgments, primaryJudge, positionOf } = o;
  const packed = new PackedLabels(new StringPool());
  const runs = got.columns;
  const byPosition = new Array<LabelRun[] | undefined>(store.trajectories.length);
  const firstSeen: number[] = [];
  for (const k of inFirstRowOrder(runs.first)) {
    // Every run's trajectory is in the store: the screen (or the checks) said so before this is called.
    const position = positionOf(runs.trow[k])!;
    const n = runs.size[k];
    // The primary judge comes back as null (judgments-sql.ts primaryAsNull).
    const run: LabelRun = {
      judge: runs.jj[k] ?? primaryJudge,
      run: runs.rr[k],
      labels: got.packed ? packed.labels(n, got.columns.lo[k], got.columns.hi[k]) : "",
    };
    if (!got.packed) codedRun(run, got.rows[k], n, evidence);
    const list = byPosition[position];
    if (list) list.push(run);
    else {
      byPosition[position] = [run];
      firstSeen.push(position);
    }
  }
  return labelVectorsByPosition(judgments, store.trajectories, byPosition, firstSeen);
}

/**
 * The runs' indices in the order of their first rows (distinct: runs share no row). A native sort of numbers, each
 * first row × 2²¹ + its index (exact below 2⁵³), instead of a comparator's calls; a comparator past 2²¹ runs.
 */
function inFirstRowOrder(first: ArrayLike<number>): Uint32Array {
  const n = first.length;
  const SPAN = 2 ** 21;
  if (n >= SPAN) return Uint32Array.from({ length: n }, (_, k) => k).sort((a, b) => first[a] - first[b]);
  const keys = new Float64Array(n);
  for (let k = 0; k < n; k++) keys[k] = first[k] * SPAN + k;
  keys.sort();
  const order = new Uint32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % SPAN;
  return order;
}

/** A run's labels (and evidence when asked) from its label codes. */
function codedRun(run: LabelRun, r: CodedRunRow, n: number, evidence: boolean) {
  // A run that judges every item comes in checklist order; one that does not names its positions.
  const at = (k: number) => (r.ps.length ? r.ps[k] : k + 1) - 1;
  run.labels = labelString(r, n, at);
  if (!evidence) return;
  const e = new Array<string | null>(n).fill(null);
  (r.ev ?? []).forEach((text, k) => {
    e[at(k)] = text;
  });
  run.evidence = e;
}

/** A run's label string: its codes as they came when it judged every item with no grade, else placed by position. */
function labelString(r: CodedRunRow, n: number, at: (k: number) => number): string {
  if (r.ps.length === 0 && r.gp.length === 0 && r.codes.length === n) return r.codes;
  const chars = new Array<string>(n).fill(".");
  for (let k = 0; k < r.codes.length; k++) chars[at(k)] = r.codes[k];
  r.gp.forEach((pos, k) => {
    chars[pos - 1] = gradeChar(r.gv[k]);
  });
  return chars.join("");
}
