import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { clusterBootstrap, percentileCI } from "../analysis/stats/bootstrap.js";
import { endpointMcSe } from "../analysis/stats/monte-carlo-error.js";

// The check is external to the estimator: rerun the bootstrap under many seeds and measure how far
// the endpoints actually move; the batch-means SE from one run must predict that spread.
test("batch-means MC SE of the endpoints predicts their spread over 400 seeds (ratio within 0.8–1.25)", () => {
  const rng = seedrandom("mc");
  const values = Float64Array.from({ length: 40 }, () => rng() * rng());
  const mean = (w: Float64Array) => {
    let s = 0;
    let n = 0;
    for (let c = 0; c < values.length; c++) {
      s += w[c] * values[c];
      n += w[c];
    }
    return s / n;
  };
  const lows: number[] = [];
  const highs: number[] = [];
  const seLow: number[] = [];
  const seHigh: number[] = [];
  for (let seed = 0; seed < 400; seed++) {
    const res = clusterBootstrap({ clusters: values.length, seed, resamples: 2000, statistics: { m: mean } });
    const [lo, hi] = percentileCI(res.draws.m, 0.95);
    const se = endpointMcSe(res.draws.m, 0.95);
    assert.ok(se);
    lows.push(lo);
    highs.push(hi);
    seLow.push(se[0]);
    seHigh.push(se[1]);
  }
  const sd = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
  };
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  for (const [spread, predicted] of [
    [sd(lows), avg(seLow)],
    [sd(highs), avg(seHigh)],
  ]) {
    assert.ok(predicted / spread > 0.8 && predicted / spread < 1.25, `predicted ${predicted}, observed ${spread}`);
  }
});

test("too few draws for 5 batches of 50: no MC SE", () => {
  assert.equal(endpointMcSe(new Float64Array(249), 0.95), null);
  assert.notEqual(
    endpointMcSe(
      Float64Array.from({ length: 250 }, (_, i) => i),
      0.95,
    ),
    null,
  );
});
