import { test } from "node:test";
import assert from "node:assert/strict";
import { duplicateRows } from "../store/duplicate-rows.js";
import { Xor4096 } from "../analysis/stats/xor4096.js";

/** The definition: a Map from the joined key text to the first row that had it. */
function reference<R>(rows: R[], parts: ((r: R) => unknown)[]) {
  const seen = new Map<string, number>();
  const out: { row: number; first: number }[] = [];
  for (const [i, r] of rows.entries()) {
    const key = parts.map((p) => p(r)).join("\u0000");
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else out.push({ row: i, first });
  }
  return out;
}

type R = { a: string; b?: number | string; c: string | null };
const parts = [(r: R) => r.a, (r: R) => r.b, (r: R) => r.c];

test("duplicate rows: a worked example (the second and third repeat the first; 1 and '1' are the same text)", () => {
  const rows: R[] = [
    { a: "t1", b: 1, c: null },
    { a: "t1", b: "1", c: "" },
    { a: "t1", b: 1, c: null },
    { a: "t2", b: 1, c: null },
    { a: "t1", c: null },
    { a: "t1", b: undefined, c: "" },
  ];
  assert.deepEqual(duplicateRows(rows, parts), [
    { row: 1, first: 0 },
    { row: 2, first: 0 },
    { row: 5, first: 4 },
  ]);
});

test("duplicate rows agree with a Map of joined keys on 3,000 random tables", () => {
  const rng = new Xor4096("duplicates");
  const pick = (k: number) => Math.floor(rng.uniform() * k);
  for (let rep = 0; rep < 3000; rep++) {
    const card = 1 + pick(8);
    const rows: R[] = Array.from({ length: pick(80) }, () => ({
      a: `x${pick(card)}`,
      b: [undefined, 1, "1", 2][pick(4)],
      c: [null, "", "c"][pick(3)],
    }));
    assert.deepEqual(duplicateRows(rows, parts), reference(rows, parts), JSON.stringify(rows));
  }
});
