import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { signTest, signTestPValue } from "../analysis/stats/sign-test.js";

const ref = JSON.parse(readFileSync(new URL("./fixtures/reference-scipy.json", import.meta.url), "utf8"));

test("sign test p equals scipy.stats.binomtest(k, n, 0.5) two-sided", () => {
  for (const c of ref.sign_test) {
    const got = signTestPValue(c.k, c.n);
    assert.ok(Math.abs(got - c.p) <= 1e-12 + 1e-9 * c.p, `k=${c.k} n=${c.n}: ${got} vs ${c.p}`);
  }
});

test("hand computation: 2 of 10 → 2·(1 + 10 + 45)/1024 = 0.109375", () => {
  assert.ok(Math.abs(signTestPValue(2, 10) - 112 / 1024) < 1e-15);
});

test("zeros are dropped and counted; all-zero differences give NaN", () => {
  const r = signTest([0.2, -0.1, 0, 0, 0.3]);
  assert.deepEqual([r.positive, r.negative, r.zeros, r.n], [2, 1, 2, 3]);
  assert.ok(Number.isNaN(signTest([0, 0]).pValue));
  assert.ok(Number.isNaN(signTest([]).pValue));
});

test("NaN differences are rejected", () => {
  assert.throws(() => signTest([0.1, NaN]), /signTest\(\): invalid differences\[1\]/);
});
