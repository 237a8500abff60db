import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { levelCodes } from "../analysis/stats/level-codes.js";

// The hash table's levels against the plain definition: the rank of each value among the sorted distinct
// values (a Set for distinctness, Array.prototype.sort for order), which shares no code with it.
function reference(scores: number[]): { level: number[]; values: number[] } {
  // A Set keeps whichever zero it saw first; a level's value is +0.
  const values = [...new Set(scores.map((s) => (s === 0 ? 0 : s)))].sort((a, b) => a - b);
  return { level: scores.map((s) => values.indexOf(s === 0 ? 0 : s)), values };
}

test("hand example: ranks of the distinct values, first-seen order irrelevant, −0 the level of +0", () => {
  const { level, values } = levelCodes([0.5, 0, 1, 0.5, -0, 0.25]);
  assert.deepEqual([...level], [2, 0, 3, 2, 0, 1]);
  assert.deepEqual([...values], [0, 0.25, 0.5, 1]);
  assert.ok(Object.is(values[0], 0), "the level's value is +0");
});

test("levels equal the sorted-distinct-values rank on k/n grids and continuous scores (fast-check)", () => {
  const grid = fc.integer({ min: 1, max: 30 }).chain((n) =>
    fc.array(
      fc.integer({ min: 0, max: n }).map((k) => k / n),
      { maxLength: 300 },
    ),
  );
  const continuous = fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), {
    maxLength: 300,
  });
  fc.assert(
    fc.property(fc.oneof(grid, continuous), (scores) => {
      const got = levelCodes(scores);
      const want = reference(scores);
      assert.deepEqual([...got.level], want.level);
      assert.deepEqual([...got.values], want.values);
    }),
    { numRuns: 1000, seed: 20261202 },
  );
});

test("a Float64Array is read in place and many distinct values grow the table (20,000 scores)", () => {
  let x = 7;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const scores = Float64Array.from({ length: 20_000 }, () => Math.round(next() * 5000) / 5000);
  const copy = scores.slice();
  const got = levelCodes(scores);
  const want = reference([...scores]);
  assert.deepEqual([...got.values], want.values);
  assert.deepEqual([...got.level], want.level);
  assert.deepEqual(scores, copy, "the input is not modified");
});
