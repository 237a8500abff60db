import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  countAfterOutcomeStep,
  countsOfVariant,
  routeCounts,
  type AbstentionRule,
  type ChecklistItemRoute,
} from "../analysis/scoring/official-outcome.js";
import type { Label } from "../analysis/schema/tables.js";
import { metricsOfRouteCounts, trajectoryMetrics } from "../analysis/scoring/trajectory-metrics.js";
import { RouteCountsTable } from "../analysis/scoring/route-counts-table.js";

const STEPS = [
  { propagation: false, endpoint: false },
  { propagation: false, endpoint: true },
  { propagation: true, endpoint: false },
  { propagation: true, endpoint: true },
  // Per-test propagation without test results (or on PASS) is the plain step: the arithmetic must agree.
  { propagation: true, endpoint: true, perTest: true },
];
const RULES: AbstentionRule[] = ["exclude", "forced_no"];
const OUTCOMES = ["PASS", "FAIL", null, undefined] as const;

const item = fc.record({
  route: fc.constantFrom("assertion", "generated", "judge"),
}) as fc.Arbitrary<ChecklistItemRoute>;
const label = fc.constantFrom<Label | undefined>("Yes", "No", "Abstain", undefined);

test("route counts give countAfterOutcomeStep's counts for every variant without per-test results", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(item, label), { maxLength: 14 }), fc.constantFrom(...OUTCOMES), (rows, outcome) => {
      const items = rows.map(([i]) => i);
      const labels = rows.map(([, l]) => l);
      // The same run as a label string (Y, N, A; "." not judged), as the store holds it.
      const text = labels.map((l) => (l === "Yes" ? "Y" : l === "No" ? "N" : l === "Abstain" ? "A" : ".")).join("");
      for (const source of [labels, text]) {
        const c = routeCounts(items, source);
        for (const step of STEPS)
          for (const rule of RULES)
            assert.deepEqual(
              countsOfVariant(c, outcome, step, rule),
              countAfterOutcomeStep(items, source, outcome, step, rule),
              JSON.stringify({ rows, outcome, step, rule }),
            );
      }
    }),
    { numRuns: 2000, seed: 20261201 },
  );
});

test("a hand-counted run: 2 assertion items (Yes, Abstain), 2 other (No, not judged), on PASS", () => {
  const items: ChecklistItemRoute[] = [
    { route: "assertion" },
    { route: "assertion" },
    { route: "judge" },
    { route: "generated" },
  ];
  const c = routeCounts(items, "YAN.");
  assert.deepEqual(c, {
    items: 4,
    assertion: 2,
    assertionYes: 1,
    assertionDecided: 1,
    otherYes: 0,
    otherDecided: 1,
    endpoint: 1,
  });
  // Plain: Yes 1 of decided 2 (the Abstain and the unjudged item are excluded).
  assert.deepEqual(countsOfVariant(c, "PASS", { propagation: false, endpoint: false }), {
    yes: 1,
    decided: 2,
    checklistNo: 1,
    items: 4,
  });
  // Propagation and endpoint on PASS: both assertion items Yes, the endpoint Yes: 3 of 4.
  assert.deepEqual(countsOfVariant(c, "PASS", { propagation: true, endpoint: true }), {
    yes: 3,
    decided: 4,
    checklistNo: 1,
    items: 4,
  });
  // Forced No on FAIL with the endpoint: the Abstain and the unjudged item become No; Yes 1 of 5.
  assert.deepEqual(countsOfVariant(c, "FAIL", { propagation: true, endpoint: true }, "forced_no"), {
    yes: 1,
    decided: 5,
    checklistNo: 3,
    items: 4,
  });
});

test("metrics from route counts equal trajectoryMetrics (paper §3.4) for every outcome", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(item, label), { maxLength: 14 }), fc.constantFrom(...OUTCOMES), (rows, outcome) => {
      const items = rows.map(([i]) => i);
      const labels = rows.map(([, l]) => l);
      assert.deepEqual(
        metricsOfRouteCounts(routeCounts(items, labels), outcome),
        trajectoryMetrics(items, labels, outcome),
        JSON.stringify({ rows, outcome }),
      );
    }),
    { numRuns: 2000, seed: 20261202 },
  );
});

test("the route counts table gives back each slot's counts", () => {
  const table = new RouteCountsTable(3);
  const c = { items: 9, assertion: 4, assertionYes: 2, assertionDecided: 3, otherYes: 3, otherDecided: 3, endpoint: 1 };
  table.set(1, c);
  assert.deepEqual(table.at(1), c);
  assert.deepEqual(table.at(0), {
    items: 0,
    assertion: 0,
    assertionYes: 0,
    assertionDecided: 0,
    otherYes: 0,
    otherDecided: 0,
    endpoint: 0,
  });
});
