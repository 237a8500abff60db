import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Label } from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/store.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { criterionEffects } from "../analysis/rq/criterion-effects.js";
import { signTestPValue } from "../analysis/stats/sign-test.js";

// Four FAIL→FAIL pairs of one task with four criteria (labels as Y/N/A strings, without → with):
//   i1: N→Y, N→Y, A→Y, Y→Y   → improved 3, regressed 0 → p = 2·(1/2)³ = 0.25
//   i2: Y→N, Y→A, Y→N, N→N   → improved 0, regressed 3 → p = 0.25
//   i3: N→Y, Y→N, Y→Y, A→A   → 1 vs 1                  → p = 1
//   i4: Y→Y ×4               → no discordant pair      → p null
function store(): Store {
  const without = ["NYNY", "NYYY", "AYYY", "YNAY"];
  const withSkill = ["YNYY", "YANY", "YNYY", "YNAY"];
  const map: Record<string, Label> = { Y: "Yes", N: "No", A: "Abstain" };
  const trajectories: Store["trajectories"] = [];
  const judgments: Store["judgments"] = [];
  for (const [k, [a, b]] of without.map((w, i) => [w, withSkill[i]] as const).entries()) {
    for (const [cond, labels, id] of [
      ["none", a, `n${k}`],
      ["curated", b, `c${k}`],
    ] as const) {
      trajectories.push({
        trajectory_id: id,
        task_id: "t",
        harness: "h",
        model: "m",
        condition: cond,
        trial: k + 1,
        outcome: "FAIL",
      });
      for (const [i, c] of [...labels].entries())
        judgments.push({ trajectory_id: id, item_id: `i${i + 1}`, label: map[c] });
    }
  }
  const items = [1, 2, 3, 4].map((i) => ({
    task_id: "t",
    item_id: `i${i}`,
    text: `criterion ${i}`,
    route: "judge" as const,
  }));
  return { manifest: { name: "criteria" }, tasks: [{ task_id: "t", benchmark: "b" }], items, trajectories, judgments };
}

test("per-criterion 2×2 counts and exact McNemar p (hand computed), BH over the items with a discordant pair", () => {
  const p = prepareStore(store());
  const pairs = [0, 1, 2, 3].map((k) => ({ task_id: "t", without_id: `n${k}`, with_id: `c${k}` }));
  const rows = criterionEffects(p, pairs);
  const by = Object.fromEntries(rows.map((r) => [r.item_id, r]));
  const near = (x: number | null, y: number) => x !== null && Math.abs(x - y) < 1e-12;
  assert.deepEqual([by.i1.improved, by.i1.regressed, near(by.i1.mcnemar_p, 0.25)], [3, 0, true]);
  assert.deepEqual([by.i2.improved, by.i2.regressed, near(by.i2.mcnemar_p, 0.25)], [0, 3, true]);
  assert.deepEqual([by.i3.improved, by.i3.regressed, near(by.i3.mcnemar_p, 1)], [1, 1, true]);
  assert.deepEqual([by.i4.improved, by.i4.regressed, by.i4.mcnemar_p, by.i4.bh_q], [0, 0, null, null]);
  // BH over m = 3: sorted p (0.25, 0.25, 1) → q = min over j ≥ i of 3·p(j)/j = (0.375, 0.375, 1).
  assert.ok(near(by.i1.bh_q, 0.375) && near(by.i2.bh_q, 0.375) && near(by.i3.bh_q, 1));
  assert.deepEqual(
    rows.map((r) => r.item_id),
    ["i1", "i2", "i3", "i4"],
  );
});

test("the McNemar p the criteria use equals R's binom.test on the discordant counts (mcnemar_reference.R)", () => {
  const cases: { b: number; c: number; p: number }[] = JSON.parse(
    readFileSync(new URL("./fixtures/mcnemar-reference.json", import.meta.url), "utf8"),
  );
  for (const c of cases) {
    const got = signTestPValue(Math.min(c.b, c.c), c.b + c.c);
    assert.ok(Math.abs(got - c.p) / c.p < 1e-9, `b=${c.b} c=${c.c}: ${got} vs ${c.p}`);
  }
});
