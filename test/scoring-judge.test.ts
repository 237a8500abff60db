// Judges per trajectory (issue 45.2): a trajectory labelled by one judge is scored by it; where several labelled
// it, the primary judge scores it; --judge NAME scores every trajectory by one judge. Hand-computed figures.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scoringJudge } from "../analysis/rq/prepared.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

// InfoBench-style: llama3 judges gpt's answers, mistral judges llama3's (two yes/no questions a task).
const ROWS = `task,model,judge,item,verdict
t1,gpt,llama3,q1,yes
t1,gpt,llama3,q2,no
t1,llama3,mistral,q1,yes
t1,llama3,mistral,q2,yes
t2,gpt,llama3,q1,no
t2,gpt,llama3,q2,no
t2,llama3,mistral,q1,yes
t2,llama3,mistral,q2,no
t3,gpt,llama3,q1,yes
t3,gpt,llama3,q2,yes
t3,llama3,mistral,q1,no
t3,llama3,mistral,q2,yes
t3,llama3,llama3,q1,yes
t3,llama3,llama3,q2,yes
`;
let store: string;
let summary: string;

before(async () => {
  const dir = tempDir("gcpc-scoring-judge-");
  writeFileSync(join(dir, "cross.csv"), ROWS);
  store = join(dir, "store");
  const args = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model"];
  const r = await cli(["import", "table", join(dir, "cross.csv"), ...args, "--judge-column", "judge", "--out", store]);
  assert.equal(r.code, 0, r.stderr);
  summary = r.stdout + r.stderr;
});

const values = async (extra: string[] = []) => {
  const r = await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--format", "json", ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return Object.fromEntries(JSON.parse(r.stdout).rows.map((x: { arm: string; value: number }) => [x.arm, x.value]));
};

test("scoringJudge: the primary when it labelled the trajectory, else the only judge that did, else the primary", () => {
  assert.equal(scoringJudge([{ judge: "p" }, { judge: "x" }], "p"), "p");
  assert.equal(scoringJudge([{ judge: "x" }, { judge: "x" }], "p"), "x");
  assert.equal(scoringJudge([{ judge: "x" }, { judge: "y" }], "p"), "p");
  assert.equal(scoringJudge(undefined, "p"), "p");
});

test("each trajectory is scored by the judge that labelled it; the primary (llama3) where both did", async () => {
  // The store's primary is llama3 (the first judge). gpt by llama3: t1 1/2, t2 0, t3 1 → 1/2. llama3's answers by
  // mistral on t1 (1) and t2 (1/2); on t3 both judges labelled it, so the primary scores it: 1 → (1 + 1/2 + 1)/3.
  const v = await values();
  assert.equal(v.gpt, 0.5);
  assert.ok(Math.abs(v.llama3 - 5 / 6) < 1e-15, String(v.llama3));
});

test("the import summary says per arm which judge scored it", () => {
  // The harness is unrecorded for every arm: only the model, which varies, names an arm.
  assert.match(summary, /arm gpt: .*; scored by llama3\n/);
  assert.match(summary, /arm llama3: .*; scored by mistral \(2\), llama3 \(1\)\n/);
});

test("--judge NAME scores every trajectory by NAME; a trajectory NAME did not label is left out", async () => {
  const byMistral = await values(["--judge", "mistral"]);
  // mistral labelled llama3's three answers only: t1 1, t2 1/2, t3 1/2.
  assert.deepEqual(Object.keys(byMistral), ["llama3"]);
  assert.ok(Math.abs(byMistral.llama3 - 2 / 3) < 1e-15);
  const r = await cli(["leaderboard", store, "--metric", "gcpc", "--judge", "nobody"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no judge "nobody" in the store \(its judges: llama3, mistral\)/);
});
