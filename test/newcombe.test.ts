// Newcombe's hybrid score interval (analysis/stats/newcombe.ts) against Newcombe (1998) Table II's method 10
// column and against intervals computed from scipy's Wilson intervals (test/fixtures/newcombe_reference.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { newcombeDifference } from "../analysis/stats/newcombe.js";

const reference = JSON.parse(readFileSync(new URL("./fixtures/newcombe-reference.json", import.meta.url), "utf8")) as {
  a: [number, number];
  b: [number, number];
  ci: [number, number];
}[];

test("Newcombe (1998) Table II, method 10 (four decimals; his difference is the first proportion minus the second)", () => {
  // [x1, n1, x2, n2, lower, upper] for p1 − p2, as printed; ours is p_b − p_a, so a = (x2, n2), b = (x1, n1).
  const table: [number, number, number, number, number, number][] = [
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
  ];
  for (const [x1, n1, x2, n2, lo, hi] of table) {
    const ci = newcombeDifference(x2, n2, x1, n1)!;
    assert.deepEqual(
      ci.map((v) => Number(v.toFixed(4))),
      [lo, hi],
      `${x1}/${n1} − ${x2}/${n2}`,
    );
  }
});

test("Newcombe's interval equals the one built from scipy's Wilson intervals, to 1e-12", () => {
  for (const r of reference) {
    const ci = newcombeDifference(r.a[0], r.a[1], r.b[0], r.b[1])!;
    for (const k of [0, 1])
      assert.ok(Math.abs(ci[k] - r.ci[k]) < 1e-12, `${JSON.stringify(r)}: ${ci[k]} against ${r.ci[k]}`);
  }
});

test("Newcombe's interval: null without trials on a side, inside [−1, 1], and antisymmetric in the sides", () => {
  assert.equal(newcombeDifference(0, 0, 3, 5), null);
  assert.equal(newcombeDifference(3, 5, 0, 0), null);
  for (const r of reference) {
    const ab = newcombeDifference(r.a[0], r.a[1], r.b[0], r.b[1])!;
    const ba = newcombeDifference(r.b[0], r.b[1], r.a[0], r.a[1])!;
    assert.ok(ab[0] >= -1 - 1e-12 && ab[1] <= 1 + 1e-12);
    assert.ok(Math.abs(ab[0] + ba[1]) < 1e-12 && Math.abs(ab[1] + ba[0]) < 1e-12);
  }
});
