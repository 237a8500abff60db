import { test } from "node:test";
import assert from "node:assert/strict";
import { StringPool } from "../store/string-pool.js";
import { ScoreColumn, trajectorySlots } from "../analysis/rq/score-column.js";
import type { Trajectory } from "../analysis/schema/tables.js";
import { MetricsTable } from "../analysis/scoring/metrics-table.js";
import type { TrajectoryMetrics } from "../analysis/scoring/trajectory-metrics.js";

// Strings built apart, as rows read one by one are. Which copy a row holds is not observable from
// JavaScript (strings are values), so these tests check that pooling never changes a value; the memory
// it saves was measured when it was introduced (git log of store/string-pool.ts).
const fresh = (s: string) => JSON.parse(JSON.stringify({ s })).s as string;

test("pooling a row's strings leaves every value, string or not, as it was", () => {
  const pool = new StringPool(3);
  const a = { trajectory_id: fresh("t-0001"), method: fresh("holistic"), text: fresh("same text"), score: 0.5 };
  const b = { trajectory_id: fresh("t-0001"), method: fresh("holistic"), text: fresh("same text"), score: 0.25 };
  pool.internRow(a);
  pool.internRow(b);
  assert.deepEqual(b, { trajectory_id: "t-0001", method: "holistic", text: "same text", score: 0.25 }, "values kept");
  assert.deepEqual(a, { trajectory_id: "t-0001", method: "holistic", text: "same text", score: 0.5 });
});

test("a full string pool keeps values it cannot hold", () => {
  const pool = new StringPool(1);
  const first = { model: fresh("m1") };
  pool.internRow(first);
  const other = { model: fresh("m2") };
  pool.internRow(other);
  assert.equal(other.model, "m2");
  const again = { model: fresh("m1") };
  pool.internRow(again);
  assert.equal(again.model, "m1");
});

const traj = (id: string) => ({ trajectory_id: id }) as Trajectory;

test("a score column answers has/get/size as a Map of the same scores, ignoring unknown trajectories", () => {
  const slots = trajectorySlots([traj("a"), traj("b"), traj("c")]);
  const column = new ScoreColumn(slots);
  const map = new Map<string, number>();
  for (const [id, s] of [
    ["a", 0.5],
    ["c", 0],
    ["a", 0.75],
  ] as const) {
    column.set(id, s);
    map.set(id, s);
  }
  assert.equal(column.set("zz", 1), false, "a trajectory outside the slots is not stored");
  assert.equal(column.size, map.size);
  for (const id of ["a", "b", "c", "zz"]) {
    assert.equal(column.has(id), map.has(id), id);
    assert.equal(column.get(id), map.get(id), id);
  }
});

test("the metrics table gives back every trajectory's metrics as stored, NaN included, in trajectory order", () => {
  const rows: [string, TrajectoryMetrics][] = [
    [
      "a",
      {
        gcpc: 2 / 3,
        gcpc_outcome: 0.7,
        perfect: 0,
        coverage: 0.75,
        zero_evidence: false,
        yes: 2,
        decided: 3,
        items: 4,
      },
    ],
    ["b", { gcpc: NaN, gcpc_outcome: NaN, perfect: 1, coverage: 0, zero_evidence: true, yes: 0, decided: 0, items: 5 }],
  ];
  const table = new MetricsTable(
    rows.map(([id]) => id),
    trajectorySlots(rows.map(([id]) => traj(id))),
  );
  for (const [k, [, m]] of rows.entries()) table.setSlot(k, m);
  assert.deepEqual([...table], rows);
  assert.deepEqual(table.get("b"), rows[1][1]);
  assert.equal(table.get("zz"), undefined);
  assert.equal(table.has("a") && !table.has("zz") && table.size === 2, true);
});
