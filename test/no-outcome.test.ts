// GCPC needs no outcome (issue 45.1): a rubric table imported without --outcome has no binary trajectory, and its
// leaderboard by GCPC is each arm's mean credit, plain or weighted, computed here by hand.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

let dir: string;
// Two models, three tasks, two yes/no criteria each; no outcome column.
const ROWS = `task,model,item,verdict
t1,a,q1,yes
t1,a,q2,no
t1,b,q1,yes
t1,b,q2,yes
t2,a,q1,no
t2,a,q2,no
t2,b,q1,yes
t2,b,q2,no
t3,a,q1,yes
t3,a,q2,yes
t3,b,q1,yes
t3,b,q2,yes
`;

before(() => {
  dir = tempDir("gcpc-no-outcome-");
  writeFileSync(join(dir, "rubric.csv"), ROWS);
  writeFileSync(join(dir, "weights.csv"), "item,weight\nq1,3\nq2,1\n");
});

async function board(weights: boolean) {
  const store = join(dir, weights ? "weighted" : "plain");
  const args = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model", "--out", store];
  const imported = await cli([
    "import",
    "table",
    join(dir, "rubric.csv"),
    ...args,
    ...(weights ? ["--weights", join(dir, "weights.csv")] : []),
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  const r = await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test("leaderboard --metric gcpc on a store with no outcome: each model's mean credit (hand: a 1/2, b 5/6)", async () => {
  const b = await board(false);
  const value = (arm: string) => b.rows.find((r: { arm: string }) => r.arm === arm).value;
  // a: t1 1/2, t2 0, t3 1 → 1/2; b: t1 1, t2 1/2, t3 1 → 5/6.
  assert.equal(value("a"), 0.5);
  assert.ok(Math.abs(value("b") - 5 / 6) < 1e-15);
  assert.equal(b.rows[0].arm, "b");
  assert.equal(b.rows.length, 2);
});

test("with item weights and no outcome: each model's weighted mean (hand: a 7/12, b 11/12)", async () => {
  const b = await board(true);
  const value = (arm: string) => b.rows.find((r: { arm: string }) => r.arm === arm).value;
  // q1 weighs 3, q2 1. a: t1 3/4, t2 0, t3 1 → 7/12; b: t1 1, t2 3/4, t3 1 → 11/12.
  assert.ok(Math.abs(value("a") - 7 / 12) < 1e-15, String(value("a")));
  assert.ok(Math.abs(value("b") - 11 / 12) < 1e-15, String(value("b")));
  assert.match(b.estimator, /weighted GCPC/);
});

test("the pass rate still needs the outcome, and says so; with no --metric the board ranks by GCPC and says so", async () => {
  const store = join(dir, "plain");
  const r = await cli(["leaderboard", store, "--by", "model", "--format", "json", "--metric", "pass_rate"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no trajectory with a binary outcome/);
  const d = await cli(["leaderboard", store, "--by", "model", "--format", "json"]);
  assert.equal(d.code, 0, d.stderr);
  assert.match(d.stderr, /the store has no PASS\/FAIL outcome, so the leaderboard ranks by GCPC \(--metric gcpc\)/);
  assert.equal(JSON.parse(d.stdout).metric, "gcpc");
});

test("the report's first section compares the arms by GCPC when the store has no outcome, not 'one arm only'", async () => {
  const r = await cli(["report", join(dir, "plain"), "--format", "json", "--resamples", "200"]);
  assert.equal(r.code, 0, r.stderr);
  const arms = JSON.parse(r.stdout).arms;
  assert.deepEqual(arms.by, ["model"]);
  assert.equal(arms.leaderboard.metric, "gcpc");
  assert.deepEqual(
    arms.leaderboard.rows.map((x: { arm: string; value: number }) => [x.arm, Number(x.value.toFixed(12))]),
    [
      ["b", Number((5 / 6).toFixed(12))],
      ["a", 0.5],
    ],
  );
  const md = await cli(["report", join(dir, "plain"), "--resamples", "200"]);
  assert.match(md.stdout, /## Your arms: GCPC \(the store has no binary outcome\) by model/);
});

test("compare without an outcome: the GCPC Δ by hand and the same as with one; the pass rate says why in one line", async () => {
  const store = join(dir, "compare-plain");
  const args = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model", "--out", store];
  assert.equal((await cli(["import", "table", join(dir, "rubric.csv"), ...args])).code, 0);
  const r = await cli(["compare", store, "--a", "model=a", "--b", "model=b", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const c = JSON.parse(r.stdout);
  // Per task b − a: t1 1 − 1/2, t2 1/2 − 0, t3 1 − 1 → mean (1/2 + 1/2 + 0)/3 = 1/3.
  assert.ok(Math.abs(c.score_delta.estimate - 1 / 3) < 1e-15, String(c.score_delta.estimate));
  assert.equal(c.score_delta.units, 3);
  assert.match(c.pass_rate_delta.reason, /no binary outcome/);
  assert.equal(c.pass_rate_delta.estimate, null);
  assert.match(c.transitions.reason, /no binary outcome/);
  assert.equal(c.a.pass_rate, null);
  const md = (await cli(["compare", store, "--a", "model=a", "--b", "model=b"])).stdout;
  assert.equal((md.match(/Pass-rate Δ: not available \(the store has no binary outcome/g) ?? []).length, 1);
  // With an outcome, the GCPC Δ and its interval are the same figures.
  const withOutcome = join(dir, "compare-outcome");
  const passed: Record<string, string> = { "t1,b": "1", "t3,a": "1", "t3,b": "1" };
  const lines = ROWS.trim().split("\n");
  const rows = [
    `${lines[0]},passed`,
    ...lines.slice(1).map((l) => `${l},${passed[l.split(",").slice(0, 2).join(",")] ?? "0"}`),
  ];
  writeFileSync(join(dir, "rubric-outcome.csv"), `${rows.join("\n")}\n`);
  const args2 = [...args.slice(0, -1), withOutcome, "--outcome", "passed", "--pass", "1"];
  const imported = await cli(["import", "table", join(dir, "rubric-outcome.csv"), ...args2]);
  assert.equal(imported.code, 0, imported.stderr);
  const o = JSON.parse(
    (await cli(["compare", withOutcome, "--a", "model=a", "--b", "model=b", "--format", "json"])).stdout,
  );
  assert.deepEqual([o.score_delta.estimate, o.score_delta.ci], [c.score_delta.estimate, c.score_delta.ci]);
  assert.equal(o.pass_rate_delta.reason, undefined);
});

test("power without an outcome: the score's power only, and it says so", async () => {
  const store = join(dir, "power-plain");
  const args = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model", "--out", store];
  assert.equal((await cli(["import", "table", join(dir, "rubric.csv"), ...args])).code, 0);
  const base = ["power", store, "--a", "model=a", "--b", "model=b", "--tasks", "3,6", "--attempts", "1"];
  const r = await cli([...base, "--simulations", "20", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.equal(d.store_effect.pass_rate, null);
  assert.ok(Math.abs(d.store_effect.score - 1 / 3) < 1e-15);
  assert.ok(d.rows.length > 0 && d.rows.every((x: { metric: string }) => x.metric === "score"));
  const md = (await cli([...base, "--simulations", "20"])).stdout;
  assert.match(md, /pass rate n\/a \(no binary outcome: the score's power only\)/);
});

test("the site's leaderboard of a 3-arm store with no outcome ranks its arms by GCPC (issue 55.3)", async () => {
  const { readStore } = await import("../store/read-store.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { siteLeaderboard } = await import("../report/site/site-files.js");
  const { DEFAULT_SETTINGS } = await import("../analysis/estimates/bootstrap-interval.js");
  const three =
    ROWS +
    ROWS.split("\n")
      .filter((l) => l.includes(",a,"))
      .map((l) => l.replace(",a,", ",c,"))
      .join("\n") +
    "\n";
  writeFileSync(join(dir, "three.csv"), three);
  const store = join(dir, "three");
  const args = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model", "--out", store];
  assert.equal((await cli(["import", "table", join(dir, "three.csv"), ...args])).code, 0);
  const board = siteLeaderboard(prepareStore((await readStore(store)).store), { ...DEFAULT_SETTINGS, resamples: 50 });
  assert.ok(!("available" in board), JSON.stringify(board));
  assert.equal(board.metric, "gcpc");
  // Hand: a and c 1/2 (as the first test), b 5/6.
  assert.deepEqual(
    board.rows.map((r) => [r.arm, +r.value.toFixed(12)]),
    [
      ["b", +(5 / 6).toFixed(12)],
      ["a", 0.5],
      ["c", 0.5],
    ],
  );
});
