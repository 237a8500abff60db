// How many threads a ClickHouse read asks of servers on this machine (store/clickhouse/read-threads.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { isLoopback, readThreads } from "../store/clickhouse/read-threads.js";

const shard = (host_address: string, port: number) => ({ host_address, port });

test("loopback hosts are this machine; others are not", () => {
  for (const host of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) assert.ok(isLoopback(host), host);
  for (const host of ["10.0.0.1", "ch.example.com", "128.0.0.1", "localhost.example.com", "0.0.0.0"])
    assert.ok(!isLoopback(host), host);
});

test("servers sharing this machine's cores get their share of them less one, at least 1; elsewhere, their default", () => {
  const two = [shard("127.0.0.1", 18102), shard("127.0.0.1", 18105)];
  // The 2-core machine of docs/scaling.md: two local shards, one thread a query each.
  assert.equal(readThreads({ host: "127.0.0.1", shards: two, cores: 2 }), 1);
  // (8 − 1) / 2 shards = 3.5, rounded down; one server alone keeps 7 of 8.
  assert.equal(readThreads({ host: "127.0.0.1", shards: two, cores: 8 }), 3);
  assert.equal(readThreads({ host: "localhost", shards: [], cores: 8 }), 7);
  assert.equal(readThreads({ host: "localhost", shards: [], cores: 1 }), 1);
  // A shard listed twice (two clusters naming it) is one server.
  assert.equal(readThreads({ host: "127.0.0.1", shards: [...two, ...two], cores: 5 }), 2);
  // A server elsewhere (the location, or any shard): no cap, the servers' own default.
  assert.equal(readThreads({ host: "10.1.1.1", shards: [], cores: 2 }), undefined);
  assert.equal(readThreads({ host: "127.0.0.1", shards: [two[0], shard("10.1.1.2", 9000)], cores: 2 }), undefined);
});
