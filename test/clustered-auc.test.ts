import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { auc } from "../analysis/stats/auc.js";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";

function sample(seed: string, n: number, clusters: number) {
  const rng = seedrandom(seed);
  const cluster = Array.from({ length: n }, () => Math.floor(rng() * clusters));
  const pass = cluster.map(() => rng() < 0.4);
  const score = pass.map((p) => Math.round((p ? 0.3 : 0) * 10 + rng() * 7) / 10); // coarse → many ties
  return { cluster, pass, score };
}

test("with every weight 1 the clustered AUC equals the plain AUC", () => {
  const { cluster, pass, score } = sample("a", 500, 17);
  const c = new ClusteredAuc(score, pass, cluster, 17);
  assert.ok(Math.abs(c.estimate() - auc(score, pass)) < 1e-12);
});

test("a weighted evaluation equals the AUC of the explicitly concatenated resample", () => {
  const { cluster, pass, score } = sample("b", 300, 9);
  const c = new ClusteredAuc(score, pass, cluster, 9);
  const w = Float64Array.from([0, 3, 1, 0, 2, 1, 0, 1, 1]);
  const s2: number[] = [],
    y2: boolean[] = [];
  for (let i = 0; i < score.length; i++)
    for (let k = 0; k < w[cluster[i]]; k++) {
      s2.push(score[i]);
      y2.push(pass[i]);
    }
  assert.ok(Math.abs(c.evaluate(w) - auc(s2, y2)) < 1e-12);
});

test("a draw without one class evaluates to NaN and hasBothClasses says so", () => {
  const c = new ClusteredAuc([0.1, 0.9, 0.5], [false, true, true], [0, 1, 1], 2);
  const onlyPositives = Float64Array.from([0, 2]);
  assert.equal(c.hasBothClasses(onlyPositives), false);
  assert.ok(Number.isNaN(c.evaluate(onlyPositives)));
  assert.equal(c.hasBothClasses(Float64Array.from([1, 1])), true);
});

test("groups collapse equal scores within a cluster (per-draw cost below n)", () => {
  const c = new ClusteredAuc([0.5, 0.5, 0.5, 0.5], [true, false, true, false], [0, 0, 1, 1], 2);
  assert.equal(c.groups, 2);
  assert.equal(c.estimate(), 0.5);
});

/** auc() of a draw's data written out: every row of cluster c repeated w[c] times. */
function aucOfDraw(
  score: ArrayLike<number>,
  pass: ArrayLike<boolean | number>,
  cluster: ArrayLike<number>,
  w: Float64Array,
): number {
  const s: number[] = [];
  const y: boolean[] = [];
  for (let i = 0; i < score.length; i++) {
    for (let k = 0; k < w[cluster[i]]; k++) {
      s.push(score[i]);
      y.push(Boolean(pass[i]));
    }
  }
  return auc(s, y);
}

test("every evaluation path (level walk, packed level walk, dense level rows) equals auc() on the materialised draw", () => {
  const rng = seedrandom("paths");
  const shapes: [number, number, number | null, string][] = [
    [300, 40, null, "level"], // continuous: level-ordered walk
    [200, 50, 19, "packed"], // few levels, sparse cells: level walk over the groups' packed counts
    [2000, 20, 5, "dense"], // few levels, dense cells: one dense row per level
    [2001, 23, 5, "dense"], // an odd cluster count and an odd level count: the tails of the two-by-two loop
  ];
  for (const [n, tasks, levels, path] of shapes) {
    const cluster = Int32Array.from({ length: n }, () => Math.floor(rng() * tasks));
    const pass = Array.from({ length: n }, () => rng() < 0.4);
    const score = Float64Array.from(pass, (p) => {
      const x = rng() * 0.7 + (p ? 0.3 : 0);
      return levels === null ? x : Math.round(x * (levels - 1)) / (levels - 1);
    });
    const c = new ClusteredAuc(score, pass, cluster, tasks);
    assert.equal(c.path, path);
    for (let draw = 0; draw < 20; draw++) {
      const w = new Float64Array(tasks);
      for (let k = 0; k < tasks; k++) w[Math.floor(rng() * tasks)]++;
      const expected = aucOfDraw(score, pass, cluster, w);
      assert.ok(Math.abs(c.evaluate(w) - expected) < 1e-12, `${n}/${tasks}/${levels}: ${c.evaluate(w)} vs ${expected}`);
      // A draw's shortcut (no pass over w to test the packing) gives evaluate's value bit for bit.
      assert.ok(Object.is(c.evaluateDraw(w), c.evaluate(w)));
    }
    // So do the sample (every weight 1) and a jackknife's weights (one weight 0), which also reach it.
    const jack = new Float64Array(tasks).fill(1);
    assert.ok(Object.is(c.evaluateDraw(jack), c.evaluate(jack)));
    jack[0] = 0;
    assert.ok(Object.is(c.evaluateDraw(jack), c.evaluate(jack)));
  }
});

/** The weighted Mann–Whitney AUC by its definition: every (PASS, FAIL) pair weighted by its clusters' weights. */
function weightedAucByPairs(score: ArrayLike<number>, pass: boolean[], cluster: ArrayLike<number>, w: Float64Array) {
  let num = 0,
    pos = 0,
    neg = 0;
  for (let i = 0; i < score.length; i++) {
    if (pass[i]) pos += w[cluster[i]];
    else neg += w[cluster[i]];
    for (let j = 0; pass[i] && j < score.length; j++) {
      if (pass[j]) continue;
      const cmp = score[i] > score[j] ? 1 : score[i] === score[j] ? 0.5 : 0;
      num += w[cluster[i]] * w[cluster[j]] * cmp;
    }
  }
  return num / (pos * neg);
}

test("weights the packed counts cannot carry exactly (fractions, or too large) give the pairwise weighted AUC", () => {
  const rng = seedrandom("unpacked");
  for (const [n, tasks, levels] of [
    [400, 12, 4],
    [300, 30, null],
  ] as const) {
    const cluster = Int32Array.from({ length: n }, () => Math.floor(rng() * tasks));
    const pass = Array.from({ length: n }, () => rng() < 0.5);
    const score = Float64Array.from(pass, (p) => {
      const x = rng() * 0.7 + (p ? 0.3 : 0);
      return levels === null ? x : Math.round(x * (levels - 1)) / (levels - 1);
    });
    const c = new ClusteredAuc(score, pass, cluster, tasks);
    const fractional = Float64Array.from({ length: tasks }, () => rng() * 2);
    const huge = Float64Array.from({ length: tasks }, (_, k) => (k % 3 === 0 ? 2 ** 24 : 1)); // Σw·count ≥ 2²⁶
    for (const w of [fractional, huge]) {
      const expected = weightedAucByPairs(score, pass, cluster, w);
      assert.ok(Math.abs(c.evaluate(w) - expected) < 1e-9, `${c.evaluate(w)} vs ${expected}`);
    }
  }
});

test("the WebAssembly gather and dense rows give the JavaScript walks' AUC bit for bit, sparse and dense shapes", () => {
  const rng = seedrandom("kernel");
  for (const [n, tasks, levels, jsPath] of [
    [30_000, 3000, 41, "packed"], // few levels over many tasks: sparse cells
    [30_000, 700, 6, "dense"], // most cells filled: the dense rows without the kernel
    [30_000, 703, 7, "dense"], // a cluster count that leaves a tail after the two-lane pairs
  ] as const) {
    const cluster = Int32Array.from({ length: n }, () => Math.floor(rng() * tasks));
    const pass = Uint8Array.from({ length: n }, () => (rng() < 0.45 ? 1 : 0));
    const score = Float64Array.from(
      pass,
      (p) => Math.round((rng() * 0.7 + (p ? 0.3 : 0)) * (levels - 1)) / (levels - 1),
    );
    const js = new ClusteredAuc(score, pass, cluster, tasks, { wasm: false });
    assert.equal(js.path, jsPath);
    for (const layout of ["gather", "dense"] as const) {
      const kernel = new ClusteredAuc(score, pass, cluster, tasks, { kernelLayout: layout, taskPairs: false });
      assert.equal(kernel.path, "kernel");
      assert.equal(kernel.kernelLayout, layout);
      assert.equal(kernel.estimate(), js.estimate());
      for (let draw = 0; draw < 30; draw++) {
        const w = new Float64Array(tasks);
        for (let k = 0; k < tasks; k++) w[Math.floor(rng() * tasks)]++;
        assert.equal(kernel.evaluate(w), js.evaluate(w), `${layout} vs ${jsPath}, draw ${draw}`);
      }
      // And the value itself, against the definition on one draw (a check apart from both walks).
      const w = new Float64Array(tasks);
      for (let k = 0; k < tasks; k++) w[Math.floor(rng() * tasks)]++;
      assert.ok(Math.abs(kernel.evaluate(w) - aucOfDraw(score, pass, cluster, w)) < 1e-12);
    }
  }
});
