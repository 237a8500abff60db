import { availableParallelism } from "node:os";
import { type ClickhouseConnection, sqlString } from "./connection.js";

/** Whether a host names this machine: `localhost`, or a loopback address (127.0.0.0/8, ::1). */
export function isLoopback(host: string): boolean {
  return host === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1" || host === "[::1]";
}

/**
 * The threads each query of a read may ask of its servers, when they share this machine's cores: the location's host
 * and every shard of the store's clusters at a loopback address. This process's main thread decodes the answers as
 * they stream and is the read's critical path, so each server is held to its share of the cores less one (at least
 * 1): on the 2-core machine of docs/scaling.md the servers' threads had it waiting to run for about 0.8 s of the
 * scale-100 read, and `validate` took 0.95× the time with one thread a query. Undefined (the servers' own default)
 * when any server is elsewhere.
 */
export function readThreads(o: {
  host: string;
  shards: readonly { host_address: string; port: number }[];
  cores: number;
}): number | undefined {
  if (!isLoopback(o.host) || o.shards.some((s) => !isLoopback(s.host_address))) return undefined;
  const servers = Math.max(1, new Set(o.shards.map((s) => `${s.host_address}:${s.port}`)).size);
  return Math.max(1, Math.floor((o.cores - 1) / servers));
}

/**
 * readThreads for a store whose Distributed tables spread over `clusters` (none: one server), as the server lists
 * their shards.
 */
export async function readThreadsOf(
  conn: ClickhouseConnection,
  clusters: readonly string[],
): Promise<number | undefined> {
  if (!isLoopback(conn.location.host)) return undefined;
  const shards = clusters.length
    ? await conn.rows<{ host_address: string; port: number }>(
        `SELECT host_address, port FROM system.clusters WHERE cluster IN (${clusters.map(sqlString).join(", ")})`,
      )
    : [];
  return readThreads({ host: conn.location.host, shards, cores: availableParallelism() });
}
