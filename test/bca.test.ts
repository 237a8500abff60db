import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { bcaInterval } from "../analysis/stats/bca.js";
import { percentileCI } from "../analysis/stats/bootstrap.js";

const cases: {
  draws: number[];
  estimate: number;
  jackknife: number[];
  z0: number;
  acceleration: number;
  ci: [number, number];
}[] = JSON.parse(readFileSync(new URL("./fixtures/bca-reference.json", import.meta.url), "utf8"));

test("BCa z0, acceleration and endpoints equal the numpy/scipy formula on 6 skewed cases", () => {
  for (const c of cases) {
    const r = bcaInterval(Float64Array.from(c.draws), c.estimate, c.jackknife);
    assert.ok(r);
    assert.ok(Math.abs(r.z0 - c.z0) < 1e-6, `z0 ${r.z0} vs ${c.z0}`);
    assert.ok(Math.abs(r.acceleration - c.acceleration) < 1e-12);
    // Φ via erfcc (relative error < 1.2e-7) moves the quantile level by ~1e-7: endpoints agree to 1e-5.
    assert.ok(Math.abs(r.ci[0] - c.ci[0]) < 1e-5 && Math.abs(r.ci[1] - c.ci[1]) < 1e-5, `${r.ci} vs ${c.ci}`);
  }
});

test("no bias and no skew (z0 = 0, a = 0): BCa equals the percentile interval", () => {
  const draws = Float64Array.from({ length: 1001 }, (_, i) => i / 1000);
  const r = bcaInterval(draws, 0.5, [0.4, 0.5, 0.6]);
  assert.ok(r);
  const p = percentileCI(draws, 0.95);
  assert.ok(Math.abs(r.ci[0] - p[0]) < 1e-6 && Math.abs(r.ci[1] - p[1]) < 1e-6);
  assert.equal(bcaInterval(Float64Array.from([1, 2, 3]), 0, [1, 2]), null); // every draw above θ̂
});
