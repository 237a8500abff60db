import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { normalCdf, pairedObuchowskiTest } from "../analysis/stats/obuchowski.js";

// Expected values: test/fixtures/obuchowski_paired_reference.R, base R written from Obuchowski (1997)
// with O(M·N) placement sums (the structure of funcs_clusteredROC.R), not from this code.
const cases: {
  a: number[];
  b: number[];
  outcome: number[];
  cluster: number[];
  delta: number;
  se: number;
  p: number;
  ci: [number, number];
}[] = JSON.parse(readFileSync(new URL("./fixtures/obuchowski-paired-reference.json", import.meta.url), "utf8"));

test("paired clustered ΔAUC test equals the base-R formula on 6 fixtures (Δ, SE, CI to 1e-12; p to 1e-6 relative)", () => {
  for (const c of cases) {
    const r = pairedObuchowskiTest(c.a, c.b, c.outcome.map(Boolean), c.cluster);
    assert.ok(Math.abs(r.delta - c.delta) < 1e-12);
    assert.ok(Math.abs(r.se - c.se) < 1e-12, `${r.se} vs ${c.se}`);
    assert.ok(Math.abs(r.ci[0] - c.ci[0]) < 1e-9 && Math.abs(r.ci[1] - c.ci[1]) < 1e-9);
    assert.ok(Math.abs(r.p - c.p) / c.p < 1e-6, `${r.p} vs ${c.p}`);
  }
});

test("normal CDF: tabulated values and far tails (R's pnorm)", () => {
  assert.ok(Math.abs(normalCdf(1.959963984540054) - 0.975) < 1e-7); // erfcc: fractional error < 1.2e-7
  assert.ok(Math.abs(normalCdf(0) - 0.5) < 1e-7);
  // pnorm(-6) = 9.8658765e-10, pnorm(-10) = 7.619853e-24: relative accuracy holds in the tail.
  assert.ok(Math.abs(normalCdf(-6) / 9.865876450377e-10 - 1) < 1e-6);
  assert.ok(Math.abs(normalCdf(-10) / 7.619853024160527e-24 - 1) < 1e-6);
});

test("identical methods: Δ = 0 and the test is undefined (zero variance), never p = 1 by accident", () => {
  const c = cases[0];
  const r = pairedObuchowskiTest(c.a, c.a, c.outcome.map(Boolean), c.cluster);
  assert.equal(r.delta, 0);
  assert.ok(Number.isNaN(r.p));
  assert.match(r.reason ?? "", /variance of Δ not positive/);
});
