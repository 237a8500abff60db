// The leaderboard's value of an arm on a bootstrap draw, summed over only the tasks the arm holds
// (analysis/rq/arms/leaderboard-arms.ts drawRatio), against the dense sum over every task (ratio).
import { test } from "node:test";
import assert from "node:assert/strict";
import { drawRatio, ratio, type Arm } from "../analysis/rq/arms/leaderboard-arms.js";

/** An arm over `tasks` tasks holding about `share` of them; scores in [0, 1], some tasks all-fail (sum 0). */
function randomArm(tasks: number, share: number, next: () => number): Arm {
  const sum = new Float64Array(tasks);
  const count = new Float64Array(tasks);
  for (let t = 0; t < tasks; t++) {
    if (next() >= share) continue;
    count[t] = 1 + Math.floor(next() * 4);
    // A third of the held tasks score 0 on every trajectory: held (a count) though their sum is 0.
    sum[t] = next() < 1 / 3 ? 0 : next() * count[t];
  }
  return { arm: "a", fields: {}, sum, count, byRun: new Map(), trajectories: 0, slots: [], slotClusters: [] };
}

test("drawRatio: an arm's value on a draw equals the dense ratio bit for bit, the arm holding few or all tasks", () => {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let compared = 0;
  for (const share of [0, 0.01, 0.3, 1]) {
    for (let a = 0; a < 20; a++) {
      const tasks = 1 + Math.floor(next() * 500);
      const arm = randomArm(tasks, share, next);
      const onDraw = drawRatio(arm);
      for (let d = 0; d < 20; d++) {
        // A draw's weights: how many times each task was drawn (most 0, 1 or 2).
        const w = Float64Array.from({ length: tasks }, () => Math.floor(-Math.log(1 - next())));
        const dense = ratio(arm, w);
        const sparse = onDraw(w);
        assert.ok(Object.is(dense, sparse), `share ${share}, arm ${a}, draw ${d}: ${dense} against ${sparse}`);
        compared++;
      }
    }
  }
  assert.equal(compared, 4 * 20 * 20);
  // An arm holding no task has no value on any draw (NaN), as the dense ratio says.
  assert.ok(Number.isNaN(drawRatio(randomArm(10, 0, next))(new Float64Array(10).fill(1))));
});

test("drawRatio: a hand example, and the tasks it skips are the ones whose terms are zero", () => {
  // Tasks 0..3: the arm ran tasks 1 and 3 (2 of 3 and 0 of 2 passing); w draws task 1 twice, task 3 once.
  const arm: Arm = {
    arm: "a",
    fields: {},
    sum: Float64Array.from([0, 2, 0, 0]),
    count: Float64Array.from([0, 3, 0, 2]),
    byRun: new Map(),
    trajectories: 5,
    slots: [],
    slotClusters: [],
  };
  const w = Float64Array.from([5, 2, 7, 1]);
  // (2·2 + 1·0) / (2·3 + 1·2) = 4 / 8
  assert.equal(drawRatio(arm)(w), 0.5);
  assert.equal(ratio(arm, w), 0.5);
});
