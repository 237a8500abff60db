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
