// A reading pass's own DuckDB database, inside an instance the process shares between passes.
//
// Why: creating a DuckDB instance costs about 11 ms and closing it about 2 (measured with @duckdb/node-api
// on this machine), a quarter of validating a small store; attaching an in-memory database to a live
// instance and detaching it costs about 1.5 ms. Each pass still sees only its own tables: its connections
// `USE` its database, so the unqualified names of its SQL (ref_trajectories, judgments, ...) resolve there,
// and two passes at once (a site build reads several stores) never see each other's tables.
import type { DuckDBInstance, DuckDBConnection } from "@duckdb/node-api";

/** What a reading step asks of its database: connections (the subset of DuckDBInstance it uses). */
export interface DuckSession {
  connect(): Promise<DuckDBConnection>;
}

interface SharedInstance {
  instance: DuckDBInstance;
  /** Runs `sql` on the connection that attaches and detaches the passes' databases (it never USEs one), one
   * statement at a time: passes open and close concurrently, and a connection runs one query at once. */
  admin: (sql: string) => Promise<void>;
  /** Closes the admin connection and the instance. */
  end: () => void;
}

/** A configuration's instance, created once, and how many passes hold a database in it (opening or open). */
interface Entry {
  shared: Promise<SharedInstance>;
  users: number;
}

/** One instance per distinct configuration (the read's, the judgment pass's). */
const instances = new Map<string, Entry>();
let opened = 0;

/** How a pass's database is closed. */
export interface CloseOptions {
  /**
   * Also close the instance once no pass holds a database in it. DuckDB keeps the memory a large read
   * used after its database is detached (scale 100: 1.09 → 1.21 GiB peak for the rest of the report), so
   * a large read returns it; the next read then creates an instance again (about 11 ms).
   */
  release?: boolean;
}

/**
 * A fresh in-memory database in the shared instance of this configuration, and `close` to detach it (which
 * frees its tables; connections still open on it then fail, as after an instance's close).
 */
export async function openDuckSession(
  config: Record<string, string>,
): Promise<DuckSession & { close(options?: CloseOptions): Promise<void> }> {
  const key = JSON.stringify(Object.entries(config).sort());
  let entry = instances.get(key);
  if (!entry) {
    const shared = (async () => {
      const { DuckDBInstance } = await import("@duckdb/node-api");
      const instance = await DuckDBInstance.create(":memory:", config);
      const conn = await instance.connect();
      let queue: Promise<unknown> = Promise.resolve();
      const admin = (sql: string) => {
        const next = queue.then(() => conn.run(sql));
        queue = next.catch(() => undefined);
        return next.then(() => undefined);
      };
      const end = () => {
        conn.closeSync?.();
        instance.closeSync?.();
      };
      return { instance, admin, end };
    })();
    const made: Entry = { shared, users: 0 };
    entry = made;
    instances.set(key, made);
    // A failed creation is not kept: the next pass tries again (and reports its own error).
    shared.catch(() => {
      if (instances.get(key) === made) instances.delete(key);
    });
  }
  const held = entry;
  held.users++;
  const leave = async (release: boolean) => {
    held.users--;
    if (!release || held.users > 0 || instances.get(key) !== held) return;
    instances.delete(key);
    (await held.shared).end();
  };
  let instance: DuckDBInstance;
  let admin: SharedInstance["admin"];
  const name = `gcpc_pass_${process.pid}_${++opened}`;
  try {
    ({ instance, admin } = await held.shared);
    await admin(`ATTACH ':memory:' AS ${name}`);
  } catch (e) {
    await leave(false); // this pass never held a database: give up its place, keep the instance for the others
    throw e;
  }
  let closed = false;
  return {
    async connect() {
      const conn = await instance.connect();
      await conn.run(`USE ${name}`);
      return conn;
    },
    async close(options = {}) {
      if (closed) return;
      closed = true;
      try {
        await admin(`DETACH DATABASE IF EXISTS ${name}`);
      } finally {
        await leave(options.release === true);
      }
    },
  };
}
