import { test } from "node:test";
import assert from "node:assert/strict";
import { trajectoryMetrics } from "../analysis/scoring/trajectory-metrics.js";
import { countAfterOutcomeStep, gcpcOf } from "../analysis/scoring/official-outcome.js";
import type { Label } from "../analysis/schema/tables.js";

const assertion = { route: "assertion" as const },
  judge = { route: "judge" as const };
const nine = Array.from({ length: 9 }, () => assertion);

test("paper §3.3: nine Yes with an official FAIL → plain 1.000, with outcome 0.900", () => {
  const m = trajectoryMetrics(nine, Array(9).fill("Yes"), "FAIL");
  assert.equal(m.gcpc, 1);
  assert.equal(m.gcpc_outcome, 0.9);
  assert.equal(m.perfect, 1); // endpoint excluded from Perfect
});

test("paper Figure 1(a): 3, 5 and 9 of 9 items on FAIL → 0.300, 0.500, 0.900 with outcome", () => {
  for (const [yes, expected] of [
    [3, 0.3],
    [5, 0.5],
    [9, 0.9],
  ] as const) {
    const labels: Label[] = Array.from({ length: 9 }, (_, i) => (i < yes ? "Yes" : "No"));
    assert.equal(trajectoryMetrics(nine, labels, "FAIL").gcpc_outcome, expected);
  }
});

test("PASS propagation sets assertion items to Yes; judge items keep their label", () => {
  const items = [assertion, assertion, judge];
  const labels: Label[] = ["No", "Abstain", "No"];
  const prop = countAfterOutcomeStep(items, labels, "PASS", { propagation: true, endpoint: false });
  assert.deepEqual([prop.yes, prop.decided], [2, 3]);
  const both = countAfterOutcomeStep(items, labels, "PASS", { propagation: true, endpoint: true });
  assert.equal(gcpcOf(both), 3 / 4);
  // Perfect: after propagation the judge item is still No → 0
  assert.equal(trajectoryMetrics(items, labels, "PASS").perfect, 0);
});

test("Abstain is excluded from the denominator and is not a Perfect violation", () => {
  const m = trajectoryMetrics([judge, judge, judge, judge], ["Yes", "Abstain", "No", "Abstain"], "FAIL");
  assert.equal(m.gcpc, 0.5);
  assert.equal(m.coverage, 0.5);
  assert.equal(m.perfect, 0);
  assert.equal(trajectoryMetrics([judge, judge], ["Yes", "Abstain"], "FAIL").perfect, 1);
});

test("all Abstain is zero-evidence: plain GCPC undefined, with outcome only the endpoint", () => {
  const m = trajectoryMetrics([judge, judge], ["Abstain", undefined], "FAIL");
  assert.equal(m.zero_evidence, true);
  assert.ok(Number.isNaN(m.gcpc));
  assert.equal(m.gcpc_outcome, 0);
  assert.equal(m.coverage, 0);
});

test("non-binary trajectories get no official-outcome step (rule 3)", () => {
  const m = trajectoryMetrics([assertion, judge], ["No", "Yes"], null);
  assert.equal(m.gcpc, 0.5);
  assert.equal(m.gcpc_outcome, 0.5);
  assert.equal(m.perfect, 0);
});

test("forced verdict recodes every Abstain as No", () => {
  const c = countAfterOutcomeStep(
    [judge, judge, judge],
    ["Yes", "Abstain", "Abstain"],
    "FAIL",
    { propagation: false, endpoint: false },
    "forced_no",
  );
  assert.equal(gcpcOf(c), 1 / 3);
});

test("per-test propagation sets assertion items from their test's status on FAIL only", () => {
  const items = [
    { route: "assertion" as const, assertion_ref: "t1" },
    { route: "assertion" as const, assertion_ref: "t2" },
    { route: "assertion" as const, assertion_ref: "t3" },
    { route: "judge" as const },
  ];
  const status = (id: string) => (({ t1: "passed", t2: "failed" }) as Record<string, "passed" | "failed">)[id];
  const labels: Label[] = ["No", "Yes", "Abstain", "No"];
  // FAIL: t1 passed → Yes, t2 failed → No, t3 has no result → stays Abstain; judge item untouched → 1 Yes of 3 decided
  const c = countAfterOutcomeStep(
    items,
    labels,
    "FAIL",
    { propagation: true, endpoint: false, perTest: true },
    "exclude",
    status,
  );
  assert.deepEqual([c.yes, c.decided], [1, 3]);
  // without perTest the FAIL labels are unchanged: 1 Yes of 3 decided (Yes, No, No)
  const plain = countAfterOutcomeStep(items, labels, "FAIL", { propagation: true, endpoint: false }, "exclude", status);
  assert.deepEqual([plain.yes, plain.decided], [1, 3]);
  // PASS: ordinary propagation (every assertion item Yes)
  const pass = countAfterOutcomeStep(
    items,
    labels,
    "PASS",
    { propagation: true, endpoint: false, perTest: true },
    "exclude",
    status,
  );
  assert.deepEqual([pass.yes, pass.decided], [3, 4]);
});
