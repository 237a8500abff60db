// `npm run bench -- arms [S] [--runs N] [--clickhouse clickhouse://HOST:PORT/DB [--clickhouse-only]]`: the arms
// commands at scale S (default 100) against the DuckDB floor, alternated in one sitting; with --clickhouse (a
// `gcpc copy` of the same generated store), the same leaderboard and compare read from ClickHouse, alternated with
// the folder's, each run's JSON held against the folder's, and the bytes that travel: what the CLI received
// (GCPC_CLICKHOUSE_BYTES) and what the shards' parts of the queries sent to node 1 (result_bytes of the non-initial
// queries in both nodes' system.query_log: start the cluster with GCPC_CLICKHOUSE_LOG_QUERIES=1, else this says
// they were not logged). --clickhouse-only times only the commands both paths run (leaderboard and compare), for
// more alternated runs in a sitting.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "../analysis/stats/quantile.js";
import { timeFloor } from "./duckdb-floor.js";
import { flagValue, generatedStore } from "./scale-bench.js";
import { ClickhouseConnection } from "../store/clickhouse/connection.js";
import { parseClickhouseLocation } from "../store/clickhouse/location.js";

const repo = new URL("../", import.meta.url).pathname;

const COMMANDS: [string, string[]][] = [
  ["leaderboard (pass rate)", ["leaderboard"]],
  ["leaderboard --metric gcpc", ["leaderboard", "--metric", "gcpc"]],
  ["compare condition=none vs curated", ["compare", "--a", "condition=none", "--b", "condition=curated"]],
];

/** Wall seconds of `gcpc ARGS STORE --format json --out FILE`, the output's hash without its store name, and the
 * bytes received from ClickHouse (a ClickHouse store). */
function timeCli(args: string[], store: string): { seconds: number; hash: string; received?: number } {
  const out = join(tmpdir(), `gcpc-arms-bench-${process.pid}.json`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(repo, "bin/gcpc.js"), args[0], store, ...args.slice(1), "--format", "json", "--out", out],
    { cwd: repo, encoding: "utf8", env: { ...process.env, GCPC_CLICKHOUSE_BYTES: "1" } },
  );
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`gcpc ${args.join(" ")} ${store} failed: ${r.stderr}`);
  // The header's store name is the one field a ClickHouse store may print differently.
  const text = readFileSync(out, "utf8").replace(/^ {2}"store": .*\n/m, "");
  rmSync(out, { force: true });
  const received = /gcpc: (\d+) bytes from ClickHouse/.exec(r.stderr)?.[1];
  return {
    seconds,
    hash: createHash("sha256").update(text).digest("hex").slice(0, 16),
    received: received === undefined ? undefined : Number(received),
  };
}

export async function benchArms(args: string[]): Promise<string[]> {
  const scale = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 100);
  const runs = Number(flagValue(args, "--runs") ?? 2);
  const clickhouse = flagValue(args, "--clickhouse");
  const onlyBoth = clickhouse !== undefined && args.includes("--clickhouse-only");
  const store = generatedStore(scale);
  const floors: number[] = [];
  type Run = { seconds: number; hash: string; received?: number; shardBytes?: number | null };
  const times = new Map<string, Run[]>();
  const record = (name: string, t: Run) => times.set(name, [...(times.get(name) ?? []), t]);
  // The commands ClickHouse runs too: leaderboard and compare (issue 57.5).
  const both = new Set([COMMANDS[0][0], COMMANDS[2][0]]);
  for (let r = 0; r < runs; r++) {
    floors.push((await timeFloor(store)).seconds);
    for (const [name, cmd] of COMMANDS) {
      if (onlyBoth && !both.has(name)) continue;
      record(name, timeCli(cmd, store));
      if (!clickhouse || !both.has(name)) continue;
      const since = await serverNow(clickhouse);
      const t = timeCli(cmd, clickhouse);
      record(`ClickHouse: ${name}`, { ...t, shardBytes: await shardBytes(clickhouse, since) });
    }
  }
  const floor = median(floors);
  const lines = [
    `store: ${store} (gcpc generate --seed 1 --scale ${scale}); ${runs} run(s) each, alternated`,
    `floor (one DuckDB query: GCPC per trajectory from the Parquet files): ` +
      `${floors.map((f) => f.toFixed(2)).join(", ")} s; median ${floor.toFixed(2)} s`,
  ];
  for (const [name, list] of times) {
    const m = median(list.map((t) => t.seconds));
    const folder = name.startsWith("ClickHouse: ") ? times.get(name.slice("ClickHouse: ".length)) : undefined;
    lines.push(
      `${name}: ${list.map((t) => `${t.seconds.toFixed(1)} s`).join(", ")}; median ${m.toFixed(1)} s, ` +
        `${(m / floor).toFixed(1)}× the floor` +
        (folder ? `, ${(m / median(folder.map((t) => t.seconds))).toFixed(2)}× the folder's` : "") +
        `; output ${[...new Set(list.map((t) => t.hash))].join(" / ")}` +
        (folder ? (list.every((t) => t.hash === folder[0].hash) ? " (the folder's)" : " (NOT the folder's)") : "") +
        (list[0].received !== undefined ? `; ${list[0].received} bytes to the CLI` : "") +
        (list[0].shardBytes === undefined
          ? ""
          : list[0].shardBytes === null
            ? "; shard queries not logged"
            : `; ${list[0].shardBytes} bytes from the shards' parts of the queries`),
    );
  }
  return lines;
}

/** The server's clock (its query_log's event_time), so a window holds only the queries after it. */
async function serverNow(location: string): Promise<string> {
  const conn = new ClickhouseConnection(parseClickhouseLocation(location));
  try {
    return (await conn.rows<{ t: string }>("SELECT toString(now()) AS t"))[0].t;
  } finally {
    await conn.close();
  }
}

/**
 * The result bytes of the non-initial queries (each shard's part of a distributed query, sent to the node that
 * asked) on every host of the store's cluster since `since`, from their query_log; null when none was logged.
 */
async function shardBytes(location: string, since: string): Promise<number | null> {
  const conn = new ClickhouseConnection(parseClickhouseLocation(location));
  try {
    const { database } = parseClickhouseLocation(location);
    const [table] = await conn.rows<{ engine_full: string }>(
      `SELECT engine_full FROM system.tables WHERE database = '${database}' AND name = 'judgments'`,
    );
    const cluster = /^Distributed\(\s*'?([^',)\s]+)/.exec(table?.engine_full ?? "")?.[1];
    if (!cluster) return 0; // one server: nothing travels between servers
    const hosts = await conn.rows<{ a: string }>(
      `SELECT DISTINCT concat(host_address, ':', toString(port)) AS a FROM system.clusters
       WHERE cluster = '${cluster}'`,
    );
    // The other hosts write their query_log every 7.5 s (flush_interval_milliseconds): wait for it.
    await new Promise((done) => setTimeout(done, 8000));
    let total = 0;
    let logged = 0;
    for (const { a } of hosts) {
      const [row] = await conn.rows<{ b: string; n: string }>(
        `SELECT sum(result_bytes) AS b, count() AS n FROM remote('${a}', system, query_log)
         WHERE type = 2 AND is_initial_query = 0 AND event_time >= toDateTime('${since}')`,
      );
      total += Number(row.b);
      logged += Number(row.n);
    }
    return logged > 0 ? total : null;
  } catch (e) {
    console.error(`shard bytes: ${(e as Error).message}`);
    return null;
  } finally {
    await conn.close();
  }
}
