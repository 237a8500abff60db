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

test("gcpc compare --metric pass^k|pass@k: per matched cell over each arm's own attempts, by hand", async () => {
  const { compareArms } = await import("../analysis/rq/arms/compare-arms.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { smallStore } = await import("./helpers/small-store.js");
  const { DEFAULT_SETTINGS } = await import("../analysis/estimates/bootstrap-interval.js");
  // t1: A passes 2 of 3, B 3 of 3; t2: A 1 of 3, B 0 of 3.
  const passes: Record<string, number> = { "t1:A": 2, "t1:B": 3, "t2:A": 1, "t2:B": 0 };
  const rows = Object.entries(passes).flatMap(([key, c]) => {
    const [task, model] = key.split(":");
    return [1, 2, 3].map((trial) => ({
      task,
      model,
      trial,
      outcome: (trial <= c ? "PASS" : "FAIL") as "PASS" | "FAIL",
      labels: ["Yes" as const],
    }));
  });
  const p = prepareStore(smallStore("attempts (synthetic)", rows));
  const settings = { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 };
  const delta = (metric: "pass^k" | "pass@k", k: number) => {
    const r = compareArms(p, { a: { model: "A" }, b: { model: "B" }, settings, attempts: { metric, k } });
    assert.ok(!("available" in r) && !("unpaired" in r) && r.attempt_delta && !("available" in r.attempt_delta));
    return r.attempt_delta;
  };
  // pass^2 = C(c,2)/C(3,2): A 1/3 and 0, B 1 and 0 → Δ per task 2/3 and 0 → 1/3.
  const hat = delta("pass^k", 2);
  assert.ok(Math.abs(hat.estimate! - 1 / 3) < 1e-15 && Math.abs(hat.value_a! - 1 / 6) < 1e-15);
  // pass@2 = 1 − C(n−c,2)/C(3,2): A 1 and 2/3, B 1 and 0 → Δ per task 0 and −2/3 → −1/3.
  const at = delta("pass@k", 2);
  assert.ok(Math.abs(at.estimate! + 1 / 3) < 1e-15);
  assert.equal(at.units, 2);
  // k above the attempts: not available, with the reason.
  const r = compareArms(p, { a: { model: "A" }, b: { model: "B" }, settings, attempts: { metric: "pass^k", k: 4 } });
  assert.ok(!("available" in r) && !("unpaired" in r));
  assert.match((r.attempt_delta as { reason: string }).reason, /no matched cell holds 4 or more attempts/);
});

test("pass^k's caveat tells 'ran fewer tasks' from 'fewer than k attempts on some'; no 'one run' line (issue 55.3)", async () => {
  const { tempDir } = await import("./helpers/temp-dir.js");
  const dir = tempDir("gcpc-pass-k-caveat-");
  // Arm a: 3 attempts on t1..t5. Arm b: 3 attempts on t1..t4 and 1 on t5 (it ran all five tasks).
  // Arm c: 3 attempts on t1..t4 only (it ran four of the board's five).
  const rows = ["task,model,trial,item,label,ok"];
  for (const [model, tasks] of [
    ["a", { t1: 3, t2: 3, t3: 3, t4: 3, t5: 3 }],
    ["b", { t1: 3, t2: 3, t3: 3, t4: 3, t5: 1 }],
    ["c", { t1: 3, t2: 3, t3: 3, t4: 3 }],
  ] as const)
    for (const [task, n] of Object.entries(tasks))
      for (let i = 1; i <= n; i++) rows.push(`${task},${model},${i},q,yes,${i === 1 ? "y" : "n"}`);
  const store = await importRuns(dir, rows);
  const args = ["leaderboard", store, "--by", "model", "--metric", "pass^k", "--k", "2", "--resamples", "50"];
  const json = JSON.parse((await cli([...args, "--format", "json"])).stdout);
  const caveat = (arm: string) => json.rows.find((r: { arm: string }) => r.arm === arm).caveat ?? "";
  assert.doesNotMatch(caveat("b"), /ran \d+ of the board's/);
  assert.match(caveat("b"), /1 of the 5 tasks it ran have fewer than 2 attempts: its value is over the other 4/);
  assert.match(caveat("c"), /ran 4 of the board's 5 tasks/);
  assert.doesNotMatch(caveat("c"), /fewer than 2 attempts/);
  const md = (await cli(args)).stdout;
  assert.doesNotMatch(md, /Every arm has one run/);
  assert.match(md, /pass\^k is computed per task from its attempts/);
});

test("compare's pass^k counts only attempts with an outcome (issue 55.5): 2 PASS and 1 unknown is pass^2 = 1", async () => {
  const { tempDir } = await import("./helpers/temp-dir.js");
  const dir = tempDir("gcpc-pass-k-unknown-");
  // Arm a: on each of 5 tasks, two PASS attempts and one with no outcome (an empty cell). Arm b: PASS, FAIL.
  const rows = ["task,model,trial,item,label,ok"];
  for (let t = 1; t <= 5; t++) {
    rows.push(`t${t},a,1,q,yes,y`, `t${t},a,2,q,yes,y`, `t${t},a,3,q,yes,`);
    rows.push(`t${t},b,1,q,yes,y`, `t${t},b,2,q,no,n`);
  }
  const store = await importRuns(dir, rows);
  const r = await cli([
    "compare",
    store,
    "--a",
    "model=a",
    "--b",
    "model=b",
    "--metric",
    "pass^k",
    "--k",
    "2",
    "--pair",
    "task",
    "--resamples",
    "100",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout).attempt_delta;
  // a: n 2, c 2 → C(2,2)/C(2,2) = 1 (counting the unknown attempt: C(2,2)/C(3,2) = 1/3); b: n 2, c 1 → 0.
  assert.equal(d.value_a, 1);
  assert.equal(d.value_b, 0);
});

/** CSV rows (task, model, trial, item, label, ok) imported as a store in `dir`; outcome ok = y is PASS. */
async function importRuns(dir: string, rows: string[]): Promise<string> {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(join(dir, "runs.csv"), `${rows.join("\n")}\n`);
  const store = join(dir, "store");
  const columns = ["--task", "task", "--model", "model", "--trial", "trial", "--item", "item", "--label", "label"];
  const imported = await cli([
    "import",
    "table",
    join(dir, "runs.csv"),
    "--out",
    store,
    ...columns,
    "--outcome",
    "ok",
    "--pass",
    "y",
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  return store;
}
