import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { auc } from "../analysis/stats/auc.js";

const ref = JSON.parse(readFileSync(new URL("./fixtures/reference-scipy.json", import.meta.url), "utf8"));

test("auc of a perfectly separating score is 1 and of a reversed one is 0", () => {
  assert.equal(auc([0.1, 0.2, 0.8, 0.9], [false, false, true, true]), 1);
  assert.equal(auc([0.9, 0.8, 0.2, 0.1], [false, false, true, true]), 0);
});

test("auc counts a tie between a positive and a negative as one half (hand computed)", () => {
  // pos {0.4, 0.8}, neg {0.1, 0.4}: pairs (0.4,0.1)=1 (0.4,0.4)=½ (0.8,0.1)=1 (0.8,0.4)=1 → 3.5/4
  assert.equal(auc([0.1, 0.4, 0.4, 0.8], [false, false, true, true]), 0.875);
  // all tied → every pair ½ → 0.5
  assert.equal(auc([0.5, 0.5, 0.5], [true, false, false]), 0.5);
  // pos {1, 0.5, 0.5}, neg {0.5, 0}: (1,.5)=1 (1,0)=1 (.5,.5)=½ (.5,0)=1 twice → 5/6
  assert.equal(auc([1, 0.5, 0.5, 0.5, 0], [true, true, true, false, false]), 5 / 6);
});

test("auc is NaN, not 0.5, when a class is missing", () => {
  assert.ok(Number.isNaN(auc([0.1, 0.2], [true, true])));
  assert.ok(Number.isNaN(auc([0.1, 0.2], [false, false])));
  assert.ok(Number.isNaN(auc([], [])));
});

test("auc rejects non-finite scores and length mismatches with a named error", () => {
  assert.throws(() => auc([0.1, NaN], [true, false]), /auc\(\): invalid scores\[1\] NaN/);
  assert.throws(() => auc([0.1], [true, false]), /auc\(\): invalid outcomes.length/);
});

test("auc equals scipy's Mann–Whitney U / (n1 n0) on tied and untied data", () => {
  for (const c of ref.auc) {
    const got = auc(c.scores, c.outcomes);
    assert.ok(Math.abs(got - c.auc) < 1e-12, `${got} vs ${c.auc}`);
  }
});

test("auc does not depend on the order of the observations", () => {
  const s = [0.3, 0.1, 0.3, 0.9, 0.5, 0.5],
    y = [true, false, false, true, true, false];
  const perm = [5, 3, 0, 4, 1, 2];
  assert.equal(
    auc(s, y),
    auc(
      perm.map((i) => s[i]),
      perm.map((i) => y[i]),
    ),
  );
});
