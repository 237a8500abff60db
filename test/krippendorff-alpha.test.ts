import { test } from "node:test";
import assert from "node:assert/strict";
import { krippendorffAlpha, UnitWeightedIntervalAlpha, alphaFromUnits } from "../analysis/stats/krippendorff-alpha.js";

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C:
// 4 observers × 12 units with missing values. Reported α: nominal 0.743,
// ordinal 0.815, interval 0.849 (three decimals in the source).
const _ = null;
const example = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

test("Krippendorff 2011 worked example: nominal 0.743, ordinal 0.815, interval 0.849", () => {
  assert.equal(krippendorffAlpha(example, "nominal").toFixed(3), "0.743");
  assert.equal(krippendorffAlpha(example, "ordinal").toFixed(3), "0.815");
  assert.equal(krippendorffAlpha(example, "interval").toFixed(3), "0.849");
});

test("perfect agreement gives 1; constant data is undefined (NaN)", () => {
  assert.equal(
    krippendorffAlpha(
      [
        [1, 2, 3],
        [1, 2, 3],
      ],
      "interval",
    ),
    1,
  );
  assert.ok(
    Number.isNaN(
      krippendorffAlpha(
        [
          [2, 2],
          [2, 2],
        ],
        "nominal",
      ),
    ),
  );
  assert.ok(Number.isNaN(krippendorffAlpha([], "nominal")));
});

test("units with a single value are not pairable and do not count", () => {
  const withLonely = krippendorffAlpha(
    [
      [1, 2, 3, 4],
      [1, 3, 3, null],
    ],
    "interval",
  );
  const without = krippendorffAlpha(
    [
      [1, 2, 3],
      [1, 3, 3],
    ],
    "interval",
  );
  assert.ok(Math.abs(withLonely - without) < 1e-12);
});

test("nominal α treats strings as categories (Abstain is a category, rule 11)", () => {
  const a = alphaFromUnits(
    [
      ["Yes", "Yes"],
      ["No", "No"],
      ["Abstain", "Abstain"],
      ["Yes", "No"],
    ],
    "nominal",
  );
  // o: Yes-Yes 2, No-No 2, Ab-Ab 2, Yes-No 1, No-Yes 1; n = 8; n_Yes = 3, n_No = 3, n_Ab = 2
  // Do·(n−1) = 7·2 = 14; De = Σ_{c≠k} n_c n_k = 2(9 + 6 + 6) = 42 → α = 1 − 14/42 = 2/3
  assert.ok(Math.abs(a - 2 / 3) < 1e-12);
});

test("the unit-weighted interval α equals the coincidence-matrix α, also on a resample", () => {
  const units: number[][] = [];
  for (let u = 0; u < 12; u++) units.push(example.map((row) => row[u]).filter((v): v is number => v !== null));
  const fast = new UnitWeightedIntervalAlpha(units);
  assert.ok(Math.abs(fast.estimate() - krippendorffAlpha(example, "interval")) < 1e-12);
  const pairable = units.filter((u) => u.length >= 2);
  const w = Float64Array.from(pairable.map((_, i) => (i * 7) % 3));
  const replicated = pairable.flatMap((u, i) => Array.from({ length: w[i] }, () => u));
  assert.ok(Math.abs(fast.evaluate(w) - alphaFromUnits(replicated, "interval")) < 1e-12);
});

test("ratings must be numbers for interval and ordinal α", () => {
  assert.throws(
    () =>
      krippendorffAlpha(
        [
          ["a", "b"],
          ["a", "b"],
        ],
        "interval",
      ),
    /krippendorffAlpha\(\): invalid data/,
  );
});

test("weighted nominal α from category counts: every weight 1 is krippendorffAlpha, weight k is k copies of the unit", async () => {
  const { WeightedNominalAlpha } = await import("../analysis/stats/nominal-alpha.js");
  const seedrandom = (await import("seedrandom")).default;
  const rng = seedrandom("nominal-alpha");
  // 4 coders × 40 units of PASS/FAIL with missing values (a unit may end up with fewer than 2 values).
  const data = Array.from({ length: 4 }, () =>
    Array.from({ length: 40 }, (_, u) => (rng() < 0.15 ? null : rng() < 0.3 + 0.015 * u ? "PASS" : "FAIL")),
  );
  const counts = Array.from({ length: 40 }, (_, u) => [
    data.filter((row) => row[u] === "FAIL").length,
    data.filter((row) => row[u] === "PASS").length,
  ]);
  const weighted = new WeightedNominalAlpha(counts, 2);
  const plain = krippendorffAlpha(data, "nominal");
  assert.ok(Math.abs(weighted.evaluate(new Float64Array(40).fill(1)) - plain) < 1e-12);
  // Weights 0..2 against the matrix with each unit's column repeated that many times.
  const w = Float64Array.from({ length: 40 }, (_, u) => u % 3);
  const copies = data.map((row) => row.flatMap((v, u) => Array(w[u]).fill(v)));
  assert.ok(Math.abs(weighted.evaluate(w) - krippendorffAlpha(copies, "nominal")) < 1e-12);
});
