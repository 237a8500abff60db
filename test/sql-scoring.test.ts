import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { prepareStore } from "../analysis/rq/prepared.js";
import { readStore } from "../store/read-store.js";
import { trajectoryScores } from "../store/sql/trajectory-scores.js";

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
