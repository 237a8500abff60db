import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { clusterBootstrap, percentileCI } from "../analysis/stats/bootstrap.js";
import { endpointMcSe, quantileMcSe } from "../analysis/stats/monte-carlo-error.js";

// The check is external to the estimator: rerun the bootstrap under many seeds and measure how far
// the endpoints actually move; the Maritz–Jarrett SE from one run must predict that spread.
test("Maritz–Jarrett MC SE of the endpoints predicts their spread over 400 seeds (ratio within 0.8–1.25)", () => {
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

test("fewer than 250 draws (a 2.5% tail of fewer than 7): no MC SE", () => {
  assert.equal(endpointMcSe(new Float64Array(249), 0.95), null);
  assert.notEqual(
    endpointMcSe(
      Float64Array.from({ length: 250 }, (_, i) => i),
      0.95,
    ),
    null,
  );
});

test("draws from known laws, smooth and with atoms at the endpoint: predicted SE within 0.85–1.2 of the spread", () => {
  // Draws straight from a law (no bootstrap), 800 runs of 2,000: normal, and a three-point law whose 2.5% and
  // 97.5% quantiles sit at the edge of an atom (P(−1) = P(+1) = 0.03), so each endpoint jumps between two values.
  const rng = seedrandom("known-laws");
  const laws: Record<string, () => number> = {
    normal: () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()),
    "three-point": () => {
      const u = rng();
      return u < 0.03 ? -1 : u < 0.97 ? 0 : 1;
    },
  };
  for (const [name, draw] of Object.entries(laws)) {
    const ends: number[][] = [[], []];
    const predicted: number[][] = [[], []];
    for (let run = 0; run < 800; run++) {
      const d = Float64Array.from({ length: 2000 }, draw);
      const ci = percentileCI(d, 0.95);
      const se = endpointMcSe(d, 0.95)!;
      for (const e of [0, 1]) {
        ends[e].push(ci[e]);
        predicted[e].push(se[e]);
      }
    }
    for (const e of [0, 1]) {
      const m = ends[e].reduce((a, b) => a + b, 0) / ends[e].length;
      const spread = Math.sqrt(ends[e].reduce((a, x) => a + (x - m) ** 2, 0) / (ends[e].length - 1));
      const rms = Math.sqrt(predicted[e].reduce((a, x) => a + x * x, 0) / predicted[e].length);
      assert.ok(rms / spread > 0.85 && rms / spread < 1.2, `${name} endpoint ${e}: ${rms} vs ${spread}`);
    }
  }
});

test("quantileMcSe by hand: draws 0,…,9 and q at rank 5 weigh each x by its Beta(5, 6) probability", () => {
  // With 10 draws x_(i) = i − 1 and m = round(9·0.45 + 1) = 5: W_i = I_{i/10}(5, 6) − I_{(i−1)/10}(5, 6), the
  // law of ⌈10·U_(5)⌉; its SD from the Beta CDF, written out with the binomial sum I_x(5, 6) = P(Bin(10, x) ≥ 5).
  const sorted = Float64Array.from({ length: 10 }, (_, i) => i);
  const choose = (n: number, k: number) => {
    let c = 1;
    for (let j = 1; j <= k; j++) c = (c * (n - k + j)) / j;
    return c;
  };
  const cdf = (x: number) => {
    let s = 0;
    for (let k = 5; k <= 10; k++) s += choose(10, k) * x ** k * (1 - x) ** (10 - k);
    return s;
  };
  let m1 = 0;
  let m2 = 0;
  for (let i = 1; i <= 10; i++) {
    const w = cdf(i / 10) - cdf((i - 1) / 10);
    m1 += w * (i - 1);
    m2 += w * (i - 1) ** 2;
  }
  assert.ok(Math.abs(quantileMcSe(sorted, 0.45) - Math.sqrt(m2 - m1 * m1)) < 1e-7);
});
