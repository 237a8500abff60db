// The item × arm Yes rates of the Compare page's heat map: Wilson intervals against scipy, counts by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { wilsonInterval } from "../analysis/stats/wilson.js";
import { itemArmRates } from "../analysis/rq/arms/item-arm-rates.js";
import { armTable } from "../analysis/rq/arms/compare-arms.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";

const reference: { cases: { k: number; n: number; low: number; high: number }[] } = JSON.parse(
  readFileSync(new URL("fixtures/wilson-reference.json", import.meta.url), "utf8"),
);

test("Wilson score interval equals scipy's binomtest(k, n).proportion_ci(method='wilson') to 1e-12", () => {
  for (const { k, n, low, high } of reference.cases) {
    const ci = wilsonInterval(k, n)!;
    assert.ok(Math.abs(ci[0] - low) < 1e-12 && Math.abs(ci[1] - high) < 1e-12, `${k}/${n}: ${ci} vs ${low}, ${high}`);
  }
  assert.equal(wilsonInterval(0, 0), null);
});

test("item × arm rates: Yes among decided, Abstain left out, marks where the interval excludes the others' rate", () => {
  // Task t0 with items i1, i2. Model A: 20 attempts, i1 Yes in all, i2 Abstain in 5 and No in 15.
  // Model B: 20 attempts, i1 No in all, i2 No in all.
  const rows: SmallTrajectory[] = [];
  for (let n = 0; n < 20; n++) {
    rows.push({ task: "t0", outcome: "PASS", labels: ["Yes", n < 5 ? "Abstain" : "No"], model: "A", trial: n });
    rows.push({ task: "t0", outcome: "FAIL", labels: ["No", "No"], model: "B", trial: n });
  }
  const table = armTable(prepareStore(smallStore("s", rows)));
  assert.ok(!("available" in table));
  const r = itemArmRates(table, { field: "model" });
  assert.deepEqual(r.arms, ["A", "B"]);
  const [i1, i2] = r.rows; // i1's spread (1) sorts it first
  assert.equal(i1.key, "t0:i1");
  assert.deepEqual(
    [i1.cells.A.yes, i1.cells.A.decided, i1.cells.A.rate, i1.cells.A.differs],
    [20, 20, 1, "above"], // Wilson [0.839, 1] excludes B's 0
  );
  assert.deepEqual([i1.cells.B.rate, i1.cells.B.differs], [0, "below"]);
  assert.equal(i1.spread, 1);
  assert.deepEqual([i2.cells.A.decided, i2.cells.A.abstain, i2.cells.A.rate], [15, 5, 0]);
  // Both arms at 0: A's interval [0, 0.204] holds B's 0, so nothing is marked.
  assert.deepEqual([i2.cells.A.differs, i2.cells.B.differs, i2.spread], [null, null, 0]);
  assert.deepEqual(i1.cells.A.ci, wilsonInterval(20, 20));
});
