import { test } from "node:test";
import assert from "node:assert/strict";
import { signTestPValue } from "../analysis/stats/sign-test.js";

// Issue 10: at 100× the paper (2.1 M trajectories) the FAIL→FAIL sign test saw n in the hundreds of
// thousands and `Math.max(...terms)` overflowed the call stack. Reference values: the normal
// approximation with continuity correction, accurate to ~1e-3 relative at this n.
test("the sign test p-value is finite and correct for n = 400,000 (no argument-limit crash)", () => {
  const n = 400_000;
  const k = 199_500; // z = (k + ½ − n/2) / (√n / 2) = −499.5 / 316.23 = −1.5796
  const z = (k + 0.5 - n / 2) / (Math.sqrt(n) / 2);
  const p = signTestPValue(k, n);
  // 2·Φ(z) for z = −1.5796: 0.11420 (Φ from the error function's series, computed below).
  const phi = 0.5 * erfc(-z / Math.SQRT2);
  assert.ok(Math.abs(p - 2 * phi) / (2 * phi) < 2e-3, `${p} vs ${2 * phi}`);
});

/** Complementary error function (Numerical Recipes' erfcc, fractional error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
