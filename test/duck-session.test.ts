import { test } from "node:test";
import assert from "node:assert/strict";
import { openDuckSession } from "../store/duck-session.js";

const CONFIG = { memory_limit: "256MB" };

test("two passes in one shared instance each see only their own tables, under the same names", async () => {
  const [a, b] = await Promise.all([openDuckSession(CONFIG), openDuckSession(CONFIG)]);
  const ca = await a.connect();
  const cb = await b.connect();
  await ca.run("CREATE TABLE judgments AS SELECT 1 AS x");
  await cb.run("CREATE TABLE judgments AS SELECT 2 AS x UNION ALL SELECT 3");
  // A second connection of the same pass sees its pass's table.
  const ca2 = await a.connect();
  assert.deepEqual((await ca2.runAndReadAll("SELECT x FROM judgments")).getRows(), [[1]]);
  assert.deepEqual((await cb.runAndReadAll("SELECT x FROM judgments ORDER BY x")).getRows(), [[2], [3]]);
  for (const c of [ca, ca2, cb]) c.closeSync();
  await Promise.all([a.close(), b.close()]);
});

test("closing a pass frees its tables; a closed pass's name is never reused; closing twice is harmless", async () => {
  const a = await openDuckSession(CONFIG);
  const conn = await a.connect();
  await conn.run("CREATE TABLE ref_items AS SELECT 'x' AS item_id");
  await a.close();
  await a.close();
  await assert.rejects(conn.run("SELECT * FROM ref_items"), /does not exist/);
  conn.closeSync();
  const b = await openDuckSession(CONFIG);
  const cb = await b.connect();
  await assert.rejects(cb.run("SELECT * FROM ref_items"), /does not exist/, "a new pass starts empty");
  cb.closeSync();
  await b.close();
});

test("many passes opened and closed at once (the admin connection runs one statement at a time)", async () => {
  const passes = await Promise.all(Array.from({ length: 20 }, () => openDuckSession(CONFIG)));
  await Promise.all(
    passes.map(async (p, i) => {
      const c = await p.connect();
      await c.run(`CREATE TABLE t AS SELECT ${i} AS i`);
      assert.deepEqual((await c.runAndReadAll("SELECT i FROM t")).getRows(), [[i]]);
      c.closeSync();
    }),
  );
  await Promise.all(passes.map((p) => p.close()));
});

test("a configuration DuckDB refuses fails that pass, and is not kept for the next", async () => {
  await assert.rejects(openDuckSession({ memory_limit: "not a size" }));
  await assert.rejects(openDuckSession({ memory_limit: "not a size" }));
});

test("release closes the instance only once no pass holds a database in it; the next pass gets a new one", async () => {
  const config = { memory_limit: "128MB" };
  const a = await openDuckSession(config);
  const b = await openDuckSession(config);
  const cb = await b.connect();
  await cb.run("CREATE TABLE kept AS SELECT 5 AS v");
  await a.close({ release: true });
  // b still holds a database: the instance stays, and b's table with it.
  assert.deepEqual((await cb.runAndReadAll("SELECT v FROM kept")).getRows(), [[5]]);
  cb.closeSync();
  await b.close({ release: true });
  // The instance is closed now: a connection made before would fail; a new pass opens a new instance.
  const c = await openDuckSession(config);
  const cc = await c.connect();
  await assert.rejects(cc.run("SELECT v FROM kept"), /does not exist/);
  assert.deepEqual((await cc.runAndReadAll("SELECT 1 AS one")).getRows(), [[1]]);
  cc.closeSync();
  await c.close();
});
