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

test("compare: arms scored by different judges carry a caveat; --judge NAME scores both by one", async () => {
  // The same verdicts with a binary outcome per trajectory (compare's pass-rate Δ needs one).
  const dir = tempDir("gcpc-scoring-judge-compare-");
  const passed: Record<string, string> = { "t1,gpt": "1", "t2,gpt": "0", "t3,gpt": "1", "t1,llama3": "1" };
  const lines = ROWS.trim().split("\n");
  const csv = [
    `${lines[0]},passed`,
    ...lines.slice(1).map((l) => `${l},${passed[l.split(",").slice(0, 2).join(",")] ?? "0"}`),
  ].join("\n");
  writeFileSync(join(dir, "cross.csv"), `${csv}\n`);
  const out = join(dir, "store");
  const args = [
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "verdict",
    "--model",
    "model",
    "--judge-column",
    "judge",
  ];
  const imported = await cli([
    "import",
    "table",
    join(dir, "cross.csv"),
    ...args,
    "--outcome",
    "passed",
    "--pass",
    "1",
    "--out",
    out,
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  const compare = async (extra: string[] = []) => {
    const r = await cli(["compare", out, "--a", "model=gpt", "--b", "model=llama3", "--format", "json", ...extra]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const mixed = await compare();
  const caveat = mixed.caveats.find((c: string) => c.startsWith("the arms were scored by different judges"));
  assert.equal(
    caveat,
    "the arms were scored by different judges (a: llama3 (3); b: mistral (2), llama3 (1)): " +
      "the score Δ mixes the arms with their judges; --judge NAME scores both by one",
  );
  // Scored by llama3 throughout: gpt 1/2, 0, 1 and llama3's t3 only (1): the one unit with both scores is t3, Δ 0.
  const one = await compare(["--judge", "llama3"]);
  assert.equal(
    one.caveats.some((c: string) => c.includes("different judges")),
    false,
  );
  assert.deepEqual([one.score_delta.units, one.score_delta.estimate], [1, 0]);
  const bad = await cli(["compare", out, "--a", "model=gpt", "--b", "model=llama3", "--judge", "nobody"]);
  assert.match(bad.stderr, /no judge "nobody" in the store/);
});

test("the overview says per arm which judge scored it (report/site/overview.ts, scoredBy)", async () => {
  const { scoredBy } = await import("../report/site/overview.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { readStore } = await import("../store/read-store.js");
  const p = prepareStore((await readStore(store)).store);
  assert.deepEqual(scoredBy(p, ["model"]), { gpt: "llama3", llama3: "mistral (2), llama3 (1)" });
});
