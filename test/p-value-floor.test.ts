import { test } from "node:test";
import assert from "node:assert/strict";
import { clusterSignTest } from "../analysis/stats/cluster-sign-test.js";
import { signTestPValue } from "../analysis/stats/sign-test.js";
import { P_DISPLAY_FLOOR, pv } from "../report/format.js";
import { Xor4096 } from "../analysis/stats/xor4096.js";

/** count / 2^n as a double, from the count's top 60 bits (exact integers in, one rounding out). */
function ratioToPowerOfTwo(count: bigint, n: number): number {
  if (count === 0n) return 0;
  const bits = count.toString(2).length;
  const shift = Math.max(bits - 60, 0);
  const top = Number(count >> BigInt(shift)) / 2 ** Math.min(bits, 60); // in [0.5, 1)
  return top * 2 ** (bits - n);
}

/**
 * Exact two-sided tail of Σ ε_t b_t with fair independent signs ε_t, by convolving integer counts in BigInt:
 * P(|Σ ε_t b_t| ≥ cut) = #{sign vectors reaching it} / 2^n. Written from the definition, not from the walk.
 */
function exactSignFlipTail(blocks: number[], cut: number): number {
  const total = blocks.reduce((a, b) => a + b, 0);
  let counts: bigint[] = new Array(2 * total + 1).fill(0n);
  counts[total] = 1n;
  for (const b of blocks) {
    const next: bigint[] = new Array(2 * total + 1).fill(0n);
    for (let k = 0; k <= 2 * total; k++) {
      if (counts[k] === 0n) continue;
      next[k - b] += counts[k];
      next[k + b] += counts[k];
    }
    counts = next;
  }
  let tail = 0n;
  for (let k = 0; k <= 2 * total; k++) if (Math.abs(k - total) >= cut) tail += counts[k];
  return ratioToPowerOfTwo(tail, blocks.length);
}

test("the clustered sign-flip test's p equals the exact BigInt tail down to the 1e-300 display floor", () => {
  // 1,000 tasks of 1–3 pairs each, every pair of a task the same sign; the first m tasks negative. Sweeping m
  // moves the statistic from the far tail (p ≈ 2^-999, below the floor) to the body.
  const rng = new Xor4096("p-value-floor");
  const blocks = Array.from({ length: 1000 }, () => 1 + Math.floor(rng.uniform() * 3));
  const differences: number[] = [];
  const clusterOf: number[] = [];
  const checked = { above: 0, below: 0 };
  for (const m of [0, 1, 2, 4, 8, 16, 40, 120, 300, 450]) {
    differences.length = 0;
    clusterOf.length = 0;
    blocks.forEach((b, t) => {
      for (let i = 0; i < b; i++) {
        differences.push(t < m ? -0.2 : 0.3);
        clusterOf.push(t);
      }
    });
    const got = clusterSignTest(differences, clusterOf);
    const exact = exactSignFlipTail(blocks, Math.abs(got.statistic));
    if (exact >= P_DISPLAY_FLOOR) {
      checked.above++;
      assert.ok(Math.abs(got.pValue - exact) <= 1e-9 * exact, `m=${m}: ${got.pValue} vs exact ${exact}`);
    } else {
      checked.below++;
      assert.ok(got.pValue < P_DISPLAY_FLOOR, `m=${m}: exact ${exact} is below the floor, computed ${got.pValue}`);
      assert.equal(pv(got.pValue), "< 1e-300");
    }
  }
  // The sweep reaches both sides of the floor, so both branches above ran.
  assert.ok(checked.above >= 5 && checked.below >= 1, JSON.stringify(checked));
});

test("the binomial sign test's p equals the exact BigInt tail 2·Σ C(n, j) / 2^n down to the floor", () => {
  const n = 1000;
  let binomial = 1n; // C(n, j), built up exactly
  let cumulative = 0n;
  const seen = { above: 0, below: 0 };
  for (let k = 0; k <= 60; k++) {
    if (k > 0) binomial = (binomial * BigInt(n - k + 1)) / BigInt(k);
    cumulative += binomial;
    const exact = ratioToPowerOfTwo(2n * cumulative, n);
    const got = signTestPValue(k, n);
    if (exact >= P_DISPLAY_FLOOR) {
      seen.above++;
      assert.ok(Math.abs(got - exact) <= 1e-9 * exact, `k=${k}: ${got} vs exact ${exact}`);
    } else {
      seen.below++;
      assert.ok(got < P_DISPLAY_FLOOR, `k=${k}: exact ${exact}, computed ${got}`);
    }
  }
  assert.ok(seen.above > 50 && seen.below >= 1, JSON.stringify(seen)); // k = 0 gives 2^-999 ≈ 1.9e-301
});

test("p-values print as a number down to 1e-300 and as '< 1e-300' below it, in the report and on the site", async () => {
  // The site's formatter is plain JavaScript served to the browser (no types): imported by a computed path.
  const page = "../src/components/number-format.js";
  const { fmtP, fmtP4 } = (await import(page)) as Record<"fmtP" | "fmtP4", (p: number | null) => string>;
  const cases: [number | null, string][] = [
    [null, "n/a"],
    [0, "< 1e-300"],
    [5e-301, "< 1e-300"],
    [1e-300, "1.0e-300"],
    [2.8116896464805485e-291, "2.8e-291"],
    [1.5720490876560737e-37, "1.6e-37"],
    [0.00005, "5.0e-5"],
    [0.0135, "0.0135"],
    [1, "1.0000"],
  ];
  for (const [p, text] of cases) {
    assert.equal(pv(p), text, `report ${p}`);
    assert.equal(fmtP(p), text, `site ${p}`);
  }
  // The explorer's criteria table keeps four significant digits above the same floor.
  assert.deepEqual([0, 5e-301, 0.001953125, null].map(fmtP4), ["< 1e-300", "< 1e-300", "0.001953", "n/a"]);
});
