import { test } from "node:test";
import assert from "node:assert/strict";
import { denseRanks } from "../analysis/rq/population-columns.js";
import { denseRanksInto } from "../analysis/stats/ranks.js";
import { taskClusters } from "../analysis/rq/common.js";

test("denseRanks numbers the members' ranks 0, 1, … in rank order, as taskClusters numbers their keys", () => {
  const rank = Int32Array.of(5, 3, 9, 3, 7, 12);
  const r = denseRanks(rank, Int32Array.of(0, 1, 3, 4));
  // Ranks 5, 3, 3, 7: three distinct, 3 → 0, 5 → 1, 7 → 2.
  assert.deepEqual([...r.dense], [1, 0, 0, 2]);
  assert.equal(r.distinct, 3);
  // One rank only (a per-task group), far from rank 0.
  const one = denseRanks(rank, Int32Array.of(5));
  assert.deepEqual([...one.dense], [0]);
  assert.equal(one.distinct, 1);
  const none = denseRanks(rank, new Int32Array(0));
  assert.deepEqual([...none.dense], []);
  assert.equal(none.distinct, 0);
});

test("denseRanks of code-point ranks equals taskClusters on the members' ids", () => {
  const ids = ["t-b", "t-a", "t-d", "t-c", "t-a", "t-é", "t-B"];
  const sorted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Int32Array.from(ids, (id) => sorted.indexOf(id));
  for (const members of [[0, 1, 2, 3, 4, 5, 6], [2, 5], [6, 4, 1], [3]]) {
    const own = taskClusters(members.map((i) => ids[i]));
    const r = denseRanks(rank, Int32Array.from(members));
    assert.deepEqual([...r.dense], [...own.clusterOf], members.join(","));
    assert.equal(r.distinct, own.clusters);
  }
});

test("denseRanksInto ranks every value when no members are given, negative integers included", () => {
  const out = new Int32Array(6);
  assert.equal(denseRanksInto([5, -2, 5, 0, -2, 9], undefined, out), 4);
  assert.deepEqual([...out], [2, 0, 2, 1, 0, 3]);
});
