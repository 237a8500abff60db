import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { benjaminiHochberg, holm } from "../analysis/stats/multiplicity.js";

// Expected values: base R's p.adjust (test/fixtures/multiplicity_reference.R), 5 families incl. a missing p.
const cases: { p: (number | null)[]; holm: (number | null)[]; bh: (number | null)[] }[] = JSON.parse(
  readFileSync(new URL("./fixtures/multiplicity-reference.json", import.meta.url), "utf8"),
);

const close = (a: (number | null)[], b: (number | null)[]) =>
  a.length === b.length && a.every((x, i) => (x === null ? b[i] === null : Math.abs(x - (b[i] as number)) < 1e-14));

test("Holm and Benjamini–Hochberg equal R's p.adjust on 5 families", () => {
  for (const c of cases) {
    assert.ok(close(holm(c.p), c.holm), `holm ${holm(c.p)} vs ${c.holm}`);
    assert.ok(close(benjaminiHochberg(c.p), c.bh), `bh ${benjaminiHochberg(c.p)} vs ${c.bh}`);
  }
});

test("hand example: p = (0.01, 0.04, 0.03, 0.005)", () => {
  // Holm, ascending 0.005, 0.01, 0.03, 0.04 → 4·0.005, 3·0.01, 2·0.03, 1·0.04 = 0.02, 0.03, 0.06, 0.06 (running max)
  assert.deepEqual(
    holm([0.01, 0.04, 0.03, 0.005]).map((x) => Number(x?.toFixed(12))),
    [0.03, 0.06, 0.06, 0.02],
  );
  // BH: 4·0.04/4 = 0.04, 4·0.03/3 = 0.04, 4·0.01/2 = 0.02, 4·0.005/1 = 0.02 (running min from the top)
  assert.deepEqual(
    benjaminiHochberg([0.01, 0.04, 0.03, 0.005]).map((x) => Number(x?.toFixed(12))),
    [0.02, 0.04, 0.04, 0.02],
  );
});
