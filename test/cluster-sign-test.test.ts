import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { clusterSignTest } from "../analysis/stats/cluster-sign-test.js";
import { signTest } from "../analysis/stats/sign-test.js";

test("hand enumeration: task sign sums (2, 1, −1) give S = 2 and p = 6/8", () => {
  // task 0: +, +; task 1: +, +, −; task 2: −, 0. The 8 flips give S* = 4, 2, 2, 0, 0, −2, −2, −4.
  const r = clusterSignTest([0.2, 0.1, 0.3, 0.5, -0.1, -0.2, 0], [0, 0, 1, 1, 1, 2, 2]);
  assert.equal(r.statistic, 2);
  assert.equal(r.informative_clusters, 3);
  assert.equal(r.pValue, 6 / 8);
});

test("every pair its own cluster: equals the exact binomial sign test (itself checked against scipy)", () => {
  const rng = seedrandom("cst");
  for (let rep = 0; rep < 20; rep++) {
    const d = Array.from({ length: 5 + Math.floor(rng() * 60) }, () => Math.round((rng() - 0.4) * 4) / 4);
    const own = clusterSignTest(
      d,
      d.map((_, i) => i),
    );
    const iid = signTest(d);
    if (Number.isNaN(iid.pValue)) assert.ok(Number.isNaN(own.pValue));
    else assert.ok(Math.abs(own.pValue - iid.pValue) < 1e-12, `${own.pValue} vs ${iid.pValue}`);
  }
});

test("strong within-task correlation: the clustered p is far larger than the iid p", () => {
  // 10 tasks × 20 pairs: in 7 tasks every Δ > 0, in 3 every Δ < 0. iid sees 140 vs 60 signs (p ≈ 2e-8);
  // by task it is 7 vs 3 blocks of 20: P(|S*| ≥ 80) = P(≥ 7 of 10 heads, either side) = 2·176/1024.
  const d: number[] = [];
  const c: number[] = [];
  for (let t = 0; t < 10; t++) {
    for (let k = 0; k < 20; k++) {
      d.push(t < 7 ? 0.2 : -0.2);
      c.push(t);
    }
  }
  assert.ok(signTest(d).pValue < 1e-6);
  assert.ok(Math.abs(clusterSignTest(d, c).pValue - (2 * 176) / 1024) < 1e-12);
});

test("thousands of clusters, where the far tails underflow to 0 and are skipped: still the exact binomial test", () => {
  // 4,000 singleton clusters: 2^−4000 is far below the smallest double, so most of the convolution's
  // reach is exact zeros, which the walk skips; the body must still give the binomial p.
  const rng = seedrandom("underflow");
  for (const shift of [0.02, 0.04, 0.0]) {
    const d = Array.from({ length: 4000 }, () => rng() - 0.5 + shift);
    const own = clusterSignTest(
      d,
      d.map((_, i) => i),
    );
    const iid = signTest(d);
    assert.ok(
      Math.abs(own.pValue - iid.pValue) <= 1e-9 * Math.max(iid.pValue, 1e-300),
      `${own.pValue} vs ${iid.pValue}`,
    );
  }
});

/** The walk as the method states it: the full two-sided distribution, every cluster's step over all of it. */
function fullWalkP(differences: number[], clusterOf: number[]): number {
  const sums = new Map<number, number>();
  for (let i = 0; i < differences.length; i++)
    sums.set(clusterOf[i], (sums.get(clusterOf[i]) ?? 0) + Math.sign(differences[i]));
  const blocks = [...sums.values()].filter((s) => s !== 0).map(Math.abs);
  const statistic = [...sums.values()].reduce((a, b) => a + b, 0);
  if (blocks.length === 0) return NaN;
  const total = blocks.reduce((a, b) => a + b, 0);
  let dist = new Float64Array(2 * total + 1);
  dist[total] = 1;
  for (const b of blocks) {
    const next = new Float64Array(2 * total + 1);
    for (let k = 0; k <= 2 * total; k++)
      next[k] = 0.5 * (k - b >= 0 ? dist[k - b] : 0) + 0.5 * (k + b <= 2 * total ? dist[k + b] : 0);
    dist = next;
  }
  let p = 0;
  for (let k = 0; k <= 2 * total; k++) if (Math.abs(k - total) >= Math.abs(statistic)) p += dist[k];
  return Math.min(1, p);
}

test("the skipping, half-kept, segmented walk gives the full walk's p-value bit for bit", () => {
  const rng = seedrandom("bits");
  for (let rep = 0; rep < 300; rep++) {
    const clusters = 1 + Math.floor(rng() * (rep < 250 ? 40 : 400));
    const d: number[] = [];
    const c: number[] = [];
    const lean = (rng() - 0.5) * 0.6;
    for (let t = 0; t < clusters; t++) {
      const size = 1 + Math.floor(rng() * 7);
      for (let k = 0; k < size; k++) {
        d.push(Math.round((rng() - 0.5 + lean) * 4) / 4);
        c.push(t);
      }
    }
    const expected = fullWalkP(d, c);
    const own = clusterSignTest(d, c).pValue;
    if (Number.isNaN(expected)) assert.ok(Number.isNaN(own));
    else assert.ok(Object.is(own, expected), `rep ${rep}: ${own} vs ${expected}`);
  }
});

test("every two- and three-task layout with task sign sums in −4…4 gives the full walk's p-value bit for bit", () => {
  // Few tasks with one dominant sum exercise the mirrored reads that a large store never reaches.
  const sums = [-4, -3, -2, -1, 0, 1, 2, 3, 4];
  const layouts = [
    ...sums.flatMap((a) => sums.map((b) => [a, b])),
    ...sums.flatMap((a) => sums.flatMap((b) => sums.map((c) => [a, b, c]))),
  ];
  for (const layout of layouts) {
    // Task t holds |s| pairs of sign s (and one zero pair when s = 0).
    const d: number[] = [];
    const c: number[] = [];
    layout.forEach((s, t) => {
      for (let k = 0; k < Math.max(1, Math.abs(s)); k++) {
        d.push(Math.sign(s) * 0.5);
        c.push(t);
      }
    });
    const expected = fullWalkP(d, c);
    const own = clusterSignTest(d, c).pValue;
    if (Number.isNaN(expected)) assert.ok(Number.isNaN(own), layout.join(","));
    else assert.ok(Object.is(own, expected), `${layout.join(",")}: ${own} vs ${expected}`);
  }
});

test("cluster labels that are not 0..n−1 give the same test as the same clusters numbered densely", () => {
  const differences = [0.2, -0.1, 0, 0.3, 0.4, 0.25, 0.1, -0.5, 0.3, 0.2];
  const sparse = [1e9, 7, 7, 1e9, 2.5, 2.5, -4, 7, -4, 1e9];
  const dense = [0, 1, 1, 0, 2, 2, 3, 1, 3, 0];
  const a = clusterSignTest(differences, sparse);
  const b = clusterSignTest(differences, dense);
  assert.deepEqual(a, b);
  // Sign sums +3, −2, +2, +2 (every cluster informative), the statistic their sum.
  assert.equal(a.informative_clusters, 4);
  assert.equal(a.statistic, 5);
});
