import { randomBytes } from "node:crypto";
import type { Store } from "../../analysis/schema/store.js";
import { TABLE_NAMES } from "../../analysis/schema/tables.js";
import { InputError } from "../problems.js";
import { mergeStores, type MergeCounts } from "../import/merge-store.js";
import { ClickhouseConnection, sqlString } from "./connection.js";
import { binaryColumn } from "./row-binary.js";
import { deadOrWhy, REGISTRY_COLUMNS, REGISTRY_TABLE, thisCopy, type CopyProcess } from "./copy-registry.js";
import type { ClickhouseLocation } from "./location.js";
import { manifestTexts, storedRows, tablesIn } from "./stored-tables.js";
import {
  columnDefinitions,
  columnTypes,
  MANIFEST_COLUMNS,
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
    await staging.register();
    await staging.cleanDead();
    const existing = await tablesIn(conn, db);
    const { store, merged } = await storeToWrite(conn, location, existing, source, options);
    const rows: Record<string, number> = {};
    const taskOf = new Map(store.trajectories.map((t) => [t.trajectory_id, t.task_id]));
    for (const table of TABLE_NAMES) {
      const list = store[table] as Record<string, unknown>[] | undefined;
      if (!list || list.length === 0) continue;
      rows[table] = list.length;
      const values = list.map((r, k) => toClickhouseRow(table, r, k, taskOfRow(r, taskOf)));
      await staging.write(table, columnTypes(table), values);
    }
    await staging.write(MANIFEST_TABLE, MANIFEST_COLUMNS, [
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

  /** This copy's row in the database's registry of copies (copy-registry.ts), written before anything is staged. */
  async register(): Promise<void> {
    const { conn, db } = this;
    await conn.command(
      `CREATE TABLE IF NOT EXISTS ${db}.${REGISTRY_TABLE}${this.onCluster} (${columnDefinitions(REGISTRY_COLUMNS)}) ` +
        "ENGINE = MergeTree ORDER BY token",
      this.ddlSettings(),
    );
    await conn.insertRowBinary(
      `${db}.${REGISTRY_TABLE}`,
      REGISTRY_COLUMNS.map(([name, type]) => binaryColumn(name, type)),
      [{ ...thisCopy(this.token) }],
    );
  }

  /**
   * Drops what earlier copies that provably stopped left staged (their `_stage_TOKEN_*` tables and their shard
   * tables `*_local_TOKEN`, unless a live table reads one); names the ones that may still run and leaves them.
   */
  async cleanDead(): Promise<void> {
    const { conn, db } = this;
    const hosts = await this.hostTables();
    const names = new Set(hosts.flatMap((h) => [...(h.tables?.keys() ?? [])]));
    const tokens = new Set(
      [...names].flatMap((n) => /^_stage_([0-9a-f]{8})_/.exec(n)?.[1] ?? []).filter((t) => t !== this.token),
    );
    if (tokens.size === 0) return;
    const copies = new Map(
      (
        await conn.rows<CopyProcess & { pid: string }>(
          `SELECT token, host, boot, pid, started FROM ${db}.${REGISTRY_TABLE}`,
        )
      ).map((c) => [c.token, { ...c, pid: Number(c.pid) }]),
    );
    const dead: string[] = [];
    for (const token of [...tokens].sort()) {
      const copy = copies.get(token);
      const verdict = copy ? deadOrWhy(copy) : "no copy of this tool registered it";
      if (verdict === true) dead.push(token);
      else this.options.onProgress?.(`left the tables an earlier copy staged (_stage_${token}_*): ${verdict}`);
    }
    if (dead.length === 0) return;
    this.options.onProgress?.(`dropping the tables that ${dead.length} stopped copy(ies) staged`);
    for (const n of [...names].filter((n) => dead.some((t) => n.startsWith(`_stage_${t}_`))))
      await conn.command(`DROP TABLE IF EXISTS ${db}.${n}${this.onCluster}`, this.ddlSettings());
    await this.dropUnreferenced((n) => dead.some((t) => n.endsWith(`_local_${t}`)));
  }

  async write(table: string, types: [string, string][], values: Record<string, unknown>[]): Promise<void> {
    const columns = columnDefinitions(types);
    const binary = types.map(([name, type]) => binaryColumn(name, type));
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
      await conn.insertRowBinary(`${db}.${stage}`, binary, values.slice(at, at + INSERT_BATCH), {
        ...(options.cluster ? { insert_distributed_sync: 1 } : {}),
      });
    }
  }

  private old = (t: string) => `_old_${this.token}_${t}`;

  /**
   * One RENAME: the old tables aside, the staged ones in place, the manifest last; then what no live table
   * points to any more is dropped. A rename that fails on some host (ClickHouse renames table by table, on each
   * host of ON CLUSTER separately, so a failure can stop half-way) is undone on every host ({@link undo}).
   */
  async swap(existing: Set<string>): Promise<void> {
    const { db } = this;
    const moves = [
      ...this.names.filter((t) => existing.has(t)).map((t) => `${db}.${t} TO ${db}.${this.old(t)}`),
      ...this.names.map((t) => `${db}.${this.stage(t)} TO ${db}.${t}`),
    ];
    this.options.onProgress?.("putting the tables in place");
    try {
      await this.conn.command(`RENAME TABLE ${moves.join(", ")}${this.onCluster}`, this.ddlSettings());
    } catch (e) {
      const hosts = await this.hostTables();
      // The rename reached every host and only its report failed (a time-out waiting for the last host): done.
      if (!hosts.every((h) => h.tables && this.names.every((t) => this.isNew(h.tables!, t, existing)))) {
        this.staged.length = 0; // undo decides what may be dropped
        await this.undo(existing, e as Error, hosts);
      }
    }
    this.staged.length = 0;
    await this.dropUnreferenced((name) => name.startsWith(`_old_${this.token}_`) || /_local_[0-9a-f]{8}$/.test(name));
  }

  /** Whether a host holds the copy's table `t` in place: the staged name gone, and the new table under `t`. */
  private isNew(tables: Map<string, string>, t: string, existing: Set<string>): boolean {
    if (!tables.has(t) || tables.has(this.stage(t))) return false;
    // On a cluster the new Distributed table names this copy's shard table; alone, the old one was moved aside.
    if (this.options.cluster) return tables.get(t)!.includes(`${t}_local_${this.token}`);
    return !existing.has(t) || tables.has(this.old(t));
  }

  /**
   * After a failed swap: on every host, each table the rename put in place goes back to its staged name and the
   * old table moved aside comes back (issue 57.1: the error path dropped the shard tables that the renamed
   * tables on node 1 pointed to, and the store was lost). Each statement runs ON CLUSTER and does something only
   * on the hosts in the state it undoes: elsewhere its source is missing or its target exists, and ClickHouse
   * refuses it there without changing anything. What each host then holds is read back; the staged tables are
   * dropped only when every host answers and holds the old store, else they are left and named.
   */
  private async undo(existing: Set<string>, cause: Error, before: HostTables[]): Promise<never> {
    const { db, onCluster } = this;
    this.options.onProgress?.("the rename failed on some host: putting the old store back");
    const tried = async (sql: string) => this.conn.command(sql, this.ddlSettings()).catch(() => {});
    for (const t of [...this.names].reverse()) {
      if (before.some((h) => h.tables && this.isNew(h.tables, t, existing)))
        await tried(`RENAME TABLE ${db}.${t} TO ${db}.${this.stage(t)}${onCluster}`);
      if (existing.has(t) && before.some((h) => h.tables?.has(this.old(t))))
        await tried(`RENAME TABLE ${db}.${this.old(t)} TO ${db}.${t}${onCluster}`);
    }
    const after = await this.hostTables();
    const silent = after.filter((h) => !h.tables);
    const wrong = after.filter(
      (h) =>
        h.tables &&
        // The old store in place: every staged table back under its staged name, every old table under its own.
        this.names.some((t) => !h.tables!.has(this.stage(t)) || (existing.has(t) && !h.tables!.has(t))),
    );
    const reason = cause.message.replace(/\.$/, "");
    if (silent.length === 0 && wrong.length === 0) {
      this.staged.push(...this.names.map((t) => this.stage(t)));
      if (this.options.cluster) this.staged.push(...this.names.map((t) => `${t}_local_${this.token}`));
      await this.dropStaged();
      throw new InputError(
        `${reason}; the copy was undone: every host holds the store as it was before (nothing was written)`,
      );
    }
    const names = this.names.map((t) => this.stage(t)).join(", ");
    throw new InputError(
      `${reason}; ` +
        (silent.length
          ? `${silent.map((h) => h.host).join(", ")} did not answer: the statements that put the old store back ` +
            "wait in ZooKeeper's queue and run there, in order, when it returns; "
          : "") +
        (wrong.length ? `${wrong.map((h) => h.host).join(", ")} could not be put back; ` : "") +
        `no table was dropped: the staged tables ${names} are left in ${db}`,
    );
  }

  /**
   * Each host's tables in the database (name → engine_full): the connected server alone, or every host of the
   * cluster read through remote() from it; a host that does not answer has `tables` null.
   */
  async hostTables(): Promise<HostTables[]> {
    const query = (from: string) => `SELECT name, engine_full FROM ${from} WHERE database = ${sqlString(this.db)}`;
    const read = async (from: string) =>
      new Map(
        (await this.conn.rows<{ name: string; engine_full: string }>(query(from))).map((r) => [r.name, r.engine_full]),
      );
    if (!this.options.cluster) return [{ host: this.conn.location.text, tables: await read("system.tables") }];
    return Promise.all(
      (await clusterHosts(this.conn, this.options.cluster)).map(async (host) => ({
        host,
        tables: await read(`remote(${sqlString(host)}, system, tables)`).catch(() => null),
      })),
    );
  }

  /**
   * Drops the tables `dropped` chooses that no table left on any host points to (a Distributed table names its
   * shard table in engine_full): never what a live table reads. Only when every host answers.
   */
  private async dropUnreferenced(dropped: (name: string) => boolean): Promise<void> {
    const hosts = await this.hostTables();
    if (hosts.some((h) => !h.tables)) return;
    const names = new Set(hosts.flatMap((h) => [...h.tables!.keys()]));
    const gone = [...names].filter((n) => dropped(n) && !n.startsWith("_stage_"));
    const live = hosts.flatMap((h) => [...h.tables!].filter(([n]) => !gone.includes(n)).map(([, engine]) => engine));
    const pointedAt = (n: string) => live.some((engine) => new RegExp(`[\\s,'(]${n}['),\\s]`).test(engine));
    // Distributed tables first, then the shard tables nothing points to any more.
    for (const n of gone.filter((n) => !/_local_[0-9a-f]{8}$/.test(n)))
      await this.conn.command(`DROP TABLE IF EXISTS ${this.db}.${n}${this.onCluster}`, this.ddlSettings());
    for (const n of gone.filter((n) => /_local_[0-9a-f]{8}$/.test(n) && !pointedAt(n)))
      await this.conn.command(`DROP TABLE IF EXISTS ${this.db}.${n}${this.onCluster}`, this.ddlSettings());
  }

  /** ON CLUSTER statements wait for every host at most the request time-out (not ClickHouse's 180 s). */
  private ddlSettings() {
    return this.options.cluster
      ? { distributed_ddl_task_timeout: String(Math.ceil(this.conn.timeoutSeconds)) }
      : undefined;
  }

  /** Best effort: a copy that failed before its swap drops what it staged (a killed one leaves staging tables). */
  async dropStaged(): Promise<void> {
    for (const t of this.staged.reverse())
      await this.conn
        .command(`DROP TABLE IF EXISTS ${this.db}.${t}${this.onCluster}`, this.ddlSettings())
        .catch(() => {});
    this.staged.length = 0;
  }
}

/** One host's tables in the database (name → engine_full); null when the host did not answer. */
interface HostTables {
  host: string;
  tables: Map<string, string> | null;
}

/** The task a row belongs to: its own, its trajectory's, or "" (the cluster's sharding key). */
function taskOfRow(row: Record<string, unknown>, taskOf: Map<string, string>): string {
  if (typeof row.task_id === "string") return row.task_id;
  const trajectory = row.trajectory_id ?? row.trajectory_a;
  return (typeof trajectory === "string" && taskOf.get(trajectory)) || "";
}

/** The server knows the cluster, and every host of it answers (through remote(), from the connected server). */
async function checkCluster(conn: ClickhouseConnection, text: string, cluster: string): Promise<void> {
  const hosts = await clusterHosts(conn, cluster);
  if (hosts.length === 0)
    throw new InputError(`${text}: the server has no cluster "${cluster}" (its remote_servers configuration)`);
  // Every host answers before anything is written (issue 57.3: with a shard down, the first ON CLUSTER statement
  // waited ClickHouse's 180 s in silence and then failed); one that does not is named with its shard and the cause.
  for (const at of hosts)
    await conn.rows(`SELECT 1 FROM remote(${sqlString(at)}, system, one)`).catch((e: Error) => {
      throw new InputError(`${e.message} (checked before writing: nothing was written)`);
    });
}

/** The cluster's hosts as `address:port` (native ports), in the server's order; none when it has no such cluster. */
async function clusterHosts(conn: ClickhouseConnection, cluster: string): Promise<string[]> {
  const rows = await conn.rows<{ host_address: string; port: number }>(
    `SELECT host_address, port FROM system.clusters WHERE cluster = ${sqlString(cluster)}`,
  );
  return rows.map((h) => `${h.host_address}:${h.port}`);
}

/** Every table of a ClickHouse store as rows (a merge reads them: --into). */
async function clickhouseStoreRows(conn: ClickhouseConnection, db: string, tables: Set<string>): Promise<Store> {
  const [manifest] = await manifestTexts(conn, db);
  const out: Record<string, unknown> = { manifest: JSON.parse(manifest) };
  for (const table of TABLE_NAMES) {
    if (!tables.has(table)) continue;
    out[table] = (await storedRows(conn, db, table)).rows;
  }
  for (const t of ["tasks", "items", "trajectories", "judgments"]) out[t] ??= [];
  return out as unknown as Store;
}
