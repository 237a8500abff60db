// Item weights whose sum overflows a double (issue 57.2): `report` on a valid store with weights near the largest
// double stopped with a stack trace (the sums were Infinity, the credits NaN). A task's weights are now divided by
// a power of two when they could overflow (analysis/rq/prepared.ts weightsThatSum), which is exact, so the report
// is the one of the same weights at an ordinary scale.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { storeRows } from "../store/import/merge-store.js";
import { writeStore } from "../store/write-store.js";
import { weightsThatSum } from "../analysis/rq/prepared.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

test("DevAI's weights times 2^1020 (sums past the largest double): the report is the one of the weights as shipped", async () => {
  const dir = tempDir("gcpc-weights-overflow-");
  const { store } = await storeRows(join(repo, "data/real/devai"));
  assert.ok(store.items.every((it) => it.weight != null));
  // Times a power of two: the same weights, exactly, at another scale; a task of seven items of weight ≥ 5 then
  // sums past 1.8e308.
  for (const it of store.items) it.weight = it.weight! * 2 ** 1020;
  assert.ok(!Number.isFinite(store.items.reduce((s, it) => s + it.weight!, 0)), "the plain sum overflows");
  await writeStore(join(dir, "big"), store);
  const args = ["--format", "json", "--resamples", "50"];
  const big = await cli(["report", join(dir, "big"), ...args]);
  assert.equal(big.code, 0, big.stderr);
  const shipped = await cli(["report", join(repo, "data/real/devai"), ...args]);
  assert.equal(shipped.code, 0, shipped.stderr);
  const analyses = (out: string) => {
    const { store: _where, ...rest } = JSON.parse(out);
    return rest;
  };
  assert.deepEqual(analyses(big.stdout), analyses(shipped.stdout));
});

test("weightsThatSum: a power of two, only when the sum could overflow; an item without a weight counts as 1", () => {
  const item = (weight: number | null) => ({ task_id: "t", item_id: "i", text: "", route: "judge", weight }) as never;
  const small = [item(3), item(null)];
  assert.equal(weightsThatSum(small), small, "ordinary weights are left as they are");
  const scaled = weightsThatSum([item(1e307), item(3e307), item(null)]).map((it) => it.weight as number);
  // The largest (2^1021 < 3e307 ≤ 2^1022) becomes 3e307 / 2^1022, the others alike: ratios unchanged, bit for bit.
  assert.deepEqual(scaled, [1e307 / 2 ** 1022, 3e307 / 2 ** 1022, 1 / 2 ** 1022]);
  assert.equal(scaled[1] / scaled[0], 3e307 / 1e307);
});

test("one task's weights more than 2^960 apart are refused by validate, naming the row, the field and both weights", async () => {
  const dir = tempDir("gcpc-weights-spread-");
  const { store } = await storeRows(join(repo, "data/real/devai"));
  const task = store.items[0].task_id;
  const ofTask = store.items.filter((it) => it.task_id === task);
  ofTask[0].weight = 1e300;
  ofTask[1].weight = 1e-10;
  await writeStore(join(dir, "spread"), store, "jsonl");
  const r = await cli(["validate", join(dir, "spread")]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `items\\.jsonl, line 2, field "weight": weight 1e-10 is more than 2\\^960 below weight 1e\\+300 of item "${ofTask[0].item_id}"`,
    ),
  );
  assert.equal(r.stderr.match(/more than 2\^960/g)?.length, 1, "one problem, for the one task");
});
