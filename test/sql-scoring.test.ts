import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareStore } from "../analysis/rq/prepared.js";
import { readStore } from "../store/read-store.js";
import { parquetScoringViews, trajectoryScores } from "../store/sql/trajectory-scores.js";

test("plain GCPC from one SQL GROUP BY over the Parquet store equals the TypeScript scorer for every demo trajectory", async () => {
  const dir = join(new URL("..", import.meta.url).pathname, "data/demo");
  const { store } = await readStore(dir);
  const p = prepareStore(store);
  const sql = await trajectoryScores(dir, p.primaryJudge);
  assert.equal(sql.trajectory_id.length, store.trajectories.length);
  let compared = 0;
  for (const [i, id] of sql.trajectory_id.entries()) {
    const m = p.metrics.get(id);
    if (!m) continue; // a dropped duplicate: SQL scores it too, the TS pipeline does not keep it
    compared++;
    assert.equal(sql.yes[i], m.yes, id);
    assert.equal(sql.decided[i], m.decided, id);
    assert.equal(sql.items[i], m.items, id);
    if (m.zero_evidence) assert.ok(Number.isNaN(sql.gcpc[i]), id);
    else assert.ok(Math.abs(sql.gcpc[i] - m.gcpc) < 1e-15, `${id}: ${sql.gcpc[i]} vs ${m.gcpc}`);
  }
  assert.equal(compared, p.trajectories.length);
});

test("the scale bench's DuckDB floor computes plain GCPC and GCPC with the official outcome as the TypeScript scorer", async () => {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const { FLOOR_SQL } = await import("../bench/duckdb-floor.js");
  const { PLAIN, WITH_OFFICIAL_OUTCOME } = await import("../analysis/scoring/official-outcome.js");
  const dir = join(new URL("..", import.meta.url).pathname, "data/demo");
  const p = prepareStore((await readStore(dir)).store);
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    await parquetScoringViews(conn, dir);
    const rows = (await conn.runAndReadAll(FLOOR_SQL, { primary: p.primaryJudge })).getRowObjectsJS();
    let compared = 0;
    for (const r of rows) {
      const id = String(r.trajectory_id);
      if (!p.slots.has(id)) continue; // a dropped duplicate
      compared++;
      for (const [column, step] of [
        ["gcpc", PLAIN],
        ["gcpc_outcome", WITH_OFFICIAL_OUTCOME],
      ] as const) {
        const expected = p.score(id, step);
        const got = r[column] === null ? NaN : Number(r[column]);
        if (Number.isNaN(expected)) assert.ok(Number.isNaN(got), `${id} ${column}`);
        else assert.ok(Math.abs(got - expected) < 1e-12, `${id} ${column}: ${got} vs ${expected}`);
      }
    }
    assert.equal(compared, p.trajectories.length);
  } finally {
    conn.closeSync();
    duck.closeSync();
  }
});
