import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { ClusteredQuantile } from "../analysis/stats/clustered-quantile.js";
import { median, quantileSorted } from "../analysis/stats/quantile.js";

test("a weighted draw's quantile equals the type-7 quantile of the materialised multiset", () => {
  const rng = seedrandom("cq");
  for (let rep = 0; rep < 200; rep++) {
    const n = 1 + Math.floor(rng() * 40);
    const clusters = 1 + Math.floor(rng() * 8);
    const values = Array.from({ length: n }, () => Math.round((rng() - 0.5) * 8) / 8);
    const cluster = Array.from({ length: n }, () => Math.floor(rng() * clusters));
    const p = [0.5, 0.025, 0.975, 0.1][rep % 4];
    const q = new ClusteredQuantile(values, cluster, p);
    const w = new Float64Array(clusters);
    for (let k = 0; k < clusters; k++) w[Math.floor(rng() * clusters)]++;
    const expanded = values.flatMap((v, i) => Array(w[cluster[i]]).fill(v)).sort((a, b) => a - b);
    const expected = expanded.length ? quantileSorted(expanded, p) : NaN;
    const got = q.evaluate(w);
    assert.ok(Number.isNaN(expected) ? Number.isNaN(got) : Math.abs(got - expected) < 1e-12, `${got} vs ${expected}`);
  }
});

test("all weights 1: the plain median", () => {
  const v = [0.3, -0.1, 0.2, 0.2, 0.5];
  const q = new ClusteredQuantile(v, [0, 1, 1, 2, 2], 0.5);
  assert.equal(q.evaluate(new Float64Array(3).fill(1)), median(v));
  assert.equal(q.estimate(), 0.2);
});

test("estimate() is the type-7 quantile of the sample itself, empty and single-value samples included", () => {
  const rng = seedrandom("cq-estimate");
  for (let rep = 0; rep < 200; rep++) {
    const n = rep % 50;
    const values = Array.from({ length: n }, () => Math.round((rng() - 0.5) * 6) / 6);
    const cluster = Array.from({ length: n }, () => Math.floor(rng() * 5));
    const p = [0.5, 0.025, 0.975][rep % 3];
    const expected = quantileSorted(
      [...values].sort((a, b) => a - b),
      p,
    );
    const got = new ClusteredQuantile(values, cluster, p).estimate();
    assert.ok(Number.isNaN(expected) ? Number.isNaN(got) : got === expected, `${got} vs ${expected}`);
  }
});
