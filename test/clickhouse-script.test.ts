// scripts/clickhouse-cluster.sh is safe beside other work (issue 57.4): a port another program holds is named
// before anything starts (ZooKeeper's port, node 1's HTTP port), and stop signals only the processes it started.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join, resolve } from "node:path";
import { tempDir } from "./helpers/temp-dir.js";

const SCRIPT = join(resolve(import.meta.dirname, ".."), "scripts", "clickhouse-cluster.sh");

/** A program holding a port: it accepts and answers something that is neither ZooKeeper nor ClickHouse. */
async function impostor(port: number): Promise<Server> {
  const server = createServer((s) => s.end("hello from another program\n"));
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  return server;
}

for (const [offset, what] of [
  [0, "ZooKeeper's port"],
  [1, "node 1's HTTP port"],
] as const)
  test(`start refuses when ${what} is taken by another program, naming the port`, async () => {
    const base = 18740 + 10 * offset;
    const server = await impostor(base + offset);
    try {
      const r = spawnSync("bash", [SCRIPT, "start", tempDir("gcpc-ch-port-")], {
        encoding: "utf8",
        env: { ...process.env, GCPC_CH_PORT_BASE: String(base) },
      });
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stderr, new RegExp(`port ${base + offset} on 127\\.0\\.0\\.1 is taken by another program`));
      assert.doesNotMatch(r.stdout, /clickhouse:\/\//, "no URL is handed out");
    } finally {
      server.close();
    }
  });

test("stop leaves alone a process whose pid its pid file names but that it did not start", async () => {
  const dir = tempDir("gcpc-ch-stop-");
  for (const n of ["n1", "n2", "zk"]) mkdirSync(join(dir, n));
  // An unrelated process (its command line does not name the folder) under a stale pid file.
  const other = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    writeFileSync(join(dir, "n1", "pid"), String(other.pid));
    const r = spawnSync("bash", [SCRIPT, "stop", dir], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`pid ${other.pid} of .*n1/pid is not a process this script started`));
    assert.doesNotThrow(() => process.kill(other.pid!, 0), "the unrelated process is still alive");
  } finally {
    other.kill();
  }
});
