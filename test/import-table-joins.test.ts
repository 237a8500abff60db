// import table's silent wrong answers of issue 55.2, each with the figure it must give: a weights file keyed by
// (category, item) joined on both columns; the reference judge never the scoring judge; --outcomes rows that match
// no trajectory listed (and refused under --strict); --into of an outcome-free table re-imported; --into keeping
// --reference-judge; evidence, item text and prerequisites through the table route.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const write = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const manifest = (store: string) => JSON.parse(readFileSync(join(store, "store.json"), "utf8"));

// HelloBench's shape: checklist ids repeat across categories, and the weights are per (category, checklist_id).
// Two tasks of category "qa" and one of "chat"; item c1 weighs 3 in qa and 1 in chat, c2 weighs 1 in qa, 5 in chat.
const HELLO = `task,category,model,checklist_id,verdict
t1,qa,m,c1,yes
t1,qa,m,c2,no
t2,qa,m,c1,no
t2,qa,m,c2,no
t3,chat,m,c1,yes
t3,chat,m,c2,no
`;
const HELLO_WEIGHTS = `category,checklist_id,weight
qa,c1,3
qa,c2,1
chat,c1,1
chat,c2,5
`;

/** The HelloBench-shaped tables' columns as import table reads them. */
const HELLO_COLUMNS = ["--task", "task", "--model", "model", "--item", "checklist_id", "--label", "verdict"];

test("a weights file keyed by (category, item) is joined on both: each item its own category's weight, items counted", async () => {
  const dir = tempDir("gcpc-weights-join-");
  const table = write(dir, "hello.csv", HELLO);
  const weights = write(dir, "weights.csv", HELLO_WEIGHTS);
  const store = join(dir, "store");
  const r = await cli(["import", "table", table, "--out", store, ...HELLO_COLUMNS, "--weights", weights]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /weights: 6 of 6 items weighted from .*weights\.csv, joined on checklist_id, category/);
  const items = (await readStore(store)).store.items;
  const w = Object.fromEntries(items.map((it) => [`${it.task_id}/${it.item_id}`, it.weight]));
  assert.deepEqual(w, { "t1/c1": 3, "t1/c2": 1, "t2/c1": 3, "t2/c2": 1, "t3/c1": 1, "t3/c2": 5 });
  // Weighted GCPC by hand: t1 (3·1 + 1·0)/4 = 0.75, t2 0, t3 (1·1 + 5·0)/6 = 1/6; mean 0.305556. Joined on the item
  // alone (the last row per item won: c1 → 1, c2 → 5) it was t1 1/6, t2 0, t3 1/6: 0.111111.
  const board = await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--format", "json"]);
  assert.equal(board.code, 0, board.stderr);
  const value = JSON.parse(board.stdout).rows[0].value;
  assert.ok(Math.abs(value - (0.75 + 0 + 1 / 6) / 3) < 1e-12, `mean weighted GCPC ${value}`);
});

test("an item the weights would give two values is refused, naming both weights rows and both table rows", async () => {
  const dir = tempDir("gcpc-weights-clash-");
  // Task t1's item c1 is labelled in a row of category qa and one of chat: two weights for one item.
  const table = write(dir, "t.csv", "task,category,model,checklist_id,verdict\nt1,qa,a,c1,yes\nt1,chat,b,c1,no\n");
  const weights = write(dir, "w.csv", "category,checklist_id,weight\nqa,c1,3\nchat,c1,1\n");
  const store = join(dir, "store");
  const r = await cli(["import", "table", table, "--out", store, ...HELLO_COLUMNS, "--weights", weights]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /item "c1" of task "t1" would get two values: \{"weight":3\} \(.*w\.csv row 1, joined on the import's row 1\) and \{"weight":1\} \(row 2, joined on the import's row 2\)/,
  );
});

test("with --judge-column and --reference-judge, the reference never scores; the summary says which judge does", async () => {
  const dir = tempDir("gcpc-ref-judge-");
  // IFEval's checkers: loose sorts before strict, and was taken as the primary judge.
  const table = write(
    dir,
    "ifeval.csv",
    "task,model,judge,item,label\np1,m,strict,i1,yes\np1,m,loose,i1,yes\np1,m,strict,i2,no\np1,m,loose,i2,yes\n",
  );
  const store = join(dir, "store");
  const args = ["--task", "task", "--model", "model", "--judge-column", "judge", "--item", "item", "--label", "label"];
  const r = await cli(["import", "table", table, "--out", store, ...args, "--reference-judge", "loose"]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([manifest(store).primary_judge, manifest(store).reference_judge], ["strict", "loose"]);
  assert.match(r.stdout, /judges: loose, strict; strict scores; reference judge loose/);
  // GCPC is the strict checker's: 1 of 2 items.
  const board = await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--format", "json"]);
  assert.equal(JSON.parse(board.stdout).rows[0].value, 0.5);
  const same = await cli([
    "import",
    "table",
    table,
    "--out",
    join(dir, "x"),
    ...args,
    "--reference-judge",
    "loose",
    "--primary-judge",
    "loose",
  ]);
  assert.equal(same.code, 2);
  assert.match(same.stderr, /--primary-judge loose is also --reference-judge/);
});

test("a table whose only judge is the reference is refused under --out, and --into keeps its reference judge", async () => {
  const dir = tempDir("gcpc-ref-into-");
  const base = write(dir, "llm.csv", "task,model,item,label\nt1,m,q1,yes\nt1,m,q2,no\nt2,m,q1,no\nt2,m,q2,no\n");
  const human = write(dir, "human.csv", "task,model,item,label\nt1,m,q1,yes\nt1,m,q2,yes\nt2,m,q1,no\nt2,m,q2,no\n");
  const store = join(dir, "store");
  const cols = ["--task", "task", "--model", "model", "--item", "item", "--label", "label"];
  assert.equal((await cli(["import", "table", base, "--out", store, ...cols, "--judge", "llm"])).code, 0);
  const alone = await cli([
    "import",
    "table",
    human,
    "--out",
    join(dir, "x"),
    ...cols,
    "--judge",
    "human",
    "--reference-judge",
    "human",
  ]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /the reference judge "human" is the only judge of the input/);
  const r = await cli([
    "import",
    "table",
    human,
    "--into",
    store,
    ...cols,
    "--judge",
    "human",
    "--reference-judge",
    "human",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([manifest(store).primary_judge, manifest(store).reference_judge], ["llm", "human"]);
  const corrected = await cli([
    "leaderboard",
    store,
    "--by",
    "model",
    "--metric",
    "gcpc",
    "--judge-corrected",
    "--format",
    "json",
  ]);
  assert.equal(corrected.code, 0, corrected.stderr);
  assert.doesNotMatch(corrected.stdout + corrected.stderr, /names no reference judge/);
});

test("--into of an outcome-free table: the same rows again are identical (kept once), not a conflict", async () => {
  const dir = tempDir("gcpc-into-no-outcome-");
  const table = write(dir, "t.csv", "task,model,item,label\nt1,m,q1,yes\nt2,m,q1,no\n");
  const store = join(dir, "store");
  const cols = ["--task", "task", "--model", "model", "--item", "item", "--label", "label"];
  assert.equal((await cli(["import", "table", table, "--out", store, ...cols])).code, 0);
  const again = await cli(["import", "table", table, "--into", store, ...cols]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(
    again.stdout,
    /nothing new; already there \(identical, kept once\): 2 tasks, 2 items, 2 trajectories, 2 judgments/,
  );
});

test("--outcomes rows that match no trajectory are listed by row, and refused under --strict", async () => {
  const dir = tempDir("gcpc-outcomes-unmatched-");
  const table = write(dir, "q.csv", "task,item,label\np1,q1,yes\np2,q1,no\n");
  // TIFA160's shape: prompt p3 has ratings but no questions.
  const outcomes = write(dir, "o.csv", "task,rating\np1,5\np2,2\np3,4\np3,4\n");
  const cols = ["--task", "task", "--item", "item", "--label", "label", "--outcome", "rating", "--threshold", "3"];
  const r = await cli(["import", "table", table, "--out", join(dir, "a"), ...cols, "--outcomes", outcomes]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /--outcomes: 1 row\(s\) of .*o\.csv match no trajectory and were not imported: p3 \(row 3\)/);
  const strict = await cli([
    "import",
    "table",
    table,
    "--out",
    join(dir, "b"),
    ...cols,
    "--outcomes",
    outcomes,
    "--strict",
  ]);
  assert.equal(strict.code, 2);
  assert.match(strict.stderr, /row 3.*"p3" matches no trajectory of the table \(--strict\)/);
  const clash = write(dir, "o2.csv", "task,rating\np1,5\np2,2\np1,1\n");
  const twice = await cli(["import", "table", table, "--out", join(dir, "c"), ...cols, "--outcomes", clash]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /row 3.*a second row for task "p1" with other values \(first at row 1\)/);
});

test("--evidence, --item-text and --prerequisites fill the judgment's evidence and the item's text and gates", async () => {
  const dir = tempDir("gcpc-table-text-");
  // DSG's shape: "is the light on" (q2) needs "is there a tree" (q1).
  const table = write(
    dir,
    "dsg.csv",
    "task,item,question,needs,label,why\n" +
      'p1,q1,is there a tree,,no,"no tree, <b>bare</b>"\n' +
      "p1,q2,is the light on,q1,yes,a lamp\n",
  );
  const store = join(dir, "store");
  const r = await cli([
    "import",
    "table",
    table,
    "--out",
    store,
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "label",
    "--evidence",
    "why",
    "--item-text",
    "question",
    "--prerequisites",
    "needs",
    "--format",
    "jsonl",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const evidence = readFileSync(join(store, "judgments.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).evidence);
  assert.deepEqual(evidence, ["no tree, <b>bare</b>", "a lamp"]);
  const s = (await readStore(store)).store;
  assert.deepEqual(
    s.items.map((it) => [it.item_id, it.text, it.prerequisites ?? null]),
    [
      ["q1", "is there a tree", null],
      ["q2", "is the light on", ["q1"]],
    ],
  );
  // Gated credit: q2 is Yes but its prerequisite q1 is No, so it counts 0: the gated mean is 0, the plain 1/2.
  const gated = await cli(["report", store, "--format", "json"]);
  assert.equal(gated.code, 0, gated.stderr);
  const credits = JSON.parse(gated.stdout).rubric.credit.credits.map((c: { credit: string }) => c.credit);
  assert.deepEqual(credits, ["plain", "gated"]);
  const bad = write(dir, "bad.csv", "task,item,needs,label\np1,q1,q9,yes\n");
  const refused = await cli([
    "import",
    "table",
    bad,
    "--out",
    join(dir, "x"),
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "label",
    "--prerequisites",
    "needs",
  ]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /item "q1" of task "p1": prerequisite "q9" is not an item of the same task/);
});

test("an empty outcome cell is no outcome, not a FAIL (issue 55.5)", async () => {
  const dir = tempDir("gcpc-empty-outcome-");
  const table = write(dir, "t.csv", "task,item,label,ok\nt1,q,yes,y\nt2,q,no,\nt3,q,no,n\n");
  const store = join(dir, "store");
  const cols = ["--task", "task", "--item", "item", "--label", "label", "--outcome", "ok", "--pass", "y"];
  assert.equal((await cli(["import", "table", table, "--out", store, ...cols])).code, 0);
  const outcomes = Object.fromEntries(
    (await readStore(store)).store.trajectories.map((t) => [t.task_id, t.outcome ?? null]),
  );
  assert.deepEqual(outcomes, { t1: "PASS", t2: null, t3: "FAIL" });
});
