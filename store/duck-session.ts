// A reading pass's own DuckDB database, inside an instance the process shares between passes.
//
// Why: creating a DuckDB instance costs about 11 ms and closing it about 2 (measured with @duckdb/node-api
// on this machine), a quarter of validating a small store; attaching an in-memory database to a live
// instance and detaching it costs about 1.5 ms. Each pass still sees only its own tables: its connections
// `USE` its database, so the unqualified names of its SQL (ref_trajectories, judgments, ...) resolve there,
// and two passes at once (a site build reads several stores) never see each other's tables.
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

/** What a reading step asks of its database: connections (the subset of DuckDBInstance it uses). */
export interface DuckSession {
  connect(): Promise<DuckDBConnection>;
}

interface SharedInstance {
  instance: DuckDBInstance;
  /** Runs `sql` on the connection that attaches and detaches the passes' databases (it never USEs one), one
   * statement at a time: passes open and close concurrently, and a connection runs one query at once. */
  admin: (sql: string) => Promise<void>;
}

/** One instance per distinct configuration (the read's, the judgment pass's), created once. */
const instances = new Map<string, Promise<SharedInstance>>();
let opened = 0;

/**
 * A fresh in-memory database in the shared instance of this configuration, and `close` to detach it (which
 * frees its tables; connections still open on it then fail, as after an instance's close).
 */
export async function openDuckSession(
  config: Record<string, string>,
): Promise<DuckSession & { close(): Promise<void> }> {
  const key = JSON.stringify(Object.entries(config).sort());
  let shared = instances.get(key);
  if (!shared) {
    shared = (async () => {
      const instance = await DuckDBInstance.create(":memory:", config);
      const conn = await instance.connect();
      let queue: Promise<unknown> = Promise.resolve();
      const admin = (sql: string) => {
        const next = queue.then(() => conn.run(sql));
        queue = next.catch(() => undefined);
        return next.then(() => undefined);
      };
      return { instance, admin };
    })();
    instances.set(key, shared);
    // A failed creation is not kept: the next pass tries again (and reports its own error).
    shared.catch(() => instances.delete(key));
  }
  const { instance, admin } = await shared;
  const name = `gcpc_pass_${process.pid}_${++opened}`;
  await admin(`ATTACH ':memory:' AS ${name}`);
  let closed = false;
  return {
    async connect() {
      const conn = await instance.connect();
      await conn.run(`USE ${name}`);
      return conn;
    },
    async close() {
      if (closed) return;
      closed = true;
      await admin(`DETACH DATABASE IF EXISTS ${name}`);
    },
  };
}
