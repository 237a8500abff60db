// The paired sign-flip test (analysis/stats/sign-flip-test.ts) against values it did not produce: brute-force
// enumeration of every sign assignment, scipy.stats.permutation_test, and exact integer counts over the
// Terminal-Bench raw files (test/fixtures/sign_flip_reference.py, which does not call the project's code).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { commonGrid, signFlipTest } from "../analysis/stats/sign-flip-test.js";
import { jointRankSets } from "../analysis/stats/joint-rank-sets.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { leaderboard, type PairwiseRow } from "../analysis/rq/arms/leaderboard.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { readStore } from "../store/read-store.js";

const repo = new URL("..", import.meta.url).pathname;
const reference = JSON.parse(readFileSync(join(repo, "test/fixtures/sign-flip-reference.json"), "utf8")) as {
  terminal_bench: {
    a: string;
    b: string;
    tasks: number;
    p_sign_flip: number | null;
    p_sign_test: number | null;
    p_holm: number;
  }[];
  small: { d: number[]; p_scipy: number; p_enumerated: number }[];
};

/** P(|Σ ε d| ≥ |Σ d|) over all 2^n sign vectors, by brute force. */
function enumerate(d: number[]): number {
  const s = Math.abs(d.reduce((a, b) => a + b, 0));
  let hits = 0;
  for (let mask = 0; mask < 2 ** d.length; mask++) {
    const t = d.reduce((acc, x, i) => acc + ((mask >> i) & 1 ? -x : x), 0);
    if (Math.abs(t) >= s - 1e-9) hits++;
  }
  return hits / 2 ** d.length;
}

test("on a grid: exact, and equal to brute-force enumeration (sizes weigh, unlike the sign test)", () => {
  const rng = seedrandom("sign-flip-grid");
  for (let rep = 0; rep < 40; rep++) {
    const attempts = 1 + Math.floor(rng() * 5);
    const n = 3 + Math.floor(rng() * 12);
    const d = Array.from({ length: n }, () => {
      const a = Math.floor(rng() * (attempts + 1));
      const b = Math.floor(rng() * (attempts + 1));
      return b / attempts - a / attempts;
    });
    const r = signFlipTest(d, { seed: "x" });
    if (d.every((x) => x === 0)) {
      assert.ok(Number.isNaN(r.pValue));
      continue;
    }
    assert.equal(r.exact, true);
    assert.ok(Math.abs(r.pValue - enumerate(d)) < 1e-12, `${JSON.stringify(d)}: ${r.pValue} vs ${enumerate(d)}`);
  }
  // Hand count: d = (1, 1, −1/2). |S| = 3/2; the 8 flips give ±5/2, ±3/2 (twice each sign)… ±1/2:
  // S* ∈ {5/2, 1/2, 3/2, −1/2·…}: |S*| ≥ 3/2 for (+,+,±) and (−,−,±): 4 of 8.
  assert.equal(signFlipTest([1, 1, -0.5], { seed: "x" }).pValue, 4 / 8);
});

test("off any grid: Monte Carlo within its stated error of scipy's exact permutation test", () => {
  for (const c of reference.small) {
    assert.ok(Math.abs(c.p_scipy - c.p_enumerated) < 1e-12, "the two references agree");
    const r = signFlipTest(c.d, { seed: "sign-flip-mc", resamples: 20_000 });
    assert.equal(r.exact, false);
    assert.ok(r.mc_se !== null && r.resamples === 20_000 && r.seed === "sign-flip-mc");
    assert.ok(Math.abs(r.pValue - c.p_scipy) <= 4 * r.mc_se! + 1 / 20_001, `${r.pValue} vs ${c.p_scipy}`);
    assert.ok(Math.abs(enumerate(c.d) - c.p_scipy) < 1e-12);
  }
  // Determinism: the same seed gives the same p.
  const d = reference.small[0].d;
  assert.equal(signFlipTest(d, { seed: "s" }).pValue, signFlipTest(d, { seed: "s" }).pValue);
});

test("commonGrid: the least common denominator of task-mean differences", () => {
  assert.equal(commonGrid([1 / 3 - 1 / 5, 0.5]), 30);
  assert.equal(commonGrid([0.2, -0.4, 1]), 5);
  assert.equal(commonGrid([Math.PI / 10]), null);
});

test("leaderboard on Terminal-Bench: every pairwise p (and its Holm p) is the exact sign-flip p of the raw files' task differences", async () => {
  const p = prepareStore((await readStore(join(repo, "data/real/terminal-bench"))).store);
  const board = leaderboard(p, { by: ["harness", "model"], settings: { ...DEFAULT_SETTINGS, resamples: 2000 } });
  assert.ok(!("available" in board));
  assert.equal(board.pairwise.length, reference.terminal_bench.length);
  let contradictions = 0;
  for (const ref of reference.terminal_bench) {
    const row: PairwiseRow | undefined = board.pairwise.find(
      (r) => (r.row === ref.a && r.column === ref.b) || (r.row === ref.b && r.column === ref.a),
    );
    assert.ok(row, `${ref.a} vs ${ref.b}`);
    assert.equal(row.tasks, ref.tasks);
    assert.ok(row.test.exact);
    assert.ok(Math.abs(row.p! - ref.p_sign_flip!) <= 1e-12 * ref.p_sign_flip!, `${row.p} vs ${ref.p_sign_flip}`);
    assert.ok(Math.abs(row.sign_test_p! - ref.p_sign_test!) <= 1e-12 * ref.p_sign_test!);
    assert.ok(Math.abs(row.p_holm! - ref.p_holm) <= 1e-12 * ref.p_holm, `Holm ${row.p_holm} vs ${ref.p_holm}`);
    if (row.ci && (row.ci[0] > 0 || row.ci[1] < 0) && row.p! >= 0.05) contradictions++;
  }
  // The figures: droid sonnet → opus is 0.0097 by sign flip (0.0351 by the sign test).
  const droid = reference.terminal_bench.find(
    (r) => r.a === "droid / claude-4-1-opus" && r.b === "droid / claude-4-sonnet",
  );
  assert.ok(Math.abs(droid!.p_sign_flip! - 0.0097) < 5e-5 && Math.abs(droid!.p_sign_test! - 0.0351) < 5e-5);
  assert.ok(contradictions <= 1, `${contradictions} pairs with a CI excluding 0 and p ≥ 0.05`);
});

test("joint rank sets: a hand-built draw matrix (SE, max-|t| quantile and sets by hand)", () => {
  // Four draws (dyadic values, exact in doubles). Arm 0: 0.5, 0.75, 0.5, 0.75 (estimate 0.625); arm 1: 0.125,
  // 0.375, … (0.25); arm 2: 0.1875 always. Δ01* = 0.375 on every draw: SE 0, separated. Δ02* ∈ {0.3125, 0.5625}
  // and Δ12* ∈ {−0.0625, 0.1875} deviate ±0.125 from their estimates: each SE = 0.125·√(4/3), each |t*| = √3/2
  // on every draw, so c = √3/2 and c·SE = 0.125: Δ02 = 0.4375 separates, Δ12 = 0.0625 does not.
  // Sets: arm 0 [1, 1]; arms 1 and 2 [2, 3].
  const draws = [
    Float64Array.from([0.5, 0.75, 0.5, 0.75]),
    Float64Array.from([0.125, 0.375, 0.125, 0.375]),
    Float64Array.from([0.1875, 0.1875, 0.1875, 0.1875]),
  ];
  const r = jointRankSets([0.625, 0.25, 0.1875], draws, 0.95);
  assert.ok(Math.abs(r.critical - Math.sqrt(3) / 2) < 1e-9);
  assert.deepEqual(r.sets, [
    [1, 1],
    [2, 3],
    [2, 3],
  ]);
  assert.equal(r.separated, 2);
});

test("joint rank sets equal numpy's on draws whose max-|t| varies (unequal SEs, deviations of both signs)", () => {
  // test/fixtures/joint_rank_sets_reference.py: five arms, 200 draws, max-|t| from 0.36 to 4.06 across draws, so
  // the statistic's absolute value and the quantile's level both move the critical value and the sets.
  const ref = JSON.parse(readFileSync(new URL("fixtures/joint-rank-sets-reference.json", import.meta.url), "utf8"));
  const draws = (ref.draws as number[][]).map((d) => Float64Array.from(d));
  for (const want of ref.results) {
    const r = jointRankSets(ref.estimates, draws, want.level);
    assert.ok(Math.abs(r.critical - want.critical) < 1e-9, `level ${want.level}: c ${r.critical} vs ${want.critical}`);
    assert.deepEqual(r.sets, want.sets, `level ${want.level}`);
    assert.equal(r.separated, want.separated, `level ${want.level}`);
  }
});

test("joint rank sets on Terminal-Bench: each holds the arm's point rank and is at least as wide as rank_ci", async () => {
  const p = prepareStore((await readStore(join(repo, "data/real/terminal-bench"))).store);
  const board = leaderboard(p, { by: ["harness", "model"], settings: { ...DEFAULT_SETTINGS, resamples: 1000 } });
  assert.ok(!("available" in board));
  assert.ok(board.rank_joint && board.rank_joint.critical > 1.96);
  for (const row of board.rows) {
    const better = board.rows.filter((r) => r.value > row.value).length;
    const tied = board.rows.filter((r) => r.value === row.value).length;
    const [lo, hi] = row.rank_ci_joint!;
    assert.ok(lo <= 1 + better && 1 + better + tied - 1 <= hi, `${row.arm}: [${lo}, ${hi}]`);
    assert.ok(lo <= row.rank_ci![0] && row.rank_ci![1] <= hi, `${row.arm}: joint within marginal`);
  }
});
