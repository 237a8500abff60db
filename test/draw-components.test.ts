import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { materialiseDraw } from "./helpers/materialise-draw.js";
import { DrawComponents, weightedCovariance } from "../analysis/stats/draw-components.js";
import { clusterComponents, componentCovariance, obuchowskiAuc } from "../analysis/stats/obuchowski.js";

// A tie-heavy clustered sample: 14 clusters, scores on the k/6 grid.
function sample(seed: string) {
  const rng = seedrandom(seed);
  const scores: number[] = [];
  const pass: boolean[] = [];
  const cluster: number[] = [];
  for (let c = 0; c < 14; c++) {
    const size = 2 + Math.floor(rng() * 6);
    for (let k = 0; k < size; k++) {
      const y = rng() < 0.45;
      pass.push(y);
      scores.push(Math.round(6 * Math.min(1, Math.max(0, rng() * 0.8 + (y ? 0.25 : 0)))) / 6);
      cluster.push(c);
    }
  }
  return { scores, pass, cluster };
}

test("with every weight 1 the draw components equal clusterComponents and give Obuchowski's variance", () => {
  const d = sample("dc-1");
  const c = new DrawComponents(d.scores, d.pass, d.cluster, 14).components(new Float64Array(14).fill(1));
  const ref = clusterComponents(d.scores, d.pass, d.cluster);
  assert.ok(Math.abs(c.auc - ref.auc) < 1e-12);
  for (let k = 0; k < 14; k++) {
    assert.ok(Math.abs(c.V10[k] - ref.V10[k]) < 1e-12 && Math.abs(c.V01[k] - ref.V01[k]) < 1e-12, `cluster ${k}`);
  }
  const v = weightedCovariance(c, c, new Float64Array(14).fill(1));
  assert.ok(Math.abs(v - componentCovariance(ref, ref)) < 1e-14);
  assert.ok(Math.abs(Math.sqrt(v) - obuchowskiAuc(d.scores, d.pass, d.cluster).se) < 1e-12);
});

test("on integer weights it equals Obuchowski's estimator on the concatenated resample (copies as new clusters)", () => {
  const d = sample("dc-2");
  const prepared = new DrawComponents(d.scores, d.pass, d.cluster, 14);
  const rng = seedrandom("dc-draws");
  for (let r = 0; r < 25; r++) {
    const w = new Float64Array(14);
    for (let k = 0; k < 14; k++) w[Math.floor(rng() * 14)]++;
    // Materialise the draw: every copy of a cluster becomes its own cluster id.
    const m = materialiseDraw(d, w);
    const ref = obuchowskiAuc(m.scores, m.pass, m.cluster);
    const comp = prepared.components(w);
    const v = weightedCovariance(comp, comp, w);
    assert.ok(Math.abs(comp.auc - ref.auc) < 1e-12, `draw ${r}: auc ${comp.auc} vs ${ref.auc}`);
    if (Number.isFinite(ref.variance))
      assert.ok(Math.abs(v - ref.variance) < 1e-12, `draw ${r}: ${v} vs ${ref.variance}`);
    else assert.ok(Number.isNaN(v) || v < 0, `draw ${r}: undefined in the reference, ${v} here`);
  }
});

test("paired: the covariance of two methods on a draw equals the materialised paired test's", () => {
  const d = sample("dc-3");
  const other = d.scores.map((x, i) => Math.round(6 * ((x + ((i * 7919) % 11) / 22) % 1)) / 6);
  const A = new DrawComponents(d.scores, d.pass, d.cluster, 14);
  const B = new DrawComponents(other, d.pass, d.cluster, 14);
  const w = new Float64Array(14).fill(1);
  const a = A.components(w);
  const b = B.components(w);
  const ref = componentCovariance(
    clusterComponents(d.scores, d.pass, d.cluster),
    clusterComponents(other, d.pass, d.cluster),
  );
  assert.ok(Math.abs(weightedCovariance(a, b, w) - ref) < 1e-14);
});
