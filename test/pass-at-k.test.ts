// pass^k (τ-bench) and pass@k (Chen et al. 2021) per task, and the leaderboard's arm means of them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { passAtK, passHatK } from "../analysis/stats/pass-at-k.js";
import { cli } from "./helpers/run-cli.js";
import { readStore } from "../store/read-store.js";

const repo = new URL("..", import.meta.url).pathname;

/** C(n, k) exactly, in BigInt: the definition, independent of the product the module evaluates. */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}
const ratio = (a: bigint, b: bigint) => Number((a * 10n ** 18n) / b) / 1e18;

test("by hand: n 5, c 3, k 2 gives pass^k 3/10 and pass@k 9/10; pass@1 = pass^1 = c/n; n < k is undefined", () => {
  assert.ok(Math.abs(passHatK(5, 3, 2) - 3 / 10) < 1e-15);
  assert.ok(Math.abs(passAtK(5, 3, 2) - 9 / 10) < 1e-15);
  assert.equal(passHatK(5, 0, 2), 0);
  assert.equal(passAtK(5, 5, 2), 1);
  assert.equal(passAtK(5, 0, 3), 0);
  for (let c = 0; c <= 7; c++) {
    assert.ok(Math.abs(passHatK(7, c, 1) - c / 7) < 1e-15);
    assert.ok(Math.abs(passAtK(7, c, 1) - c / 7) < 1e-15);
  }
  assert.ok(Number.isNaN(passHatK(3, 3, 4)) && Number.isNaN(passAtK(3, 1, 4)));
  assert.throws(() => passHatK(3, 4, 1), /n ≥ c ≥ 0/);
});

test("equal to the binomial definitions, computed exactly, on every (n ≤ 16, c ≤ n, k ≤ n)", () => {
  for (let n = 1; n <= 16; n++)
    for (let c = 0; c <= n; c++)
      for (let k = 1; k <= n; k++) {
        const hat = ratio(choose(c, k), choose(n, k));
        const at = 1 - ratio(choose(n - c, k), choose(n, k));
        assert.ok(Math.abs(passHatK(n, c, k) - hat) < 1e-12, `pass^${k} n ${n} c ${c}`);
        assert.ok(Math.abs(passAtK(n, c, k) - at) < 1e-12, `pass@${k} n ${n} c ${c}`);
      }
});

test("Terminal-Bench pass^5: the share of tasks an arm passed on all five attempts; ob1-agent first (0.475)", async () => {
  const store = join(repo, "data/real/terminal-bench");
  const r = await cli([
    "leaderboard",
    store,
    "--metric",
    "pass^k",
    "--k",
    "5",
    "--resamples",
    "200",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const board = JSON.parse(r.stdout);
  // Counted directly from the trajectories: per (harness / model, task) the attempts and passes.
  const cells = new Map<string, { n: number; c: number }>();
  for (const t of (await readStore(store)).store.trajectories) {
    if (t.outcome !== "PASS" && t.outcome !== "FAIL") continue;
    const key = `${t.harness} / ${t.model}\u0000${t.task_id}`;
    const cell = cells.get(key) ?? { n: 0, c: 0 };
    cell.n++;
    if (t.outcome === "PASS") cell.c++;
    cells.set(key, cell);
  }
  for (const row of board.rows) {
    const mine = [...cells].filter(([key, x]) => key.startsWith(`${row.arm}\u0000`) && x.n >= 5);
    const allPassed = mine.filter(([, x]) => x.c === x.n && x.n === 5).length;
    assert.ok(
      mine.every(([, x]) => x.n === 5),
      "five attempts a task",
    );
    assert.ok(Math.abs(row.value - allPassed / mine.length) < 1e-12, `${row.arm}: ${row.value}`);
    assert.equal(row.tasks, mine.length);
  }
  assert.equal(board.rows[0].arm, "ob1-agent / ob1-sdk");
  assert.equal(board.rows[0].value, 0.475);
  assert.equal(board.rows.find((x: { arm: string }) => x.arm === "droid / claude-4-1-opus").value, 0.4375);
  assert.match(board.estimator, /pass\^k \(k = 5\)/);
});

test("--metric pass^k needs --k; --k alone is refused", async () => {
  const store = join(repo, "examples/jsonl-store");
  const a = await cli(["leaderboard", store, "--metric", "pass@k"]);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /--metric pass@k needs --k K/);
  const b = await cli(["leaderboard", store, "--k", "3"]);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /--k applies to --metric pass\^k and pass@k/);
});
