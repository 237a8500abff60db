// ClickHouse stores on a real two-shard cluster (scripts/clickhouse-cluster.sh: two clickhouse-server processes and
// ZooKeeper on loopback ports): `gcpc copy --cluster` and the same leaderboard, compare and validate output as the
// store's folder; the per-row work on the servers; one-line errors; a killed copy leaves no store visible.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, createServer as createNetServer, type AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";
import { ClickhouseConnection } from "../store/clickhouse/connection.js";
import { parseClickhouseLocation } from "../store/clickhouse/location.js";
import { copyToClickhouse } from "../store/clickhouse/copy-store.js";
import { storeRows } from "../store/import/merge-store.js";
import { writeStore } from "../store/write-store.js";

const ROOT = resolve(import.meta.dirname, "..");
const SCRIPT = join(ROOT, "scripts", "clickhouse-cluster.sh");
const dir = tempDir("gcpc-ch-");
let base = ""; // clickhouse://127.0.0.1:PORT of node 1
let node2 = ""; // the same of node 2
const pids: number[] = [];

before(() => {
  // No skip: a cluster that cannot start fails the file with the script's reason.
  let out: string;
  try {
    out = execFileSync("bash", [SCRIPT, "start", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`the ClickHouse cluster did not start: ${err.stderr || err.message}`);
  }
  const lines = out.trim().split("\n");
  const url = lines.at(-1)!;
  assert.match(url, /^clickhouse:\/\/127\.0\.0\.1:\d+\/gcpc$/, "the script's last line is node 1's URL");
  base = url.replace(/\/gcpc$/, "");
  node2 = `clickhouse://127.0.0.1:${/node 2 http (\d+)/.exec(lines.at(-2)!)![1]}`;
  for (const f of ["n1/pid", "n2/pid", "zk/pid"]) pids.push(Number(readFileSync(join(dir, f), "utf8")));
});

after(() => {
  execFileSync("bash", [SCRIPT, "stop", dir]);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  assert.deepEqual(pids.filter(alive), [], "stop ends both servers and ZooKeeper");
});

async function sql<T = Record<string, unknown>>(url: string, query: string): Promise<T[]> {
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${url}/system`));
  try {
    if (!/^\s*SELECT\b/i.test(query)) {
      await conn.command(query);
      return [];
    }
    return await conn.rows<T>(query);
  } finally {
    await conn.close();
  }
}

/** The command on the folder and on the ClickHouse store (fewer resamples than the default: equality is the point). */
async function same(store: string, url: string, args: string[]) {
  const extra = args[0] === "power" ? [] : ["--resamples", "300"];
  const folder = await cli([...args.slice(0, 1), store, ...args.slice(1), ...extra]);
  const server = await cli([...args.slice(0, 1), url, ...args.slice(1), ...extra]);
  assert.equal(folder.code, 0, folder.stderr);
  assert.equal(server.code, 0, server.stderr);
  // The header's store name is the only field allowed to differ; here the manifest's name travels, so none does.
  assert.equal(server.stdout, folder.stdout, `${args.join(" ")}: the ClickHouse store's output differs`);
  return JSON.parse(folder.stdout);
}

const TB = join(ROOT, "data", "real", "terminal-bench");

/** `gcpc copy` of the demo to `url` on the cluster, killed (SIGKILL) once it says it is writing the judgments. */
async function copyKilledWhileWritingJudgments(url: string): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin", "gcpc.js"), "copy", join(ROOT, "data", "demo"), url, "--cluster", "gcpc_two_shards"],
    { env: { ...process.env, GCPC_PROGRESS: "1" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let err = "";
  const ended = new Promise<void>((done) => child.on("close", () => done()));
  child.stderr.on("data", (d) => {
    err += d;
    if (/writing judgments/.test(err)) child.kill("SIGKILL");
  });
  await ended;
  assert.equal(child.signalCode, "SIGKILL", `the copy ended before it was killed: ${err}`);
}

/**
 * The store copied to `db` on the cluster unless it is there already: each test sets up the data it reads, so any
 * one of them runs alone (issue 55.5: one run alone failed with a misleading "no database").
 */
async function copied(store: string, db: string): Promise<string> {
  const url = `${base}/${db}`;
  const held = await sql<{ n: string }>(
    base,
    `SELECT count() AS n FROM system.tables WHERE database = '${db}' AND name = 'gcpc_manifest'`,
  );
  if (Number(held[0].n) === 0) {
    const r = await cli(["copy", store, url, "--cluster", "gcpc_two_shards"]);
    assert.equal(r.code, 0, r.stderr);
  }
  return url;
}

/** The store copied to `db` on the cluster afresh (what was there dropped first): for a test that changes it. */
async function freshCopy(store: string, db: string): Promise<string> {
  await sql(base, `DROP DATABASE IF EXISTS ${db} ON CLUSTER gcpc_two_shards`);
  const url = `${base}/${db}`;
  const r = await cli(["copy", store, url, "--cluster", "gcpc_two_shards"]);
  assert.equal(r.code, 0, r.stderr);
  return url;
}

/** Judgment rows written into `db` on the server, through its Distributed table, each to its shard at once. */
async function plantJudgments(db: string, rows: Record<string, unknown>[]): Promise<void> {
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${base}/${db}`));
  try {
    await conn.insert(`${db}.judgments`, rows, { insert_distributed_sync: 1 });
  } finally {
    await conn.close();
  }
}

test("Terminal-Bench copied to the two-shard cluster: the judgments are Distributed over both shards", async () => {
  const r = await cli(["copy", TB, `${base}/tb`, "--cluster", "gcpc_two_shards"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /judgments 26523 rows/);
  assert.match(r.stdout, /judgments: Distributed over gcpc_two_shards, sharded by task/);
  const engines = await sql<{ name: string; engine: string }>(
    base,
    "SELECT name, engine FROM system.tables WHERE database = 'tb'",
  );
  const engineOf = new Map(engines.map((e) => [e.name, e.engine]));
  for (const t of ["tasks", "items", "trajectories", "judgments", "gcpc_manifest"])
    assert.equal(engineOf.get(t), "Distributed", t);
  // Each node holds a shard's local table (created ON CLUSTER from node 1), and both shards hold judgments,
  // every task's on one shard only.
  const local = [...engineOf.keys()].find((n) => n.startsWith("judgments_local_"))!;
  const counts = await Promise.all(
    [base, node2].map(async (u) => {
      const [row] = await sql<{ n: string; tasks: string }>(
        u,
        `SELECT count() AS n, uniqExact(_task) AS tasks FROM tb.${local}`,
      );
      return { n: Number(row.n), tasks: Number(row.tasks) };
    }),
  );
  assert.ok(
    counts.every((c) => c.n > 0),
    `both shards hold judgments: ${JSON.stringify(counts)}`,
  );
  assert.equal(counts[0].n + counts[1].n, 26523);
  assert.equal(counts[0].tasks + counts[1].tasks, 80, "no task is split between the shards");
});

test("Terminal-Bench: leaderboard and compare JSON are byte for byte the folder's", async () => {
  const url = await copied(TB, "tb");
  const board = await same(TB, url, ["leaderboard", "--format", "json"]);
  assert.ok(board.rows.length > 1);
  await same(TB, url, ["leaderboard", "--metric", "gcpc", "--format", "json"]);
  await same(TB, url, ["leaderboard", "--metric", "pass^k", "--k", "2", "--format", "json"]);
  const cmp = await same(TB, url, ["compare", "--a", "harness=droid", "--b", "harness=goose", "--format", "json"]);
  assert.ok(cmp.pass_rate_delta);
  const valid = await cli(["validate", url]);
  assert.equal(valid.code, 0, valid.stderr);
  assert.match(valid.stdout, /^valid store "Terminal-Bench leaderboard \(13 submissions\)"\n/);
  assert.match(valid.stdout, /judgments +26523 rows {2}tb\.judgments/);
});

test("τ² judges and the demo copied to the cluster: leaderboard, compare and power are the folder's", async () => {
  const tau = join(ROOT, "data", "real", "tau2-judges");
  const demo = join(ROOT, "data", "demo");
  for (const [store, db] of [
    [tau, "tau2"],
    [demo, "demo"],
  ] as const) {
    const r = await cli(["copy", store, `${base}/${db}`, "--cluster", "gcpc_two_shards"]);
    assert.equal(r.code, 0, r.stderr);
    await same(store, `${base}/${db}`, ["leaderboard", "--metric", "gcpc", "--format", "json"]);
  }
  await same(demo, `${base}/demo`, [
    "compare",
    "--a",
    "condition=none",
    "--b",
    "condition=curated",
    "--format",
    "json",
  ]);
  await same(demo, `${base}/demo`, [
    "power",
    "--a",
    "condition=none",
    "--b",
    "condition=curated",
    "--tasks",
    "20",
    "--attempts",
    "1",
    "--simulations",
    "40",
    "--format",
    "json",
  ]);
});

test("bad locations are one line and exit 2: unreachable, not a store, another schema version", async () => {
  const closed = await cli(["leaderboard", "clickhouse://127.0.0.1:1/tb"]);
  assert.equal(closed.code, 2);
  assert.equal(closed.stderr.trim().split("\n").length, 1, closed.stderr);
  assert.match(closed.stderr, /cannot reach ClickHouse at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);

  const missing = await cli(["validate", `${base}/no_such_db`]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no database "no_such_db" on the server/);

  await sql(base, "SELECT 1"); // the server answers
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${base}/plain`));
  try {
    await conn.command("CREATE DATABASE IF NOT EXISTS plain");
    await conn.command("CREATE TABLE IF NOT EXISTS plain.runs (x UInt8) ENGINE = MergeTree ORDER BY x");
    await conn.command("CREATE DATABASE IF NOT EXISTS future");
    await conn.command(
      "CREATE TABLE IF NOT EXISTS future.gcpc_manifest (manifest String) ENGINE = MergeTree ORDER BY manifest",
    );
    await conn.insert("future.gcpc_manifest", [{ manifest: JSON.stringify({ name: "next", schema_version: 99 }) }]);
  } finally {
    await conn.close();
  }
  const plain = await cli(["compare", `${base}/plain`, "--a", "model=x", "--b", "model=y"]);
  assert.equal(plain.code, 2);
  assert.equal(plain.stderr.trim().split("\n").length, 1, plain.stderr);
  assert.match(plain.stderr, /database "plain" is not a gcpc store/);
  const future = await cli(["leaderboard", `${base}/future`]);
  assert.equal(future.code, 2);
  assert.equal(future.stderr.trim().split("\n").length, 1, future.stderr);
  assert.match(
    future.stderr,
    /future\.gcpc_manifest, field "schema_version": this gcpc reads schema_version 1 and 2 \(docs\/verdict-store\.md\), the store says 99/,
  );
  // A database holding other tables named like a store's is not written into.
  const clash = await cli(["copy", TB, `${base}/plain`]);
  assert.equal(clash.code, 0, "plain has no store table: the copy goes in beside its own table");
  const again = await cli(["copy", TB, `${base}/plain`]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /already holds a store; add --into/);
});

test("a judgment row breaking the contract on the server is named by table, row and field", async () => {
  const r = await cli(["copy", join(ROOT, "data", "real", "tau2-sft"), `${base}/sft`]);
  assert.equal(r.code, 0, r.stderr);
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${base}/sft`));
  try {
    await conn.insert("sft.judgments", [
      { trajectory_id: "nobody", item_id: "x", label: "Maybe", _row: 5000, _task: "" },
    ]);
  } finally {
    await conn.close();
  }
  const v = await cli(["validate", `${base}/sft`]);
  assert.equal(v.code, 2);
  assert.match(v.stderr, /sft\.judgments, row 5001, field "label"/);
  assert.match(
    v.stderr,
    /sft\.judgments, row 5001, field "trajectory_id": trajectory_id "nobody" is not in trajectories/,
  );
});

test("--into merges with the folder stores' key rules, and a killed copy leaves no store visible", async () => {
  const url = `${base}/merged`;
  assert.equal((await cli(["copy", TB, url, "--cluster", "gcpc_two_shards"])).code, 0);
  const twice = await cli(["copy", TB, url, "--cluster", "gcpc_two_shards", "--into"]);
  assert.equal(twice.code, 0, twice.stderr);
  assert.match(twice.stdout, /added: nothing \(every row was already there\)/);
  await same(TB, url, ["leaderboard", "--format", "json"]);
  // Only the new tables remain: the old ones and their shard tables were dropped after the swap.
  const names = (await sql<{ name: string }>(base, "SELECT name FROM system.tables WHERE database = 'merged'")).map(
    (r) => r.name,
  );
  assert.equal(names.filter((n) => n.startsWith("judgments")).length, 2, names.join(", "));

  // Killed while writing the judgments: the database shows no store (only staging tables, which no reader reads).
  const killedUrl = `${base}/killed`;
  await copyKilledWhileWritingJudgments(killedUrl);
  const staged = (await sql<{ name: string }>(base, "SELECT name FROM system.tables WHERE database = 'killed'")).map(
    (r) => r.name,
  );
  assert.ok(
    staged.some((n) => n.startsWith("_stage_")),
    `the copy was stopped mid-way: ${staged.join(", ")}`,
  );
  assert.ok(!staged.includes("gcpc_manifest") && !staged.includes("judgments"), staged.join(", "));
  const read = await cli(["leaderboard", killedUrl]);
  assert.equal(read.code, 2);
  assert.match(read.stderr, /is not a gcpc store/);
});

test("--into refuses a layout change up front, both ways, and the store stays readable (issue 57.1)", async () => {
  const TAU2 = join(ROOT, "data", "real", "tau2-sft");
  // A one-server store: --into --cluster would spread it (the cluster-wide rename failed on node 2 and lost it).
  const single = `${base}/layout_single`;
  assert.equal((await cli(["copy", TAU2, single])).code, 0);
  const spread = await cli(["copy", TAU2, single, "--cluster", "gcpc_two_shards", "--into"]);
  assert.equal(spread.code, 2);
  assert.match(spread.stderr, /is a one-server store: --into keeps its layout, so drop --cluster/);
  await same(TAU2, single, ["leaderboard", "--format", "json"]);
  // A cluster store: plain --into would make it a one-server store and leave node 2's tables behind.
  const cluster = `${base}/layout_cluster`;
  assert.equal((await cli(["copy", TAU2, cluster, "--cluster", "gcpc_two_shards"])).code, 0);
  const plain = await cli(["copy", TAU2, cluster, "--into"]);
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /is a store spread over cluster gcpc_two_shards: --into keeps its layout/);
  await same(TAU2, cluster, ["leaderboard", "--format", "json"]);
  // The same layout is merged as before.
  const again = await cli(["copy", TAU2, cluster, "--cluster", "gcpc_two_shards", "--into"]);
  assert.equal(again.code, 0, again.stderr);
});

test("the server's checks reach a duplicate judgment and a row sharded under another task (issue 57.6)", async () => {
  const SFT = join(ROOT, "data", "real", "tau2-sft");
  // A fresh database per check, each written by this test.
  for (const db of ["dup_check", "shard_check"]) await freshCopy(SFT, db);
  const [row] = await sql<Record<string, unknown>>(base, "SELECT * FROM dup_check.judgments ORDER BY _row LIMIT 1");
  // One duplicate: the first judgment again, one row more.
  await plantJudgments("dup_check", [{ ...row, _row: 900_000 }]);
  const dup = await cli(["validate", `${base}/dup_check`]);
  assert.equal(dup.code, 2);
  assert.match(
    dup.stderr,
    /dup_check\.judgments, row 1, field "trajectory_id,item_id,judge,run": duplicate key \(.*\): 2 rows/,
  );
  // The same row under other tasks' sharding values (a row on the wrong shard for its trajectory): one task on the
  // other shard (cityHash64(_task) % 2 picks the shard of two of weight 1), where the shard's own join does not
  // find the trajectory and its key duplicates the first row's across shards, and one on the same shard under
  // another judge (issue 57.5: the checks run on each shard alone, and again over the cluster when a shard finds
  // a trajectory it does not hold).
  const [first] = await sql<Record<string, unknown>>(base, "SELECT * FROM shard_check.judgments ORDER BY _row LIMIT 1");
  const firstTask = String(first._task).replaceAll("'", "\\'");
  const pick = (same: boolean) =>
    sql<{ t: string }>(
      base,
      `SELECT any(_task) AS t FROM shard_check.judgments WHERE _task != '${firstTask}'
         AND (cityHash64(_task) % 2 = cityHash64('${firstTask}') % 2) = ${same ? 1 : 0}`,
    );
  const [[elsewhere], [beside]] = await Promise.all([pick(false), pick(true)]);
  await plantJudgments("shard_check", [
    { ...first, _row: 900_001, _task: elsewhere.t },
    { ...first, judge: "a second judge", _row: 900_002, _task: beside.t },
  ]);
  const misplaced = await cli(["validate", `${base}/shard_check`]);
  assert.equal(misplaced.code, 2);
  assert.match(
    misplaced.stderr,
    /shard_check\.judgments, row 900002, field "_task": _task ".*" is not trajectory ".*"'s task/,
  );
  assert.match(
    misplaced.stderr,
    /shard_check\.judgments, row 900003, field "_task": _task ".*" is not trajectory ".*"'s task/,
  );
  assert.match(
    misplaced.stderr,
    /shard_check\.judgments, row 1, field "trajectory_id,item_id,judge,run": duplicate key \(.*\): 2 rows/,
  );
});

test("a judgment whose run finds no trajectory on its shard is caught by the runs' count alone (issue 57.5)", async () => {
  // The label runs are joined to each shard's own trajectories (store/clickhouse/label-runs-sql.ts): a run whose
  // trajectory is not on its shard drops out of that join, and only the runs' rows against the table's count say
  // so. Each database holds one such row and nothing else wrong: a judgment of a trajectory not in the store, and a
  // judgment under a task of the other shard.
  const SFT = join(ROOT, "data", "real", "tau2-sft");
  for (const db of ["orphan_check", "away_check"]) await freshCopy(SFT, db);
  const [orphan] = await sql<Record<string, unknown>>(
    base,
    "SELECT * FROM orphan_check.judgments ORDER BY _row LIMIT 1",
  );
  await plantJudgments("orphan_check", [{ ...orphan, trajectory_id: "no-such-trajectory", _row: 900_000 }]);
  const unknown = await cli(["validate", `${base}/orphan_check`]);
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(
    unknown.stderr,
    /orphan_check\.judgments, row 900001, field "trajectory_id": trajectory_id "no-such-trajectory" is not in trajectories/,
  );
  const [away] = await sql<Record<string, unknown>>(base, "SELECT * FROM away_check.judgments ORDER BY _row LIMIT 1");
  const task = String(away._task).replaceAll("'", "\\'");
  const [other] = await sql<{ t: string }>(
    base,
    `SELECT any(_task) AS t FROM away_check.judgments WHERE cityHash64(_task) % 2 != cityHash64('${task}') % 2`,
  );
  await plantJudgments("away_check", [{ ...away, judge: "a second judge", _row: 900_000, _task: other.t }]);
  const elsewhere = await cli(["validate", `${base}/away_check`]);
  assert.equal(elsewhere.code, 2, elsewhere.stderr);
  assert.match(
    elsewhere.stderr,
    /away_check\.judgments, row 900001, field "_task": _task ".*" is not trajectory ".*"'s task/,
  );
});

test("each row rule the packed label runs' screen alone must catch is caught by it (issue 57.5)", async () => {
  // The packed runs' screen (store/clickhouse/label-runs-sql.ts packedRunsSql) asks of a row only its label's
  // number, its run and its item's checklist position. Each database holds one planted row, a run of its own (a
  // second judge, so no key repeats) of a trajectory and task the store holds, breaking one rule and nothing else:
  // only the screen can send the read to the checks that name it.
  const SFT = join(ROOT, "data", "real", "tau2-sft");
  const defects: [string, Record<string, unknown>, RegExp][] = [
    ["rule_label", { label: "Maybe" }, /field "label"/],
    ["rule_none", { label: null, grade: null }, /field "label"/],
    ["rule_run", { run: 0 }, /field "run"/],
    ["rule_item", { item_id: "" }, /field "item_id"/],
  ];
  await Promise.all(
    defects.map(async ([db, defect]) => {
      await freshCopy(SFT, db);
      const [row] = await sql<Record<string, unknown>>(base, `SELECT * FROM ${db}.judgments ORDER BY _row LIMIT 1`);
      await plantJudgments(db, [{ ...row, judge: "a second judge", _row: 900_000, ...defect }]);
    }),
  );
  for (const [db, , field] of defects) {
    const v = await cli(["validate", `${base}/${db}`]);
    assert.equal(v.code, 2, `${db}: ${v.stderr}`);
    assert.match(v.stderr, new RegExp(`${db}\\.judgments, row 900001, ${field.source}`), db);
  }
});

test("a rename that fails on one host is undone on every host: the store reads as before from both nodes (issue 57.1)", async () => {
  const HARBOR = join(ROOT, "data", "real", "harbor-sample");
  const SFT = join(ROOT, "data", "real", "tau2-sft");
  const db = "undo_check";
  await freshCopy(HARBOR, db);
  const before = await Promise.all([base, node2].map((u) => cli(["validate", `${u}/${db}`])));
  for (const r of before) assert.equal(r.code, 0, r.stderr);
  // Merge τ² into it, and just before the cluster-wide rename, put a table on node 2 alone under the name its
  // rename moves the old `trajectories` to: node 2 then stops half-way (tasks already moved aside), node 1 does
  // all of it. A real clash on one host, as a failing host would leave it.
  const { store } = await storeRows(SFT);
  let clashed = "";
  const copy = copyToClickhouse(store, parseClickhouseLocation(`${base}/${db}`), {
    cluster: "gcpc_two_shards",
    into: true,
    onProgress: (step) => {
      if (step !== "putting the tables in place") return;
      const http = node2.replace("clickhouse://", "http://");
      const staged = execFileSync(
        "curl",
        [
          "-sS",
          http,
          "--data-binary",
          `SELECT name FROM system.tables WHERE database = '${db}' AND name LIKE '_stage_%' LIMIT 1`,
        ],
        { encoding: "utf8" },
      );
      const token = /^_stage_([0-9a-f]{8})_/.exec(staged.trim())![1];
      clashed = `_old_${token}_trajectories`;
      execFileSync("curl", [
        "-sS",
        "--fail",
        http,
        "--data-binary",
        `CREATE TABLE ${db}.${clashed} (x UInt8) ENGINE = Memory`,
      ]);
    },
  });
  await assert.rejects(copy, (e: Error) => {
    assert.match(e.message, /already exists/);
    assert.match(e.message, /the copy was undone: every host holds the store as it was before \(nothing was written\)/);
    return true;
  });
  assert.ok(clashed, "the clash was planted");
  // Both nodes read the store as it was, and nothing of the copy is left on either (the planted table stays: not ours).
  const after = await Promise.all([base, node2].map((u) => cli(["validate", `${u}/${db}`])));
  assert.deepEqual(
    after.map((r) => [r.code, r.stdout]),
    before.map((r) => [r.code, r.stdout]),
  );
  await same(HARBOR, `${base}/${db}`, ["leaderboard", "--format", "json", "--metric", "pass_rate"]);
  for (const u of [base, node2]) {
    const left = await sql<{ name: string }>(u, `SELECT name FROM system.tables WHERE database = '${db}'`);
    const names = left.map((r) => r.name).sort();
    assert.deepEqual(
      names.filter((n) => /^_stage_|^_old_/.test(n) && n !== clashed),
      [],
      `${u}: ${names}`,
    );
    assert.ok(!names.some((n) => n.startsWith("items") || n.startsWith("judgments")), `${u}: ${names}`);
  }
  // The store takes the same merge once the clash is gone.
  await sql(node2, `DROP TABLE ${db}.${clashed}`);
  const merged = await cli(["copy", SFT, `${base}/${db}`, "--cluster", "gcpc_two_shards", "--into"]);
  assert.equal(merged.code, 0, merged.stderr);
});

test("a read whose connection is reset is retried once, and a second reset says so (issue 57.3)", async () => {
  const url = await copied(join(ROOT, "data", "real", "tau2-sft"), "reset_check");
  const port = Number(/:(\d+)$/.exec(base)![1]);
  // A TCP relay in front of node 1 that resets the first `resets` connections once a request arrives on them (what
  // a server closing a kept-alive socket under the client does), and relays the rest to the real server.
  const relay = async (resets: number) => {
    let seen = 0;
    const server = createNetServer((socket) => {
      if (seen++ < resets) {
        socket.once("data", () => socket.resetAndDestroy());
        return;
      }
      const upstream = connect(port, "127.0.0.1");
      socket.pipe(upstream).pipe(socket);
      upstream.on("error", () => socket.destroy());
      socket.on("error", () => upstream.destroy());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { server, url: url.replace(base, `clickhouse://127.0.0.1:${(server.address() as AddressInfo).port}`) };
  };
  const once = await relay(1);
  try {
    const r = await cli(["validate", once.url]);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    once.server.close();
  }
  const always = await relay(1_000);
  try {
    const r = await cli(["validate", always.url]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /ECONNRESET.*\(a read retried once after ECONNRESET\)/);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  } finally {
    always.server.close();
  }
});

test("a shard that is down is named with its cause, on a read and before a copy writes anything (issue 57.3)", async () => {
  // A cluster of this test's own, so the others keep both nodes.
  const own = tempDir("gcpc-ch-down-");
  const out = execFileSync("bash", [SCRIPT, "start", own], { encoding: "utf8" }).trim().split("\n");
  const url = out.at(-1)!.replace(/\/gcpc$/, "");
  try {
    const SFT = join(ROOT, "data", "real", "tau2-sft");
    assert.equal((await cli(["copy", SFT, `${url}/down`, "--cluster", "gcpc_two_shards"])).code, 0);
    const node2Pid = Number(readFileSync(join(own, "n2/pid"), "utf8"));
    process.kill(node2Pid);
    const tcp2 = /node 2 http \d+ tcp (\d+)/.exec(out.at(-2)!)![1];
    const read = await cli(["validate", `${url}/down`]);
    assert.equal(read.code, 2);
    assert.match(
      read.stderr,
      new RegExp(
        `shard 2 of cluster gcpc_two_shards \\(127\\.0\\.0\\.1:${tcp2}\\) did not answer: Connection (refused|reset)`,
      ),
    );
    const copy = await cli(["copy", SFT, `${url}/down2`, "--cluster", "gcpc_two_shards"]);
    assert.equal(copy.code, 2);
    assert.match(
      copy.stderr,
      /shard 2 of cluster gcpc_two_shards .* did not answer: .*\(checked before writing: nothing was written\)/,
    );
    const dbs = await sql<{ name: string }>(url, "SELECT name FROM system.databases WHERE name = 'down2'");
    assert.deepEqual(dbs, [], "nothing was written");
  } finally {
    execFileSync("bash", [SCRIPT, "stop", own]);
  }
});

/** Doubles a text parser gets wrong: subnormals, ±0, the largest, near rounding boundaries, and random bit patterns. */
function hardDoubles(count: number, seed: number): number[] {
  const fixed = [
    5e-324,
    1.5e-323,
    2.2250738585072014e-308,
    2.225073858507201e-308,
    Number("2.2250738585072011e-308"),
    1e-300,
    -0,
    0,
    1e300,
    1.7976931348623157e308,
    0.1,
    0.30000000000000004,
    1.0000000000000002,
    0.9999999999999999,
    Number("9007199254740993"),
    123456789012345680000,
    4.35667e-311,
    8.98846567431158e307,
  ];
  const view = new DataView(new ArrayBuffer(8));
  let s = seed >>> 0;
  const next = () => {
    // xorshift32: the bit patterns only need to be many and varied.
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  const random: number[] = [];
  while (random.length < count) {
    view.setUint32(0, next(), true);
    view.setUint32(4, next() & 0x7fefffff, true); // sign bit clear, exponent below Infinity/NaN
    random.push(view.getFloat64(0, true));
  }
  return [...fixed, ...random];
}

test("doubles arrive exactly as they left: subnormals, ±0, 1e300, rounding boundaries and 20,000 random bit patterns (issue 57.2)", async () => {
  const { store } = await storeRows(join(ROOT, "data", "real", "tau2-sft"));
  const values = hardDoubles(20_000, 20261206);
  // Every Float64 column a store has: a trajectory's duration and cost (≥ 0: |v|), an item's weight (> 0).
  const nonNegative = values.map(Math.abs);
  const positive = nonNegative.filter((v) => v > 0);
  const extra = [];
  for (let k = 0; k < nonNegative.length; k++) {
    const t = store.trajectories[k % store.trajectories.length];
    extra.push({
      ...t,
      trajectory_id: `${t.trajectory_id}~${k}`,
      duration_s: nonNegative[k],
      cost_usd: nonNegative[(k * 7) % nonNegative.length],
    });
  }
  store.trajectories.push(...extra);
  // In increasing order over the items (a task's items are consecutive), so one task's weights lie within the
  // contract's factor of 2^960 while the table holds the extremes.
  const ascending = [...positive].sort((a, b) => a - b);
  store.items.forEach((it, k) => {
    it.weight = ascending[Math.floor((k * ascending.length) / store.items.length)];
  });
  store.manifest.schema_version = 2; // weights are a version 2 field
  const dir = tempDir("gcpc-ch-doubles-");
  await writeStore(join(dir, "store"), store, "jsonl");
  const db = "doubles_check";
  await freshCopy(join(dir, "store"), db);
  const bits = (v: unknown) => {
    if (typeof v !== "number") return String(v);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v);
    return view.getBigUint64(0).toString(16);
  };
  const read = await sql<Record<string, unknown>>(
    base,
    `SELECT trajectory_id, duration_s, cost_usd FROM ${db}.trajectories ORDER BY _row`,
  );
  const wrong: string[] = [];
  store.trajectories.forEach((t, k) => {
    for (const f of ["duration_s", "cost_usd"] as const)
      if (bits(read[k][f]) !== bits(t[f] ?? null))
        wrong.push(`${t.trajectory_id}.${f}: ${t[f]} came back ${read[k][f]}`);
  });
  const weights = await sql<{ weight: number }>(base, `SELECT weight FROM ${db}.items ORDER BY _row`);
  store.items.forEach((it, k) => {
    if (bits(weights[k].weight) !== bits(it.weight))
      wrong.push(`items[${k}].weight: ${it.weight} came back ${weights[k].weight}`);
  });
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} values differ`);
  // And through the reader: the same report as the folder's, byte for byte.
  await same(join(dir, "store"), `${base}/${db}`, ["report", "--format", "json"]);
});

test("a 300 KB primary_judge: the store reads as the folder does, and a row naming it still duplicates one that leaves it out (issue 57.3)", async () => {
  const { store } = await storeRows(join(ROOT, "data", "real", "tau2-sft"));
  const big = `judge ${"é'\\\\x".repeat(75_000)}`;
  assert.ok(Buffer.byteLength(big) > 300_000);
  const primary = store.manifest.primary_judge;
  for (const j of store.judgments) if ((j.judge ?? primary) === primary) j.judge = null;
  store.manifest.primary_judge = big;
  const dir = tempDir("gcpc-ch-bigjudge-");
  await writeStore(join(dir, "store"), store);
  const db = "bigjudge_check";
  await freshCopy(join(dir, "store"), db);
  await same(join(dir, "store"), `${base}/${db}`, ["leaderboard", "--format", "json"]);
  // The first judgment again on the server, naming the primary judge (rule 13: the same key as leaving it out),
  // and the folder with the same row: both name the duplicate (the folder's check ran DuckDB out of memory with a
  // copy of the name in every row).
  const [row] = await sql<Record<string, unknown>>(base, `SELECT * FROM ${db}.judgments ORDER BY _row LIMIT 1`);
  assert.equal(row.judge, null);
  await plantJudgments(db, [{ ...row, judge: big, _row: 900_000 }]);
  const server = await cli(["validate", `${base}/${db}`]);
  assert.equal(server.code, 2);
  assert.match(server.stderr, /field "trajectory_id,item_id,judge,run": duplicate key \(.*judge é'/);
  store.judgments.push({ ...store.judgments[0], judge: big });
  await writeStore(join(dir, "dup"), store);
  const folder = await cli(["validate", join(dir, "dup")]);
  assert.equal(folder.code, 2, folder.stderr);
  assert.match(folder.stderr, /duplicate judgment \(trajectory \/ item \/ run \/ judge, normalized\)/);
});

test("a later copy drops what a killed copy staged, and leaves what a running copy stages (issue 57.1)", async () => {
  const db = "stage_cleanup";
  await sql(base, `DROP DATABASE IF EXISTS ${db} ON CLUSTER gcpc_two_shards`);
  const url = `${base}/${db}`;
  // Killed while writing the judgments: its staged tables stay behind.
  await copyKilledWhileWritingJudgments(url);
  const tablesOn = async (u: string) =>
    (await sql<{ name: string }>(u, `SELECT name FROM system.tables WHERE database = '${db}'`)).map((r) => r.name);
  const killed = await tablesOn(base);
  const killedToken = /^_stage_([0-9a-f]{8})_/.exec(killed.find((n) => n.startsWith("_stage_"))!)![1];
  // A copy that still runs: registered as this test's own process, with a staged table of its own.
  const running = "0123abcd";
  const conn = new ClickhouseConnection(parseClickhouseLocation(url));
  try {
    await conn.command(`CREATE TABLE ${db}._stage_${running}_tasks (x UInt8) ENGINE = Memory`);
    const { thisCopy } = await import("../store/clickhouse/copy-registry.js");
    await conn.insert(`${db}._gcpc_copies`, [{ ...thisCopy(running) }]);
  } finally {
    await conn.close();
  }
  const said: string[] = [];
  const { store } = await storeRows(join(ROOT, "data", "real", "tau2-sft"));
  await copyToClickhouse(store, parseClickhouseLocation(url), {
    cluster: "gcpc_two_shards",
    onProgress: (step) => said.push(step),
  });
  for (const u of [base, node2]) {
    const after = await tablesOn(u);
    assert.deepEqual(
      after.filter((n) => n.includes(killedToken)),
      [],
      `${u}: the killed copy's staged and shard tables are gone: ${after}`,
    );
  }
  assert.ok((await tablesOn(base)).includes(`_stage_${running}_tasks`), "the running copy's table is left");
  assert.ok(said.includes("dropping the tables that 1 stopped copy(ies) staged"), said.join("\n"));
  assert.ok(
    said.some((s) => s.startsWith(`left the tables an earlier copy staged (_stage_${running}_*): process`)),
    said.join("\n"),
  );
  await same(join(ROOT, "data", "real", "tau2-sft"), url, ["leaderboard", "--format", "json"]);
});

test("a read of a cluster store on this machine holds each server to its share of the cores less one", async () => {
  const { storeTables } = await import("../store/clickhouse/stored-tables.js");
  const { readThreads, readThreadsOf } = await import("../store/clickhouse/read-threads.js");
  const { availableParallelism } = await import("node:os");
  const db = "threads_check";
  await freshCopy(join(ROOT, "data", "demo"), db);
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${base}/${db}`));
  try {
    const { clusters } = await storeTables(conn, db);
    assert.deepEqual(clusters, ["gcpc_two_shards"], "the cluster its Distributed tables name");
    // The script's two shards, both on loopback ports: two servers on this machine's cores.
    const shards = [
      { host_address: "127.0.0.1", port: 1 },
      { host_address: "127.0.0.1", port: 2 },
    ];
    const expected = readThreads({ host: "127.0.0.1", shards, cores: availableParallelism() });
    assert.equal(expected, Math.max(1, Math.floor((availableParallelism() - 1) / 2)));
    assert.equal(await readThreadsOf(conn, clusters), expected);
  } finally {
    await conn.close();
  }
});

test("each read query answers in the column names and types its RowBinary decoder reads (issue 57.5)", async () => {
  const { packedRunsSql, PACKED_RUN_COLUMNS, codedRunsSql, codedRunColumns } = await import(
    "../store/clickhouse/label-runs-sql.js"
  );
  const { methodScoreSql, METHOD_SCORE_COLUMNS } = await import("../store/clickhouse/method-score-columns.js");
  const { storeTables } = await import("../store/clickhouse/stored-tables.js");
  const db = "types_check";
  await freshCopy(join(ROOT, "data", "demo"), db);
  const conn = new ClickhouseConnection(parseClickhouseLocation(`${base}/${db}`));
  try {
    const { shard } = await storeTables(conn, db);
    const items = shard.get("items")!;
    assert.match(items, /^items_local_[0-9a-f]{8}$/, "the items' shard table");
    const runTables = { db, judgments: shard.get("judgments")!, items };
    const typeName = (c: { type: string; nullable: boolean; array?: boolean }) => {
      const t = c.nullable ? `Nullable(${c.type})` : c.type;
      return c.array ? `Array(${t})` : t;
    };
    const cases: [string, string, { name: string; type: string; nullable: boolean; array?: boolean }[]][] = [
      ["packed runs", packedRunsSql(runTables, "judge"), PACKED_RUN_COLUMNS],
      ["coded runs", codedRunsSql(runTables, "judge", false), codedRunColumns(false)],
      ["coded runs with evidence", codedRunsSql(runTables, "judge", true), codedRunColumns(true)],
      ["method scores", methodScoreSql(db, `${db}.${shard.get("trajectories")}`), METHOD_SCORE_COLUMNS],
    ];
    for (const [name, query, columns] of cases) {
      const result = await (
        await fetch(`${base.replace("clickhouse://", "http://").replace(/\/$/, "")}/`, {
          method: "POST",
          body: `${query} LIMIT 1 FORMAT TSVWithNamesAndTypes`,
        })
      ).text();
      const [names, types] = result.split("\n");
      assert.deepEqual(
        names.split("\t"),
        columns.map((c) => c.name),
        `${name}: names`,
      );
      assert.deepEqual(types.split("\t"), columns.map(typeName), `${name}: types`);
    }
  } finally {
    await conn.close();
  }
});
