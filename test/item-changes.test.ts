// compare's per-item changes across tasks (issue 55.3: on a store with no outcome the FAIL→FAIL table was empty).
// Figures by hand: exact McNemar on one pair per task, the task-level sign-flip test on several.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { itemChanges } from "../analysis/rq/arms/item-changes.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const pairOf = (task: string, a: boolean[], b: boolean[]) => ({ task, a: (k: number) => a[k], b: (k: number) => b[k] });

test("one pair per task: exact McNemar; 7 improved, 0 regressed gives p = 2 · 0.5^7 = 0.015625", () => {
  const tasks = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"];
  const checklist = new Map(tasks.map((t) => [t, ["q", "r"]]));
  // q: not → yes on t1..t7, yes → yes on t8. r: never changes.
  const pairs = tasks.map((t, i) => pairOf(t, [i === 7, true], [true, true]));
  const rows = itemChanges({ checklist, pairs, seed: "s" });
  const q = rows.find((x) => x.item_id === "q")!;
  assert.deepEqual([q.tasks, q.pairs, q.improved, q.regressed], [8, 8, 7, 0]);
  assert.ok(Math.abs(q.p! - 0.015625) < 1e-15, `p ${q.p}`);
  assert.match(q.test, /exact McNemar \(7 discordant pairs, one per task\)/);
  const r = rows.find((x) => x.item_id === "r")!;
  assert.deepEqual([r.p, r.q], [null, null]);
  // BH over the one item with a p: q = p.
  assert.equal(q.q, q.p);
});

test("two pairs per task: the task-level sign-flip test; D_t = 2 on 4 tasks gives exact p = 2/16 = 0.125", () => {
  const tasks = ["t1", "t2", "t3", "t4"];
  const checklist = new Map(tasks.map((t) => [t, ["q"]]));
  const pairs = tasks.flatMap((t) => [pairOf(t, [false], [true]), pairOf(t, [false], [true])]);
  const [q] = itemChanges({ checklist, pairs, seed: "s" });
  assert.deepEqual([q.tasks, q.pairs, q.improved, q.regressed], [4, 8, 8, 0]);
  assert.equal(q.p, 0.125);
  assert.match(q.test, /task-clustered/);
  // A McNemar on the 8 pairs as if independent would say 2 · 0.5^8 = 0.0078125: not what is reported.
  assert.notEqual(q.p, 0.0078125);
});

test("compare on a store with no outcome lists the items whose verdicts moved, in Markdown and CSV", async () => {
  const dir = tempDir("gcpc-item-changes-");
  const rows = ["task,model,item,verdict"];
  for (let t = 1; t <= 8; t++)
    for (const [model, q] of [
      ["a", t === 8 ? "yes" : "no"],
      ["b", "yes"],
    ])
      rows.push(`t${t},${model},q,${q}`, `t${t},${model},r,yes`);
  writeFileSync(join(dir, "r.csv"), `${rows.join("\n")}\n`);
  const store = join(dir, "store");
  const cols = ["--task", "task", "--model", "model", "--item", "item", "--label", "verdict"];
  assert.equal((await cli(["import", "table", join(dir, "r.csv"), "--out", store, ...cols])).code, 0);
  const md = await cli(["compare", store, "--a", "model=a", "--b", "model=b", "--resamples", "100"]);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /Items whose verdicts differ between the arms \(1 of 2;/);
  assert.match(md.stdout, /\| q \| 8 \| 8 \| 7 \| 0 \| 0\.0156 \| 0\.0156 \|/);
  assert.doesNotMatch(md.stdout, /FAIL→FAIL pairs/);
  const csv = await cli([
    "compare",
    store,
    "--a",
    "model=a",
    "--b",
    "model=b",
    "--resamples",
    "100",
    "--format",
    "csv",
  ]);
  assert.match(csv.stdout, /^item_change,q,7,,,8,8,0\.0156250+\d?$/m);
});
