import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { gridScores } from "./helpers/grid-scores.js";
import { clusterComponents, obuchowskiAuc, normalQuantile } from "../analysis/stats/obuchowski.js";

test("Obuchowski variance on a 3-cluster hand example", () => {
  // cluster 1: pos .9, neg .2; cluster 2: pos .6, neg .6; cluster 3: pos .4, negs .5 .1
  // V10 = (1, .875, .5), A = 2.375/3; V01 = (1 | .5 | 2/3 + 1)
  // a_i = V10_i − m_i A = (5, 2, −7)/24; b_i = V01_i − n_i A = (5, −7, 2)/24
  // Σa² = Σb² = 78/576, Σab = −3/576, I/(I−1) = 1.5
  // Var = [1.5·78/(3·3) + 1.5·78/(4·4) + 2·1.5·(−3)/12] / 576 = 19.5625/576
  const r = obuchowskiAuc(
    [0.9, 0.2, 0.6, 0.6, 0.4, 0.5, 0.1],
    [true, false, true, false, true, false, false],
    [1, 1, 2, 2, 3, 3, 3],
  );
  assert.ok(Math.abs(r.auc - 2.375 / 3) < 1e-12);
  assert.ok(Math.abs(r.variance - 19.5625 / 576) < 1e-12, String(r.variance));
  assert.equal(r.clusters, 3);
});

test("Obuchowski is NaN-safe on degenerate input", () => {
  assert.ok(Number.isNaN(obuchowskiAuc([0.1, 0.2], [true, true], [0, 1]).auc));
  const one = obuchowskiAuc([0.1, 0.2], [false, true], [0, 0]);
  assert.equal(one.auc, 1);
  assert.ok(Number.isNaN(one.se));
});

test("normal quantile matches tabulated values", () => {
  assert.ok(Math.abs(normalQuantile(0.975) - 1.959963984540054) < 1e-8);
  assert.ok(Math.abs(normalQuantile(0.95) - 1.6448536269514722) < 1e-8);
  assert.ok(Math.abs(normalQuantile(0.01) + 2.3263478740408408) < 1e-8);
});

// Contract rule 15: I10 / I01 count the clusters holding a positive / a negative.
// Expected values come from test/fixtures/obuchowski_reference.py, an O(M·N) implementation written
// from Obuchowski (1997) as funcs_clusteredROC.R computes it, not from this code.
import { readFileSync } from "node:fs";
const reference = JSON.parse(readFileSync(new URL("./fixtures/obuchowski-reference.json", import.meta.url), "utf8"));

test("Obuchowski uses I10/(I10−1) and I01/(I01−1) when some clusters hold one class (reference implementation)", () => {
  for (const [name, c] of Object.entries<any>(reference)) {
    const r = obuchowskiAuc(c.scores, c.pos.map(Boolean), c.cluster);
    assert.equal(r.clustersWithPositive, c.expected.I10, name);
    assert.equal(r.clustersWithNegative, c.expected.I01, name);
    assert.ok(c.expected.I10 < c.expected.I, `${name} exercises I10 < I`);
    assert.ok(Math.abs(r.auc - c.expected.auc) < 1e-12, name);
    assert.ok(Math.abs(r.variance - c.expected.variance) < 1e-12, `${name}: ${r.variance} vs ${c.expected.variance}`);
  }
});

test("Obuchowski is undefined, with a reason, when fewer than 2 clusters hold a positive or a negative", () => {
  // 1 PASS among many FAILs (I10 = 1), and two single-class tasks (I10 = I01 = 1).
  const onePass = obuchowskiAuc([0.9, 0.1, 0.2, 0.3, 0.4], [true, false, false, false, false], [0, 0, 1, 2, 3]);
  assert.ok(Number.isNaN(onePass.se));
  assert.match(onePass.reason!, /fewer than 2 clusters hold a positive \(1\)/);
  const twoSingle = obuchowskiAuc([0.9, 0.8, 0.1, 0.2], [true, true, false, false], [0, 0, 1, 1]);
  assert.equal(twoSingle.auc, 1);
  assert.ok(Number.isNaN(twoSingle.se) && Number.isNaN(twoSingle.ci[0]), "no zero-width interval");
});

test("the placement values V10 and V01 per cluster are their definition's, on tie-heavy scores with −0 and +0", () => {
  // V10(x) = (#negatives below x + ½ #tied) / N for a positive x, V01(y) = (#positives above y + ½ #tied) / M
  // for a negative y (DeLong et al. 1988; Obuchowski 1997), summed per cluster in row order: counted pair
  // by pair here, against the estimator's counts by level.
  const rng = seedrandom("placements");
  for (let rep = 0; rep < 300; rep++) {
    const n = 2 + Math.floor(rng() * 60);
    const grid = [3, 7, 0][rep % 3];
    const scores = gridScores(rng, n, grid);
    const pass = Array.from({ length: n }, () => (rng() < 0.5 ? 1 : 0));
    const clusters = 1 + Math.floor(rng() * 5);
    const cluster = Array.from({ length: n }, () => Math.floor(rng() * clusters));
    const c = clusterComponents(scores, pass, cluster);
    const M = pass.filter((p) => p).length;
    const N = n - M;
    if (M === 0 || N === 0) continue;
    const slots = [...new Set(cluster)].sort((a, b) => a - b);
    const V10 = new Array(slots.length).fill(0);
    const V01 = new Array(slots.length).fill(0);
    for (let i = 0; i < n; i++) {
      const others = scores.filter((_, j) => pass[j] !== pass[i]);
      const below = others.filter((s) => s < scores[i]).length;
      const above = others.filter((s) => s > scores[i]).length;
      const tied = others.length - below - above;
      const k = slots.indexOf(cluster[i]);
      if (pass[i]) V10[k] += (below + 0.5 * tied) / N;
      else V01[k] += (above + 0.5 * tied) / M;
    }
    assert.deepEqual([...c.V10], V10, `rep ${rep}`);
    assert.deepEqual([...c.V01], V01, `rep ${rep}`);
  }
});
