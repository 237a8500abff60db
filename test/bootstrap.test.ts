import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { errorFunction } from "simple-statistics";
import { clusterBootstrap, percentileCI, shareAbove } from "../analysis/stats/bootstrap.js";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";
import { quantileSorted } from "../analysis/stats/quantile.js";
import { ClusteredProportions, ratesOfSumsMany } from "../analysis/stats/clustered-proportion.js";

test("percentile interpolation matches numpy's default (type 7) on hand values", () => {
  // numpy.percentile([1,2,3,4], 2.5) = 1 + 0.075*(2-1) = 1.075; 97.5 → 3.925
  assert.ok(Math.abs(quantileSorted([1, 2, 3, 4], 0.025) - 1.075) < 1e-12);
  assert.ok(Math.abs(quantileSorted([1, 2, 3, 4], 0.975) - 3.925) < 1e-12);
  assert.equal(quantileSorted([7], 0.3), 7);
  assert.ok(Number.isNaN(quantileSorted([], 0.5)));
});

function clusteredData(rng: () => number, tasks: number, perTask: number, mu: number, sigmaTask: number) {
  const score: number[] = [],
    pass: boolean[] = [],
    cluster: number[] = [];
  for (let t = 0; t < tasks; t++) {
    const u = sigmaTask * gauss(rng);
    for (let k = 0; k < perTask; k++) {
      const y = rng() < 0.4;
      score.push(u + (y ? mu : 0) + gauss(rng));
      pass.push(y);
      cluster.push(t);
    }
  }
  return { score, pass, cluster };
}
function gauss(rng: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

test("the same seed gives identical draws and CIs; another seed does not", () => {
  const { score, pass, cluster } = clusteredData(seedrandom("d"), 20, 15, 1, 0.5);
  const c = new ClusteredAuc(score, pass, cluster, 20);
  const run = (seed: number) =>
    clusterBootstrap({ clusters: 20, seed, resamples: 500, statistics: { auc: (w) => c.evaluate(w) } });
  const a = run(7),
    b = run(7),
    d = run(8);
  assert.deepEqual(Array.from(a.draws.auc), Array.from(b.draws.auc));
  assert.deepEqual(percentileCI(a.draws.auc), percentileCI(b.draws.auc));
  assert.notDeepEqual(Array.from(a.draws.auc), Array.from(d.draws.auc));
  assert.equal(a.seed, "7");
});

test("several statistics are evaluated on the same draw (paired Δ equals difference of draws)", () => {
  const rng = seedrandom("pair");
  const { score, pass, cluster } = clusteredData(rng, 15, 10, 1, 0.3);
  const other = score.map((s) => s + gauss(rng));
  const a = new ClusteredAuc(score, pass, cluster, 15),
    b = new ClusteredAuc(other, pass, cluster, 15);
  const res = clusterBootstrap({
    clusters: 15,
    seed: 1,
    resamples: 200,
    statistics: { a: (w) => a.evaluate(w), b: (w) => b.evaluate(w), d: (w) => a.evaluate(w) - b.evaluate(w) },
  });
  for (let r = 0; r < 200; r++) assert.ok(Math.abs(res.draws.d[r] - (res.draws.a[r] - res.draws.b[r])) < 1e-12);
  const share = shareAbove(res.draws.d);
  assert.ok(share >= 0 && share <= 1);
});

test("draws with a single outcome class are redrawn, and a hopeless sample throws", () => {
  // Task 0 holds the only negative: a draw without task 0 has no negatives.
  const c = new ClusteredAuc([0.1, 0.5, 0.6, 0.7], [false, true, true, true], [0, 1, 2, 3], 4);
  const res = clusterBootstrap({
    clusters: 4,
    seed: 3,
    resamples: 300,
    statistics: { auc: (w) => c.evaluate(w) },
    accept: (w) => c.hasBothClasses(w),
  });
  assert.ok(res.redrawn > 0);
  assert.ok(Array.from(res.draws.auc).every(Number.isFinite));
  const single = new ClusteredAuc([0.1, 0.9], [false, true], [0, 0], 1);
  assert.throws(
    () =>
      clusterBootstrap({ clusters: 1, seed: 1, resamples: 5, statistics: { x: () => NaN }, maxConsecutiveRejects: 50 }),
    /no acceptable draw/,
  );
  assert.equal(single.estimate(), 1);
});

test("bad options are caller errors naming the argument", () => {
  assert.throws(
    () => clusterBootstrap({ clusters: 0, seed: 1, statistics: {} }),
    /clusterBootstrap\(\): invalid clusters 0/,
  );
  assert.throws(
    () => clusterBootstrap({ clusters: 3, seed: 1, resamples: 1.5, statistics: {} }),
    /invalid resamples 1.5/,
  );
});

// Coverage is tested where it discriminates: "with a strong task effect the clustered CI covers nominally and
// the iid CI does not" below (a coverage test that iid resampling also passes proves nothing about clustering).

test("clustered proportions: a weighted rate equals the pooled rate of the replicated clusters", async () => {
  const { ClusteredProportions } = await import("../analysis/stats/clustered-proportion.js");
  const { ClusteredSeparation } = await import("../analysis/stats/separation.js");
  const p = new ClusteredProportions(3);
  p.add(0, 0, 1, 3);
  p.add(0, 1, 2, 2);
  p.add(0, 2, 0, 4);
  p.add(1, 0, 3, 3);
  // weights (2, 0, 1): arm 0 → (2·1 + 0) / (2·3 + 4) = 0.2; arm 1 → 6/6
  const w = Float64Array.from([2, 0, 1]);
  assert.equal(p.rate(0, w), 0.2);
  assert.equal(p.rate(1, w), 1);
  assert.ok(Number.isNaN(p.rate(1, Float64Array.from([0, 1, 1]))));
  // separation: PASS {0.9 (c0), 0.7 (c1)}, FAIL {0.2 (c0), 0.4 (c2)}; weights (1, 2, 0): (0.9 + 1.4)/3 − 0.2 = 0.5667
  const s = new ClusteredSeparation([0.9, 0.7, 0.2, 0.4], [true, true, false, false], [0, 1, 0, 2], 3);
  assert.ok(Math.abs(s.evaluate(Float64Array.from([1, 2, 0])) - (2.3 / 3 - 0.2)) < 1e-12);
  assert.ok(Math.abs(s.estimate() - (0.8 - 0.3)) < 1e-12);
});

/*
 * Coverage that can fail: a strong task effect on both the outcome and the score. Task t has
 * u_t ~ N(0, 1.5²); its trajectories pass with probability Φ(u_t) and score u_t + 0.5·PASS + e,
 * e ~ N(0, 1), scores on a grid of 1/8 (ties, like GCPC's k/n). Trajectories of one task are
 * strongly dependent, so resampling trajectories as if independent (iid) understates the
 * variance of the pooled AUC. The estimand (pooled AUC over a population of such tasks) is
 * computed once from 4,000 simulated tasks. 200 replicates of 40 tasks × 30 trajectories,
 * 500 resamples each: the task-clustered interval must cover in [0.88, 0.99]; the iid one must
 * cover at most 0.80 (at this seed: clustered 0.94, iid 0.58), so a bootstrap that ignored clusters fails.
 */
function taskEffectData(rng: () => number, tasks: number, perTask: number) {
  const score: number[] = [];
  const pass: boolean[] = [];
  const cluster: number[] = [];
  for (let t = 0; t < tasks; t++) {
    const u = 1.5 * gauss(rng);
    const pPass = 0.5 * (1 + errorFunction(u / Math.SQRT2));
    for (let k = 0; k < perTask; k++) {
      const y = rng() < pPass;
      score.push(Math.round((u + (y ? 0.5 : 0) + gauss(rng)) * 8) / 8);
      pass.push(y);
      cluster.push(t);
    }
  }
  return { score, pass, cluster };
}

test("with a strong task effect the clustered CI covers nominally and the iid CI does not", () => {
  const rng = seedrandom("task-effect");
  const big = taskEffectData(rng, 4000, 30);
  const truth = new ClusteredAuc(big.score, big.pass, big.cluster, 4000).estimate();
  let clustered = 0;
  let iid = 0;
  const replicates = 200;
  for (let r = 0; r < replicates; r++) {
    const d = taskEffectData(rng, 40, 30);
    const byTask = new ClusteredAuc(d.score, d.pass, d.cluster, 40);
    const byTrajectory = new ClusteredAuc(
      d.score,
      d.pass,
      d.pass.map((_, i) => i),
      d.pass.length,
    );
    for (const [c, clusters, hit] of [
      [byTask, 40, () => clustered++],
      [byTrajectory, d.pass.length, () => iid++],
    ] as const) {
      const res = clusterBootstrap({
        clusters,
        seed: `te${r}`,
        resamples: 500,
        statistics: { auc: (w) => c.evaluate(w) },
        accept: (w) => c.hasBothClasses(w),
      });
      const [lo, hi] = percentileCI(res.draws.auc);
      if (lo <= truth && truth <= hi) hit();
    }
  }
  assert.ok(
    clustered / replicates >= 0.88 && clustered / replicates <= 0.99,
    `clustered coverage ${clustered / replicates}`,
  );
  assert.ok(iid / replicates <= 0.8, `iid coverage ${iid / replicates}`);
});

test("a bootstrap of sums, a batch of draws at once, gives the draws of its weights, redraws included", () => {
  // 12 clusters, 2 holding arm 0 and the others arm 1: about one draw in nine picks neither of the two, so
  // arm 0's rate is NaN and the draw is redrawn.
  const rng = seedrandom("sums many");
  const props = new ClusteredProportions(12);
  for (let c = 0; c < 12; c++)
    for (let k = 0; k < 1 + Math.floor(rng() * 6); k++) {
      const arm = c < 2 ? 0 : 1;
      props.add(arm, c, rng() < 0.4 ? 1 : 0, 1);
    }
  const r = new Float64Array(2);
  const statistics = {
    none: (w: Float64Array) => props.rates2(w, r)[0],
    curated: () => r[1],
    uplift: () => r[1] - r[0],
  };
  const run = (sums?: Parameters<typeof clusterBootstrap>[0]["sums"]) =>
    clusterBootstrap({ clusters: 12, statistics, seed: "sums many", resamples: 3000, sums });
  const weights = run();
  const bySums = run({
    table: props.sums2(),
    statistics: (t, count, out) =>
      ratesOfSumsMany(t, count, { rate0: out.none, rate1: out.curated, difference: out.uplift }),
  });
  assert.ok(weights.redrawn > 0, "some draws are redrawn");
  assert.equal(bySums.redrawn, weights.redrawn);
  assert.deepEqual(bySums.draws, weights.draws);
  // Every cluster holding both arms: no draw is undefined, so each batch is copied whole; the same draws.
  const both = new ClusteredProportions(12);
  for (let c = 0; c < 12; c++) for (const arm of [0, 1]) both.add(arm, c, rng() < 0.4 ? 1 : 0, 1);
  const stats = {
    none: (w: Float64Array) => both.rates2(w, r)[0],
    curated: () => r[1],
    uplift: () => r[1] - r[0],
  };
  const plain = clusterBootstrap({ clusters: 12, statistics: stats, seed: "whole batches", resamples: 12_345 });
  const batched = clusterBootstrap({
    clusters: 12,
    statistics: stats,
    seed: "whole batches",
    resamples: 12_345, // more than one batch of sums, the last one partial
    sums: {
      table: both.sums2(),
      statistics: (t, count, out) =>
        ratesOfSumsMany(t, count, { rate0: out.none, rate1: out.curated, difference: out.uplift }),
    },
  });
  assert.equal(batched.redrawn, 0);
  assert.deepEqual(batched.draws, plain.draws);
});
