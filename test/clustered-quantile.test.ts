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

test("evaluateDraw (the walk from the anchor) equals evaluate and the expanded multiset's quantile, bit for bit", () => {
  // Many groups per cluster (so the anchor is used), values on a k/n grid with −0 among them, integer weights
  // from draws and jackknife-like zeros; the reference is the type-7 quantile of the expanded multiset.
  const rng = seedrandom("cq-anchor");
  let anchored = 0;
  for (let rep = 0; rep < 400; rep++) {
    const clusters = 1 + Math.floor(rng() * 6);
    const n = 20 + Math.floor(rng() * 200);
    const grid = 2 + Math.floor(rng() * 12);
    const values = Array.from({ length: n }, () => {
      const v = Math.round((rng() - 0.5) * grid) / grid;
      return v === 0 && rng() < 0.5 ? -0 : v;
    });
    const cluster = Array.from({ length: n }, () => Math.floor(rng() * clusters));
    const p = [0.5, 0.025, 0.975, 0.3][rep % 4];
    const q = new ClusteredQuantile(values, cluster, p);
    if ((q as unknown as { anchor: number }).anchor > 0) anchored++;
    const w = new Float64Array(clusters);
    if (rep % 3 === 0) w.fill(1).set([0], Math.floor(rng() * clusters));
    else for (let k = 0; k < clusters; k++) w[Math.floor(rng() * clusters)]++;
    const expanded = values.flatMap((v, i) => Array(w[cluster[i]]).fill(v)).sort((a, b) => a - b);
    const expected = expanded.length ? quantileSorted(expanded, p) : NaN;
    const got = q.evaluateDraw(w);
    assert.ok(Object.is(got, q.evaluate(w)), `evaluateDraw ${got} vs evaluate ${q.evaluate(w)} (rep ${rep})`);
    assert.ok(Object.is(got, expected) || (got === 0 && expected === 0), `${got} vs ${expected} (rep ${rep})`);
  }
  assert.ok(anchored > 300, `the anchor served ${anchored} of 400 cases`);
});

test("the counting sort's order: NaN-free values group as the comparator sorted them, −0 beside +0", () => {
  // Groups are (value, cluster) runs in (value, cluster, index) order: the first value of a run is kept.
  const q = new ClusteredQuantile([0, -0, 0.5, -0.5, -0, 0.5], [1, 0, 0, 1, 0, 0], 0.5) as unknown as {
    groupValue: Float64Array;
    groupCluster: Int32Array;
    groupCount: Float64Array;
  };
  assert.deepEqual(
    [...q.groupValue].map((v) => (Object.is(v, -0) ? "-0" : String(v))),
    ["-0.5", "-0", "0", "0.5"],
  );
  assert.deepEqual([...q.groupCluster], [1, 0, 1, 0]);
  assert.deepEqual([...q.groupCount], [1, 2, 1, 2]);
});
