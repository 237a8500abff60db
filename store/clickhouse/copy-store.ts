import { randomBytes } from "node:crypto";
import type { Store } from "../../analysis/schema/store.js";
import { TABLE_NAMES } from "../../analysis/schema/tables.js";
import { InputError } from "../problems.js";
import { mergeStores, type MergeCounts } from "../import/merge-store.js";
import { ClickhouseConnection, sqlString } from "./connection.js";
import type { ClickhouseLocation } from "./location.js";
import { manifestTexts, storedRows, tablesIn } from "./stored-tables.js";
import {
  columnDefinitions,
  fromClickhouseRow,
  MANIFEST_TABLE,
  ROW_COLUMN,
  TASK_COLUMN,
  toClickhouseRow,
} from "./table-layout.js";

export interface CopyOptions {
  /** A cluster of the server's remote_servers: each table local on every shard plus a Distributed table. */
  cluster?: string;
  /** Merge into the store the database holds (the folder stores' --into key rules) instead of refusing. */
  into?: boolean;
  onProgress?: (step: string) => void;
}

export interface CopySummary {
  rows: Record<string, number>;
  merged?: MergeCounts;
  /** The tables' engine as the server reports it (Distributed on a cluster copy, MergeTree otherwise). */
  engines: Record<string, string>;
}

const INSERT_BATCH = 50_000;

/**
 * Writes a store's rows into a ClickHouse database (docs/scaling.md). Atomic from a reader's view: every table
 * is written under a staging name, then one RENAME puts them all in place (and moves a merged store's old
 * tables aside, dropped afterwards), the manifest table among them; a reader needs the manifest table, so a
 * copy stopped before the rename leaves only staging tables no reader looks at. On a cluster the statements
 * run ON CLUSTER (distributed DDL through ZooKeeper) and each table is a MergeTree table on every shard plus a
 * Distributed table over them, sharded by task (`_task`, so a task's rows sit on one shard). Inserts into a
 * Distributed table are synchronous (insert_distributed_sync), so the rows are on the shards when it returns.
 */
export async function copyToClickhouse(
  source: Store,
  location: ClickhouseLocation,
  options: CopyOptions = {},
): Promise<CopySummary> {
  const conn = new ClickhouseConnection(location);
  const db = location.database;
  const staging = new Staging(conn, db, options);
  try {
    await conn.reach();
    if (options.cluster) await checkCluster(conn, location.text, options.cluster);
    await conn.command(`CREATE DATABASE IF NOT EXISTS ${db}${staging.onCluster}`);
    const existing = await tablesIn(conn, db);
    const { store, merged } = await storeToWrite(conn, location, existing, source, options);
    const rows: Record<string, number> = {};
    const taskOf = new Map(store.trajectories.map((t) => [t.trajectory_id, t.task_id]));
    for (const table of TABLE_NAMES) {
      const list = store[table] as Record<string, unknown>[] | undefined;
      if (!list || list.length === 0) continue;
      rows[table] = list.length;
      const values = list.map((r, k) => toClickhouseRow(table, r, k, taskOfRow(r, taskOf)));
      await staging.write(table, columnDefinitions(table), values);
    }
    await staging.write(MANIFEST_TABLE, `manifest String, ${ROW_COLUMN} UInt64, ${TASK_COLUMN} String`, [
      { manifest: JSON.stringify(store.manifest), [ROW_COLUMN]: 0, [TASK_COLUMN]: "" },
    ]);
    await staging.swap(existing);
    const engines = Object.fromEntries(
      (
        await conn.rows<{ name: string; engine: string }>(
          `SELECT name, engine FROM system.tables WHERE database = ${sqlString(db)}`,
        )
      )
        .filter((r) => staging.names.includes(r.name))
        .map((r) => [r.name, r.engine]),
    );
    return { rows, engines, ...(merged ? { merged } : {}) };
  } catch (e) {
    await staging.dropStaged();
    throw e;
  } finally {
    await conn.close();
  }
}

/** The rows to write: the source's, or merged with the store the database holds (--into); else a refusal. */
async function storeToWrite(
  conn: ClickhouseConnection,
  location: ClickhouseLocation,
  existing: Set<string>,
  source: Store,
  options: CopyOptions,
): Promise<{ store: Store; merged?: MergeCounts }> {
  if (existing.has(MANIFEST_TABLE)) {
    if (!options.into)
      throw new InputError(
        `${location.text} already holds a store; add --into to merge into it, or copy to another database`,
      );
    await checkLayout(conn, location, options);
    options.onProgress?.(`reading the store in ${location.text} to merge into`);
    const { store, counts } = mergeStores(await clickhouseStoreRows(conn, location.database, existing), source);
    return { store, merged: counts };
  }
  const clash = TABLE_NAMES.filter((t) => existing.has(t));
  if (clash.length > 0)
    throw new InputError(
      `${location.text}: database "${location.database}" holds tables named like a store's (${clash.join(", ")}) ` +
        `but no ${MANIFEST_TABLE}: it is not a gcpc store; copy into a new or empty database`,
    );
  return { store: source };
}

/**
 * --into keeps the store's layout: a store spread over a cluster (its manifest a Distributed table) takes
 * --into only with --cluster naming that cluster, and a one-server store only without --cluster. Refused up front,
 * before anything is written (issue 57.1: `--into --cluster` onto a one-server store failed half-way through the
 * cluster-wide rename and lost the store; plain `--into` onto a cluster store made it a one-server store and left
 * node 2's tables behind).
 */
async function checkLayout(conn: ClickhouseConnection, location: ClickhouseLocation, options: CopyOptions) {
  const [row] = await conn.rows<{ engine: string; engine_full: string }>(
    `SELECT engine, engine_full FROM system.tables WHERE database = ${sqlString(location.database)} ` +
      `AND name = ${sqlString(MANIFEST_TABLE)}`,
  );
  const distributed = row?.engine === "Distributed";
  const cluster = distributed ? (/^Distributed\(\s*'?([^',)\s]+)/.exec(row.engine_full)?.[1] ?? "?") : null;
  if (cluster !== null && options.cluster === undefined)
    throw new InputError(
      `${location.text} is a store spread over cluster ${cluster}: --into keeps its layout, so add --cluster ` +
        `${cluster} (nothing was written)`,
    );
  if (cluster === null && options.cluster !== undefined)
    throw new InputError(
      `${location.text} is a one-server store: --into keeps its layout, so drop --cluster, or copy to a new ` +
        "database to spread a store over the cluster (nothing was written)",
    );
  if (cluster !== null && options.cluster !== undefined && cluster !== options.cluster)
    throw new InputError(
      `${location.text} is spread over cluster ${cluster}, not ${options.cluster}: --into keeps its layout ` +
        "(nothing was written)",
    );
}

/**
 * A copy's tables under staging names (`_stage_TOKEN_table`; on a cluster also the shard tables
 * `table_local_TOKEN`, which keep their name: the Distributed table names them), then swapped in place.
 */
class Staging {
  readonly onCluster: string;
  readonly names: string[] = [];
  private readonly staged: string[] = [];
  private readonly token = randomBytes(4).toString("hex");

  constructor(
    private readonly conn: ClickhouseConnection,
    private readonly db: string,
    private readonly options: CopyOptions,
  ) {
    this.onCluster = options.cluster ? ` ON CLUSTER ${options.cluster}` : "";
  }

  private stage = (t: string) => `_stage_${this.token}_${t}`;

  async write(table: string, columns: string, values: Record<string, unknown>[]): Promise<void> {
    const { conn, db, options, onCluster } = this;
    const stage = this.stage(table);
    const local = `${table}_local_${this.token}`;
    this.names.push(table);
    this.staged.push(stage);
    const engine = `ENGINE = MergeTree ORDER BY (${TASK_COLUMN}, ${ROW_COLUMN})`;
    if (options.cluster) {
      this.staged.push(local);
      await conn.command(`CREATE TABLE ${db}.${local}${onCluster} (${columns}) ${engine}`);
      await conn.command(
        `CREATE TABLE ${db}.${stage}${onCluster} AS ${db}.${local} ` +
          `ENGINE = Distributed(${options.cluster}, ${db}, ${local}, cityHash64(${TASK_COLUMN}))`,
      );
    } else await conn.command(`CREATE TABLE ${db}.${stage} (${columns}) ${engine}`);
    for (let at = 0; at < values.length; at += INSERT_BATCH) {
      options.onProgress?.(`writing ${table}: ${Math.min(at + INSERT_BATCH, values.length)} of ${values.length} rows`);
      await conn.insert(`${db}.${stage}`, values.slice(at, at + INSERT_BATCH), {
        ...(options.cluster ? { insert_distributed_sync: 1 } : {}),
      });
    }
  }

  /** One RENAME: the old tables aside, the staged ones in place, the manifest last; then the old ones dropped. */
  async swap(existing: Set<string>): Promise<void> {
    const { db, token } = this;
    const old = (t: string) => `_old_${token}_${t}`;
    const moves = [
      ...this.names.filter((t) => existing.has(t)).map((t) => `${db}.${t} TO ${db}.${old(t)}`),
      ...this.names.map((t) => `${db}.${this.stage(t)} TO ${db}.${t}`),
    ];
    this.options.onProgress?.("putting the tables in place");
    await this.conn.command(`RENAME TABLE ${moves.join(", ")}${this.onCluster}`);
    this.staged.length = 0;
    // The tables moved aside and the shard tables under them (named by an earlier copy's token).
    for (const name of await tablesIn(this.conn, db)) {
      const oldLocal = /_local_([0-9a-f]{8})$/.exec(name);
      if (name.startsWith(`_old_${token}_`) || (oldLocal && oldLocal[1] !== token && !name.startsWith("_stage_")))
        await this.conn.command(`DROP TABLE IF EXISTS ${db}.${name}${this.onCluster}`);
    }
  }

  /** Best effort: a failed copy drops what it staged (a killed one leaves staging tables, never a store). */
  async dropStaged(): Promise<void> {
    for (const t of this.staged.reverse())
      await this.conn.command(`DROP TABLE IF EXISTS ${this.db}.${t}${this.onCluster}`).catch(() => {});
  }
}

/** The task a row belongs to: its own, its trajectory's, or "" (the cluster's sharding key). */
function taskOfRow(row: Record<string, unknown>, taskOf: Map<string, string>): string {
  if (typeof row.task_id === "string") return row.task_id;
  const trajectory = row.trajectory_id ?? row.trajectory_a;
  return (typeof trajectory === "string" && taskOf.get(trajectory)) || "";
}

async function checkCluster(conn: ClickhouseConnection, text: string, cluster: string): Promise<void> {
  const rows = await conn.rows<{ n: string }>(
    `SELECT count() AS n FROM system.clusters WHERE cluster = ${sqlString(cluster)}`,
  );
  if (Number(rows[0]?.n ?? 0) === 0)
    throw new InputError(`${text}: the server has no cluster "${cluster}" (its remote_servers configuration)`);
}

/** Every table of a ClickHouse store as rows (a merge reads them: --into). */
async function clickhouseStoreRows(conn: ClickhouseConnection, db: string, tables: Set<string>): Promise<Store> {
  const [manifest] = await manifestTexts(conn, db);
  const out: Record<string, unknown> = { manifest: JSON.parse(manifest) };
  for (const table of TABLE_NAMES) {
    if (!tables.has(table)) continue;
    out[table] = (await storedRows(conn, db, table)).map((r) => fromClickhouseRow(table, r));
  }
  for (const t of ["tasks", "items", "trajectories", "judgments"]) out[t] ??= [];
  return out as unknown as Store;
}
