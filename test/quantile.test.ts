import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { percentileInterval, percentileIntervalInPlace, quantileSorted } from "../analysis/stats/quantile.js";
import { endpointMcSe, quantileMcSe } from "../analysis/stats/monte-carlo-error.js";

// The reference is the definition: sort, then read the type-7 quantiles (quantileSorted, checked against
// numpy's values in bootstrap.test.ts). The interval under test finds the same order statistics by selection.
const bySorting = (values: Float64Array, level: number): [number, number] => {
  const sorted = Array.from(values).sort((a, b) => a - b);
  return [quantileSorted(sorted, (1 - level) / 2), quantileSorted(sorted, 1 - (1 - level) / 2)];
};

test("the selection-based percentile interval equals sort-then-interpolate on 3,000 random samples", () => {
  const rng = seedrandom("select");
  for (let trial = 0; trial < 3000; trial++) {
    const n = 1 + Math.floor(rng() * (trial % 10 === 0 ? 5000 : 60));
    // Few distinct values in a third of the trials: the ties a bootstrap of a k/n score produces.
    const levels = trial % 3 === 0 ? 1 + Math.floor(rng() * 6) : 0;
    const values = Float64Array.from({ length: n }, () => (levels ? Math.floor(rng() * levels) / levels : rng() - 0.5));
    const level = [0.95, 0.9, 0.5, 0.99, 0.999][trial % 5];
    const before = values.slice();
    assert.deepEqual(percentileInterval(values, level), bySorting(values, level), `trial ${trial}, n ${n}`);
    assert.deepEqual(values, before, "the caller's values are not reordered");
  }
});

test("both ways of finding the order statistics (short-tail heaps, selection) match sorting at bootstrap sizes", () => {
  const rng = seedrandom("tails");
  // 0.95 and 0.99 take the heaps from n = 16 or more; 0.8 and 0.5 take selection; 1 − 1e-17 rounds the
  // upper position to n − 1 (one value beyond it), which the heaps must leave to selection. At n = 41, 401 and
  // 2,001 the 95% tails' positions are whole numbers, so the lower tail keeps one value more than the upper.
  for (const n of [16, 17, 41, 100, 101, 401, 2000, 2001, 10_000])
    for (const level of [0.95, 0.99, 0.8, 0.5, 1 - 1e-17])
      for (const levels of [0, 3, 41]) {
        const values = Float64Array.from({ length: n }, () => (levels ? Math.floor(rng() * levels) / levels : rng()));
        assert.deepEqual(percentileInterval(values, level), bySorting(values, level), `n ${n}, level ${level}`);
        const buffer = Float64Array.from({ length: n + 20 }, () => rng());
        buffer.set(values, 10);
        const want = bySorting(buffer.subarray(10, 10 + n), level);
        assert.deepEqual(percentileIntervalInPlace(buffer, 10, 10 + n, level), want, `range, n ${n}, level ${level}`);
      }
});

test("on a range, the interval reads only that range and leaves the rest of the buffer alone", () => {
  const rng = seedrandom("range");
  const buffer = Float64Array.from({ length: 1000 }, () => rng());
  const copy = buffer.slice();
  const got = percentileIntervalInPlace(buffer, 200, 300, 0.95);
  assert.deepEqual(got, bySorting(copy.subarray(200, 300), 0.95));
  assert.deepEqual(buffer.subarray(0, 200), copy.subarray(0, 200));
  assert.deepEqual(buffer.subarray(300), copy.subarray(300));
  assert.deepEqual(percentileIntervalInPlace(buffer, 5, 5, 0.95), [NaN, NaN]);
});

test("the Monte Carlo error reads the draws in place: its endpoints are quantileMcSe of the sorted draws", () => {
  const rng = seedrandom("batches");
  const draws = Float64Array.from({ length: 2000 }, () => Math.round(rng() * 40) / 40);
  const sorted = draws.slice().sort();
  const before = draws.slice();
  assert.deepEqual(endpointMcSe(draws, 0.95), [quantileMcSe(sorted, 0.025), quantileMcSe(sorted, 0.975)]);
  assert.deepEqual(draws, before);
  assert.deepEqual(endpointMcSe(draws, 0.5), [quantileMcSe(sorted, 0.25), quantileMcSe(sorted, 0.75)]);
  assert.deepEqual(draws, before);
  assert.throws(() => percentileInterval([1, NaN, 2]), /NaN/);
});
