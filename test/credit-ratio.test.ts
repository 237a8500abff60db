// Equal credits are equal numbers (analysis/scoring/credit-ratio.ts), checked by hand and against exact fractions.
import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { creditRatio, nearFraction } from "../analysis/scoring/credit-ratio.js";

test("LLM-Rubric's tie by hand: grades (v − 1)/3 averaging 1/2 give 0.5 exactly, in any order", () => {
  // Grades 4, 4, 3, 3, 3, 1, 1, 1 (as thirds 1, 1, 2/3, 2/3, 2/3, 0, 0, 0): 4 exactly, 3.9999999999999996 when
  // summed in this order, 4 in the reverse one.
  const grades = [1, 1, 2 / 3, 2 / 3, 2 / 3, 0, 0, 0];
  const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  assert.notEqual(sumOf(grades) / 8, 0.5, "the floating sum alone misses the tie (the defect)");
  assert.equal(creditRatio(sumOf(grades), 8), 0.5);
  assert.equal(creditRatio(sumOf([...grades].reverse()), 8), 0.5);
  assert.equal(creditRatio(0.49999999999999994, 1), 0.5);
});

test("integer counts are divided as before, bit for bit; a credit near no small fraction is left as computed", () => {
  for (const [y, d] of [
    [1, 3],
    [2, 7],
    [0, 5],
    [5, 5],
    [123, 4567],
  ])
    assert.ok(Object.is(creditRatio(y, d), y / d), `${y}/${d}`);
  assert.equal(creditRatio(Math.PI / 4, 1), Math.PI / 4, "π/4 is no fraction with a denominator ≤ 100,000");
  assert.deepEqual(nearFraction(2 / 3 + 1e-15), [2, 3]);
  assert.equal(nearFraction(2 / 3 + 1e-9), undefined, "1e-9 away is another number");
});

test("on 2,000 random graded checklists, credits equal as fractions are equal numbers whatever the order", () => {
  // Grades in quarters and thirds with integer weights: the exact credit is the fraction Σ w·g / Σ w, known
  // here by integer arithmetic over the common denominator 12.
  const rng = seedrandom("credit-ratio");
  const byExact = new Map<string, number>();
  for (let n = 0; n < 2000; n++) {
    const k = 1 + Math.floor(rng() * 8);
    const items = Array.from({ length: k }, () => ({
      twelfths: [0, 3, 4, 6, 8, 9, 12][Math.floor(rng() * 7)],
      w: 1 + Math.floor(rng() * 3),
    }));
    const num = items.reduce((a, it) => a + it.w * it.twelfths, 0);
    const den = 12 * items.reduce((a, it) => a + it.w, 0);
    const g = (a: number, b: number): number => (b === 0 ? a : g(b, a % b));
    const exact = `${num / g(num, den)}/${den / g(num, den)}`;
    for (const order of [items, [...items].reverse()]) {
      const credit = creditRatio(
        order.reduce((a, it) => a + it.w * (it.twelfths / 12), 0),
        order.reduce((a, it) => a + it.w, 0),
      );
      const seen = byExact.get(exact);
      if (seen === undefined) byExact.set(exact, credit);
      else assert.ok(Object.is(seen, credit), `${exact}: ${seen} vs ${credit}`);
      assert.ok(Math.abs(credit - num / den) < 1e-15);
    }
  }
  assert.ok(byExact.size > 50, `${byExact.size} distinct credits`);
});
