import { test } from "node:test";
import assert from "node:assert/strict";
import jStat from "jstat";
import { signTestPValue } from "../analysis/stats/sign-test.js";

// At 100× the paper (2.1 M trajectories) the FAIL→FAIL sign test saw n in the hundreds of
// thousands and `Math.max(...terms)` overflowed the call stack. Reference values: the normal
// approximation with continuity correction, accurate to ~1e-3 relative at this n.
test("the sign test p-value is finite and correct for n = 400,000 (no argument-limit crash)", () => {
  const n = 400_000;
  const k = 199_500; // z = (k + ½ − n/2) / (√n / 2) = −499.5 / 316.23 = −1.5796
  const z = (k + 0.5 - n / 2) / (Math.sqrt(n) / 2);
  const p = signTestPValue(k, n);
  // 2·Φ(z) for z = −1.5796 ≈ 0.1142, Φ from jStat (an implementation independent of ours).
  const phi = jStat.normal.cdf(z, 0, 1);
  assert.ok(Math.abs(p - 2 * phi) / (2 * phi) < 2e-3, `${p} vs ${2 * phi}`);
});
