import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";
import { auc } from "../analysis/stats/auc.js";
import { clusterDraws } from "../analysis/stats/cluster-draws.js";

// The task-pair form of a draw against the level walk: the same double, bit for bit, on tie-heavy and
// continuous scores, for bootstrap draws and for any integer weights summing to at most the clusters.
const sample = fc
  .record({ clusters: fc.integer({ min: 1, max: 12 }), levels: fc.integer({ min: 1, max: 40 }) })
  .chain(({ clusters, levels }) =>
    fc.record({
      clusters: fc.constant(clusters),
      rows: fc.array(
        fc.record({
          score: fc.integer({ min: 0, max: levels - 1 }).map((k) => k / levels),
          pass: fc.boolean(),
          cluster: fc.integer({ min: 0, max: clusters - 1 }),
        }),
        { minLength: 1, maxLength: 200 },
      ),
      weights: fc.array(fc.nat({ max: clusters }), { minLength: clusters, maxLength: clusters }),
    }),
  );

test("task-pair draws, in WebAssembly and in JavaScript, equal the level walk's bit for bit (integer weights within the clusters' sum)", () => {
  fc.assert(
    fc.property(sample, ({ clusters, rows, weights }) => {
      const args = [rows.map((r) => r.score), rows.map((r) => r.pass), rows.map((r) => r.cluster), clusters] as const;
      const form = new ClusteredAuc(...args, { taskPairs: true });
      const formJs = new ClusteredAuc(...args, { taskPairs: true, wasm: false });
      const walk = new ClusteredAuc(...args, { taskPairs: false, wasm: false });
      assert.equal(form.drawPath, "task-pairs");
      assert.equal(form.taskPairEngine, "wasm");
      assert.equal(formJs.taskPairEngine, "js");
      // Scale the weights down to sum to at most `clusters`, as a draw's do.
      const total = weights.reduce((a, b) => a + b, 0);
      const w = Float64Array.from(weights, (x) => (total > clusters ? Math.floor((x * clusters) / total) : x));
      assert.ok(
        Object.is(form.evaluateDraw(w), walk.evaluateDraw(w)),
        `${form.evaluateDraw(w)} vs ${walk.evaluateDraw(w)}`,
      );
      assert.ok(Object.is(formJs.evaluateDraw(w), walk.evaluateDraw(w)), "JavaScript engine");
      const ones = new Float64Array(clusters).fill(1);
      const plain = auc(
        rows.map((r) => r.score),
        rows.map((r) => r.pass),
      );
      if (Number.isFinite(plain)) assert.ok(Math.abs(form.evaluateDraw(ones) - plain) < 1e-12);
    }),
    { numRuns: 2000, seed: 20261202 },
  );
});

test("continuous scores on many observations choose the task-pair form, and its draws are the walk's", () => {
  const n = 5000;
  const clusters = 60;
  let x = 12345;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const cluster = Array.from({ length: n }, () => Math.floor(next() * clusters));
  const pass = Array.from({ length: n }, () => next() < 0.4);
  const score = pass.map((p) => next() + (p ? 0.3 : 0));
  const auto = new ClusteredAuc(score, pass, cluster, clusters);
  const walk = new ClusteredAuc(score, pass, cluster, clusters, { taskPairs: false });
  const formJs = new ClusteredAuc(score, pass, cluster, clusters, { taskPairs: true, wasm: false });
  assert.equal(auto.drawPath, "task-pairs");
  assert.equal(auto.taskPairEngine, "wasm");
  assert.equal(walk.drawPath, "level");
  const draws = clusterDraws("task-pair-test", clusters);
  const w = new Float64Array(clusters);
  for (let r = 0; r < 500; r++) {
    draws.draw(w);
    assert.ok(Object.is(auto.evaluateDraw(w), walk.evaluateDraw(w)), `draw ${r}`);
    assert.ok(Object.is(formJs.evaluateDraw(w), walk.evaluateDraw(w)), `draw ${r}, JavaScript engine`);
  }
});
