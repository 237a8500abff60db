import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { Xor4096 } from "../analysis/stats/xor4096.js";

// The reference is seedrandom's own xor4096 (the generator every bootstrap used before the restatement).
const SEEDS = ["20260101:rq1:auc:gcpc", "1", "", "a much longer seed string than 128 characters ".repeat(4), "ü→✓"];

test("Xor4096.uniform gives seedrandom.xor4096's stream number for number", () => {
  for (const seed of SEEDS) {
    const ref = seedrandom.xor4096(seed);
    const ours = new Xor4096(seed);
    for (let k = 0; k < 20_000; k++) assert.equal(ours.uniform(), ref(), `seed ${JSON.stringify(seed)}, number ${k}`);
  }
});

test("Xor4096.addDraw counts the clusters seedrandom's numbers pick, draw after draw", () => {
  for (const seed of SEEDS) {
    for (const n of [1, 2, 7, 87, 1000]) {
      const ref = seedrandom.xor4096(seed);
      const ours = new Xor4096(seed);
      for (let draw = 0; draw < 50; draw++) {
        const expected = new Float64Array(n);
        for (let k = 0; k < n; k++) expected[Math.floor(ref() * n)]++;
        const got = new Float64Array(n);
        ours.addDraw(got, n);
        assert.deepEqual(got, expected, `seed ${JSON.stringify(seed)}, n ${n}, draw ${draw}`);
      }
      // Interleaving the two methods keeps one stream.
      assert.equal(ours.uniform(), ref());
    }
  }
});

test("Xor4096.signedSum is Σ (u < 1/2 ? d : −d) over seedrandom's numbers, in order, draw after draw", () => {
  for (const seed of SEEDS) {
    // Values whose sums round differently in another order, so the order of addition is checked too.
    const d = Float64Array.from({ length: 301 }, (_, k) => ((k % 7) - 3) * 0.1 + k * 1e-3 + (k % 2 ? 1e16 : 0));
    const ref = seedrandom.xor4096(seed);
    const ours = new Xor4096(seed);
    for (let draw = 0; draw < 50; draw++) {
      let want = 0;
      for (const x of d) want += ref() < 0.5 ? x : -x;
      assert.equal(ours.signedSum(d), want, `seed ${JSON.stringify(seed)}, draw ${draw}`);
    }
    assert.equal(ours.uniform(), ref(), "the streams stay in step after the draws");
  }
});
