import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { spearman, ClusteredSpearman } from "../analysis/stats/spearman.js";
import { midranks } from "../analysis/stats/ranks.js";

const ref = JSON.parse(readFileSync(new URL("./fixtures/reference-scipy.json", import.meta.url), "utf8"));

test("midranks give tied values the mean of their ranks", () => {
  assert.deepEqual(Array.from(midranks([10, 20, 20, 30])), [1, 2.5, 2.5, 4]);
  assert.deepEqual(Array.from(midranks([3, 3, 3])), [2, 2, 2]);
});

test("spearman equals scipy.stats.spearmanr with and without ties", () => {
  for (const c of ref.spearman) {
    const got = spearman(c.x, c.y);
    assert.ok(Math.abs(got - c.rho) < 1e-12, `${got} vs ${c.rho}`);
  }
});

test("spearman on a hand example: one swapped pair of four gives 0.8", () => {
  // d = (0, 1, −1, 0): 1 − 6·2/(4·15) = 0.8 (no ties, so the shortcut applies)
  assert.ok(Math.abs(spearman([1, 2, 3, 4], [1, 3, 2, 4]) - 0.8) < 1e-12);
});

test("spearman is NaN when a variable is constant or n < 2", () => {
  assert.ok(Number.isNaN(spearman([1, 1, 1], [1, 2, 3])));
  assert.ok(Number.isNaN(spearman([1], [2])));
});

test("the pair order makes no difference", () => {
  const c = ref.spearman[1];
  const idx = c.x.map((_: number, i: number) => i).reverse();
  assert.ok(
    Math.abs(
      spearman(
        idx.map((i: number) => c.x[i]),
        idx.map((i: number) => c.y[i]),
      ) - c.rho,
    ) < 1e-12,
  );
});

test("cluster-weighted spearman equals spearman of the concatenated resample", () => {
  const c = ref.spearman[2];
  const cluster = c.x.map((_: number, i: number) => i % 7);
  const cs = new ClusteredSpearman(c.x, c.y, cluster, 7);
  assert.ok(Math.abs(cs.estimate() - c.rho) < 1e-12);
  const w = Float64Array.from([2, 0, 1, 3, 0, 1, 1]);
  const x2: number[] = [],
    y2: number[] = [];
  c.x.forEach((x: number, i: number) => {
    for (let k = 0; k < w[cluster[i]]; k++) {
      x2.push(x);
      y2.push(c.y[i]);
    }
  });
  assert.ok(Math.abs(cs.evaluate(w) - spearman(x2, y2)) < 1e-12);
});
