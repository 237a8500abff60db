// ClickHouse locations refused in one line with exit 2 before any connection (issue 57.3): a host name with a
// space (it threw in the HTTP client, exit 1 with a stack trace) and a copy into ClickHouse's own databases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseClickhouseLocation } from "../store/clickhouse/location.js";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;
const store = join(repo, "data/real/tau2-sft");

test("a host name with a space, or an odd character, is one line and exit 2 for every command", async () => {
  assert.throws(() => parseClickhouseLocation("clickhouse://bad host:8123/db"), /host "bad host" is not a host name/);
  assert.throws(() => parseClickhouseLocation("clickhouse://a_b:8123/db"), /host "a_b" is not a host name/);
  assert.equal(parseClickhouseLocation("clickhouse://ch-1.example.org:8123/db").url, "http://ch-1.example.org:8123");
  for (const args of [
    ["copy", store, "clickhouse://bad host:8123/db"],
    ["leaderboard", "clickhouse://bad host:8123/db"],
  ]) {
    const r = await cli(args);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^gcpc: clickhouse:\/\/bad host:8123\/db: host "bad host" is not a host name/);
    assert.doesNotMatch(r.stderr, /at \w+ \(/, "no stack trace");
  }
});

test("copy into system or information_schema is refused before connecting", async () => {
  for (const db of ["system", "INFORMATION_SCHEMA"]) {
    const r = await cli(["copy", store, `clickhouse://127.0.0.1:1/${db}`]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`database "${db}" is ClickHouse's own`));
  }
});

test("a server that accepts connections and never answers: one line after --timeout, naming host, request and wait", async () => {
  const { createServer } = await import("node:net");
  const sockets: import("node:net").Socket[] = [];
  const server = createServer((s) => void sockets.push(s)); // accepts, never answers
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  try {
    const started = Date.now();
    const r = await cli(["leaderboard", `clickhouse://127.0.0.1:${port}/db`, "--timeout", "1"]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^gcpc: clickhouse://127\\.0\\.0\\.1:${port}/db: ClickHouse at http://127\\.0\\.0\\.1:${port} did not answer within 1 s \\(waiting for: SELECT 1 AS ok\\)`,
      ),
    );
    assert.ok(Date.now() - started < 30_000, "it gave up after the time-out, not the client's 10 minutes");
    const bad = await cli(["leaderboard", `clickhouse://127.0.0.1:${port}/db`, "--timeout", "0"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--timeout must be a number of seconds > 0/);
  } finally {
    for (const s of sockets) s.destroy();
    server.close();
  }
});
