import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { trajectoryOrderFromFile, trajectoryReferenceFromFile } from "../store/trajectory-reference.js";
import { keptInOrder } from "../analysis/schema/trajectory-order.js";
import { sortByCodePoints } from "../analysis/order.js";
import { readStore } from "../store/read-store.js";
import { tempDir } from "./helpers/temp-dir.js";

/** Ids whose code-point order differs from UTF-16 order (U+FFFF before U+10000) and from byte order of Latin-1. */
const IDS = ["b", "a", "\u{10000}x", "\uffffx", "é", "e", "A", "a b", "a\u0001", "z", "\u{1F600}", "ab"];
/** Hashes repeating across ids, and ids without one. */
const HASH = ["h1", null, "h2", "h1", "h3", "h2", null, "h4", "h3", "h1", "h5", "h4"];

/** The deduplication the paper describes (§4.1), written out: sort by id in code-point order, keep each hash's first. */
function referenceKept(rows: { id: string; hash: string | null }[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const r of sortByCodePoints(rows, (x) => x.id)) {
    if (r.hash !== null) {
      if (seen.has(r.hash)) continue;
      seen.add(r.hash);
    }
    kept.push(r.id);
  }
  return kept;
}

async function withParquet<T>(
  sql: string,
  f: (conn: Awaited<ReturnType<DuckDBInstance["connect"]>>, path: string) => Promise<T>,
) {
  const path = join(tempDir("gcpc-order-"), "trajectories.parquet");
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    await conn.run(`COPY (${sql}) TO '${path}' (FORMAT parquet)`);
    return await f(conn, path);
  } finally {
    conn.closeSync();
    duck.closeSync();
  }
}

const valuesSql = (rows: { id: string; hash: string | null }[]) =>
  `SELECT * FROM (VALUES ${rows
    .map((r) => `('${r.id.replaceAll("'", "''")}', 't1', ${r.hash === null ? "NULL" : `'${r.hash}'`})`)
    .join(", ")}) v(trajectory_id, task_id, log_hash)`;

test("DuckDB's id order and log_hash deduplication keep the trajectories the code-point sort keeps", async () => {
  const rows = IDS.map((id, i) => ({ id, hash: HASH[i] }));
  await withParquet(valuesSql(rows), async (conn, path) => {
    assert.equal(await trajectoryReferenceFromFile(conn, path), true);
    const order = await trajectoryOrderFromFile(conn, path);
    assert.deepEqual(
      keptInOrder(rows, order).trajectories.map((r) => r.id),
      referenceKept(rows),
    );
    // A rank per file row, each position once.
    assert.deepEqual(
      [...order.rank].sort((a, b) => a - b),
      [...IDS.keys()],
    );
    const ref = (await conn.runAndReadAll("SELECT trajectory_id, _idx FROM ref_trajectories ORDER BY _idx"))
      .getRowObjectsJS()
      .map((r) => [r.trajectory_id, Number(r._idx)]);
    assert.deepEqual(
      ref,
      IDS.map((id, i) => [id, i]),
    );
  });
});

test("without a log_hash column every trajectory is kept, in id order; repeated ids are reported as such", async () => {
  const rows = IDS.map((id) => ({ id, hash: null }));
  await withParquet(`SELECT trajectory_id, task_id FROM (${valuesSql(rows)})`, async (conn, path) => {
    assert.equal(await trajectoryReferenceFromFile(conn, path), true);
    const order = await trajectoryOrderFromFile(conn, path);
    assert.deepEqual(
      keptInOrder(rows, order).trajectories.map((r) => r.id),
      sortByCodePoints(IDS, (x) => x),
    );
  });
  await withParquet(
    valuesSql([
      { id: "a", hash: null },
      { id: "a", hash: null },
    ]),
    async (conn, path) => {
      assert.equal(await trajectoryReferenceFromFile(conn, path), false);
    },
  );
  assert.throws(() => keptInOrder(rows, { rank: new Int32Array(1), kept: new Uint8Array(1) }), /another store/);
});

test("a store read from Parquet carries the order, and its frame keeps what the JavaScript deduplication keeps", async () => {
  const { store } = await readStore(new URL("../data/demo", import.meta.url).pathname);
  assert.ok(store.trajectory_order, "the demo's trajectories.parquet is read with its order");
  const fromOrder = keptInOrder(store.trajectories, store.trajectory_order).trajectories;
  const rows = store.trajectories.map((t) => ({ id: t.trajectory_id, hash: t.log_hash ?? null }));
  assert.deepEqual(
    fromOrder.map((t) => t.trajectory_id),
    referenceKept(rows),
  );
  assert.ok(fromOrder.length < store.trajectories.length, "the demo has repeated log hashes");
  // slotOf: each trajectory's place among the kept, −1 for a dropped one.
  const { slotOf } = keptInOrder(store.trajectories, store.trajectory_order);
  let dropped = 0;
  store.trajectories.forEach((t, i) => {
    if (slotOf[i] < 0) dropped++;
    else assert.equal(fromOrder[slotOf[i]], t);
  });
  assert.equal(dropped, store.trajectories.length - fromOrder.length);
});
