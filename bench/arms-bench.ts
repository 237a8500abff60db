// `npm run bench -- arms [S] [--runs N] [--clickhouse clickhouse://HOST:PORT/DB]`: the arms commands at scale S
// (default 100) against the DuckDB floor, alternated in one sitting; with --clickhouse (a `gcpc copy` of the same
// generated store), the same leaderboard read from ClickHouse, and whether its JSON is the folder's.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "../analysis/stats/quantile.js";
import { timeFloor } from "./duckdb-floor.js";
import { flagValue, generatedStore } from "./scale-bench.js";

const repo = new URL("../", import.meta.url).pathname;

const COMMANDS: [string, string[]][] = [
  ["leaderboard (pass rate)", ["leaderboard"]],
  ["leaderboard --metric gcpc", ["leaderboard", "--metric", "gcpc"]],
  ["compare condition=none vs curated", ["compare", "--a", "condition=none", "--b", "condition=curated"]],
];

/** Wall seconds of `gcpc ARGS STORE --format json --out FILE`, and the output's hash without its store name. */
function timeCli(args: string[], store: string): { seconds: number; hash: string } {
  const out = join(tmpdir(), `gcpc-arms-bench-${process.pid}.json`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(repo, "bin/gcpc.js"), args[0], store, ...args.slice(1), "--format", "json", "--out", out],
    { cwd: repo, encoding: "utf8" },
  );
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`gcpc ${args.join(" ")} ${store} failed: ${r.stderr}`);
  // The header's store name is the one field a ClickHouse store may print differently.
  const text = readFileSync(out, "utf8").replace(/^ {2}"store": .*\n/m, "");
  rmSync(out, { force: true });
  return { seconds, hash: createHash("sha256").update(text).digest("hex").slice(0, 16) };
}

export async function benchArms(args: string[]): Promise<string[]> {
  const scale = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 100);
  const runs = Number(flagValue(args, "--runs") ?? 2);
  const clickhouse = flagValue(args, "--clickhouse");
  const store = generatedStore(scale);
  const floors: number[] = [];
  const times = new Map<string, { seconds: number; hash: string }[]>();
  const record = (name: string, t: { seconds: number; hash: string }) =>
    times.set(name, [...(times.get(name) ?? []), t]);
  for (let r = 0; r < runs; r++) {
    floors.push((await timeFloor(store)).seconds);
    for (const [name, cmd] of COMMANDS) record(name, timeCli(cmd, store));
    if (clickhouse) record(`ClickHouse: ${COMMANDS[0][0]}`, timeCli(COMMANDS[0][1], clickhouse));
  }
  const floor = median(floors);
  const lines = [
    `store: ${store} (gcpc generate --seed 1 --scale ${scale}); ${runs} run(s) each, alternated`,
    `floor (one DuckDB query: GCPC per trajectory from the Parquet files): ` +
      `${floors.map((f) => f.toFixed(2)).join(", ")} s; median ${floor.toFixed(2)} s`,
  ];
  for (const [name, list] of times) {
    const m = median(list.map((t) => t.seconds));
    lines.push(
      `${name}: ${list.map((t) => `${t.seconds.toFixed(1)} s`).join(", ")}; median ${m.toFixed(1)} s, ` +
        `${(m / floor).toFixed(1)}× the floor (target ≤ 3); ` +
        `output ${[...new Set(list.map((t) => t.hash))].join(" / ")}`,
    );
  }
  if (clickhouse) {
    const folder = times.get(COMMANDS[0][0])![0].hash;
    const server = times.get(`ClickHouse: ${COMMANDS[0][0]}`)![0].hash;
    lines.push(`ClickHouse leaderboard JSON ${folder === server ? "is" : "IS NOT"} the folder's (store name aside)`);
  }
  return lines;
}
