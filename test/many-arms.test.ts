// Issue 46: a leaderboard of many arms tests the top N only (N arms make N(N − 1)/2 pairwise tests), says so,
// and still ranks every arm; compare's rates beside the Δ are over the matched units the Δ is over.
import { test } from "node:test";
import assert from "node:assert/strict";
import { prepareStore } from "../analysis/rq/prepared.js";
import { compareArms } from "../analysis/rq/arms/compare-arms.js";
import { leaderboard, PAIRWISE_TOP, type PairwiseRow } from "../analysis/rq/arms/leaderboard.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { leaderboardMarkdown } from "../report/arms-render.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";

const settings = { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 };

/** `arms` models × `tasks` tasks, one trial each; model m passes task t when (m·7 + t·3) mod 10 < m mod 10. */
function manyArms(arms: number, tasks: number) {
  const rows: SmallTrajectory[] = [];
  for (let m = 0; m < arms; m++)
    for (let t = 0; t < tasks; t++)
      rows.push({
        task: `task-${t}`,
        outcome: (m * 7 + t * 3) % 10 < m % 10 ? "PASS" : "FAIL",
        labels: ["Yes"],
        model: `model-${String(m).padStart(3, "0")}`,
        trial: 1,
      });
  return prepareStore(smallStore("many arms (synthetic)", rows));
}

test("300 arms: pairwise tests among the top 20 only (190 pairs, Holm over them), every arm ranked, a note", () => {
  const stages: string[] = [];
  const board = leaderboard(manyArms(300, 20), { by: ["model"], settings, stage: (s) => stages.push(s) });
  assert.ok(!("available" in board));
  assert.equal(board.rows.length, 300);
  assert.ok(board.rows.every((r) => r.rank_ci !== null && r.rank_ci_joint !== null));
  assert.equal(PAIRWISE_TOP, 20);
  assert.equal(board.pairwise.length, (20 * 19) / 2);
  // The tested arms are the 20 first rows (the board's order is by value).
  const top = new Set(board.rows.slice(0, 20).map((r) => r.arm));
  assert.ok(board.pairwise.every((p) => top.has(p.row) && top.has(p.column)));
  assert.deepEqual(board.pairwise_scope, {
    top: 20,
    arms: 300,
    pairs: 190,
    note: board.pairwise_scope.note,
  });
  assert.match(board.pairwise_scope.note ?? "", /top 20 of 300 arms/);
  assert.ok(board.tie_groups.flat().every((a) => top.has(a)));
  assert.match(leaderboardMarkdown(board, "x", settings), /\*\*Note:\*\* pairwise tests, Holm and tie groups among/);
  assert.deepEqual(
    stages.map((s) => s.replace(/\d+/g, "N")),
    ["rank intervals of N arms over N tasks (N resamples)", "N pairwise tests among the top N arms"],
  );
});

test("--top: the top N arms' pairs equal those of a board of those arms alone; a small board has no note", () => {
  const p = manyArms(12, 10);
  const all = leaderboard(p, { by: ["model"], settings });
  const top5 = leaderboard(p, { by: ["model"], settings, top: 5 });
  assert.ok(!("available" in all) && !("available" in top5));
  assert.equal(all.pairwise_scope.note, null);
  assert.equal(all.pairwise.length, 66);
  assert.equal(top5.pairwise.length, 10);
  // Same pair, same seed and draws: the same Δ, CI and raw p (Holm differs: it adjusts over fewer pairs).
  for (const x of top5.pairwise) {
    const y: PairwiseRow | undefined = all.pairwise.find((r) => r.row === x.row && r.column === x.column);
    assert.ok(y, `${x.row} − ${x.column} is in the full board`);
    assert.deepEqual([x.delta, x.ci, x.p], [y.delta, y.ci, y.p]);
    assert.ok(x.p_holm! <= y.p_holm!);
  }
  // Rank intervals do not depend on --top.
  assert.deepEqual(
    top5.rows.map((r) => [r.arm, r.rank_ci]),
    all.rows.map((r) => [r.arm, r.rank_ci]),
  );
});

test("compare: the rates beside the Δ are over the matched units (b − a = Δ), the arms' own over all their runs", () => {
  // Arm a = model A (tasks 0–3), arm b = model B (tasks 0–3, plus tasks 4–7 A never ran, all PASS).
  const rows: SmallTrajectory[] = [];
  const aPass = [true, false, false, true];
  const bPass = [true, true, false, false];
  for (let t = 0; t < 4; t++) {
    rows.push({ task: `t${t}`, outcome: aPass[t] ? "PASS" : "FAIL", labels: ["Yes"], model: "A", trial: 1 });
    rows.push({ task: `t${t}`, outcome: bPass[t] ? "PASS" : "FAIL", labels: ["Yes"], model: "B", trial: 1 });
  }
  for (let t = 4; t < 8; t++) rows.push({ task: `t${t}`, outcome: "PASS", labels: ["Yes"], model: "B", trial: 1 });
  const r = compareArms(prepareStore(smallStore("s", rows)), { a: { model: "A" }, b: { model: "B" }, settings });
  assert.ok(!("available" in r) && !("unpaired" in r));
  // By hand: matched tasks 0–3; a passes 2 of 4, b 2 of 4; over all runs b passes 6 of 8.
  assert.equal(r.pass_rate_delta.rate_a, 0.5);
  assert.equal(r.pass_rate_delta.rate_b, 0.5);
  assert.equal(r.pass_rate_delta.estimate, 0);
  assert.equal(r.b.pass_rate, 0.75);
});
