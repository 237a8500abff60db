// The betting confidence sequence (analysis/stats/betting-cs.ts) against an independent numpy implementation of
// Waudby-Smith & Ramdas (2024) (test/fixtures/betting_cs_reference.py), and its coverage over all looks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import seedrandom from "seedrandom";
import { bettingConfidenceSequence } from "../analysis/stats/betting-cs.js";

const reference = JSON.parse(readFileSync(new URL("./fixtures/betting-cs-reference.json", import.meta.url), "utf8"));

test("equal to the numpy reference at every look, on four sequences and two levels", () => {
  for (const c of reference.cases) {
    const r = bettingConfidenceSequence(c.x, { alpha: c.alpha, grid: reference.grid, c: reference.c });
    for (let t = 0; t < c.x.length; t++) {
      assert.ok(Math.abs(r.lower[t] - c.lower[t]) < 1e-12, `${c.name}, α ${c.alpha}, look ${t + 1}: lower`);
      assert.ok(Math.abs(r.upper[t] - c.upper[t]) < 1e-12, `${c.name}, α ${c.alpha}, look ${t + 1}: upper`);
    }
  }
});

test("coverage over all looks: the sequence ever misses the mean in at most α of 300 replicates (+ 2 SE)", () => {
  const rng = seedrandom("betting-cs-coverage");
  let missed = 0;
  const R = 300;
  for (let r = 0; r < R; r++) {
    // Beta-like skewed observations with mean 0.3 (a mixture of 0, 1 and uniform draws).
    const x = Array.from({ length: 200 }, () => {
      const u = rng();
      return u < 0.2 ? 1 : u < 0.6 ? 0 : rng() * 0.5;
    });
    const mean = 0.2 + 0.4 * 0.25;
    const cs = bettingConfidenceSequence(x, { alpha: 0.05, grid: 400 });
    if (cs.lower.some((lo, t) => lo > mean || cs.upper[t] < mean)) missed++;
  }
  assert.ok(missed / R <= 0.05 + 2 * Math.sqrt((0.05 * 0.95) / R), `missed ${missed} of ${R}`);
});
