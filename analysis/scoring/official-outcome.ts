import type { Label } from "../schema/tables.js";
import { labelAt } from "../schema/label-vectors.js";

/**
 * The official-outcome step (paper §3.3), each operation switchable for the
 * RQ4 ablation. Applied after judging:
 *  - PASS propagation: on PASS, assertion-route items are set to Yes;
 *  - endpoint: one virtual item is appended, Yes on PASS, No on FAIL.
 * Non-binary trajectories (outcome null) get no step at all (contract rule 3).
 */
export interface OutcomeStep {
  propagation: boolean;
  endpoint: boolean;
  /**
   * Extension ("per-test propagation"): on FAIL, an assertion-route
   * item whose assertion_ref has a verifier result is set from it (passed →
   * Yes, failed → No). The paper notes the endpoint alone cannot do this;
   * per-test reports (CTRF) can. Needs `testStatus` in the call.
   */
  perTest?: boolean;
}
export const PLAIN: OutcomeStep = Object.freeze({ propagation: false, endpoint: false });
export const WITH_OFFICIAL_OUTCOME: OutcomeStep = Object.freeze({ propagation: true, endpoint: true });

/** How Abstain is treated: the primary rule excludes it; the RQ4 sensitivity recodes it as No. */
export type AbstentionRule = "exclude" | "forced_no";

export interface ChecklistItemRoute {
  route: "assertion" | "generated" | "judge";
  assertion_ref?: string | null;
  /**
   * Left out of the score (its label position stays): an outcome-determining item of a store that also
   * has outcome-free items, so that GCPC is outcome-free by default (docs/verdict-store.md, determines_outcome).
   */
  left_out?: boolean;
}

/** The checklist size |C_t| a score counts: the items not left out. */
export function scoredItems(items: ReadonlyArray<ChecklistItemRoute>): number {
  let n = 0;
  for (let i = 0; i < items.length; i++) if (!items[i].left_out) n++;
  return n;
}

/** Status of one verifier test of the trajectory, by test id (from verifier_results). */
export type TestStatusLookup = (testId: string) => "passed" | "failed" | "skipped" | "other" | undefined;

export interface LabelCounts {
  /** Yes among decided items (endpoint included when appended). */
  yes: number;
  /** Decided (non-Abstain) items, endpoint included when appended. */
  decided: number;
  /** Checklist items judged No after the step (endpoint excluded): Perfect needs this. */
  checklistNo: number;
  /** Checklist size |C_t| (endpoint excluded). */
  items: number;
}

/**
 * Counts Yes / decided after the official-outcome step. `labels[i]` is the
 * judged label of `items[i]` (or its character, when `labels` is a run's label
 * string); a missing judgment counts as Abstain (no evidence was recorded for it).
 */
export function countAfterOutcomeStep(
  items: ReadonlyArray<ChecklistItemRoute>,
  labels: ReadonlyArray<Label | undefined> | string,
  outcome: "PASS" | "FAIL" | null | undefined,
  step: OutcomeStep,
  abstention: AbstentionRule = "exclude",
  testStatus?: TestStatusLookup,
): LabelCounts {
  let yes = 0,
    decided = 0,
    checklistNo = 0;
  const binary = outcome === "PASS" || outcome === "FAIL";
  for (let i = 0; i < items.length; i++) {
    if (items[i].left_out) continue;
    // A run's label string (label-vectors.ts) is read in place: RQ4 scores millions of runs.
    let label: Label = (typeof labels === "string" ? labelAt(labels, i) : labels[i]) ?? "Abstain";
    if (abstention === "forced_no" && label === "Abstain") label = "No";
    if (binary && step.propagation && outcome === "PASS" && items[i].route === "assertion") label = "Yes";
    if (
      binary &&
      step.perTest &&
      outcome === "FAIL" &&
      testStatus &&
      items[i].route === "assertion" &&
      items[i].assertion_ref
    ) {
      const status = testStatus(items[i].assertion_ref!);
      if (status === "passed") label = "Yes";
      else if (status === "failed") label = "No";
    }
    if (label === "Yes") {
      yes++;
      decided++;
    } else if (label === "No") {
      decided++;
      checklistNo++;
    }
  }
  if (binary && step.endpoint) {
    decided++;
    if (outcome === "PASS") yes++;
  }
  return { yes, decided, checklistNo, items: scoredItems(items) };
}

/** GCPC = Yes / decided (paper eq. 1); NaN when nothing is decided. */
export function gcpcOf(counts: LabelCounts): number {
  return counts.decided === 0 ? NaN : counts.yes / counts.decided;
}

/**
 * One run's labels counted by route, once: every variant of the official-outcome step and the abstention
 * rule without per-test propagation is arithmetic on these counts (see {@link countsOfVariant}), where
 * {@link countAfterOutcomeStep} walks the items once per variant (RQ4 scores every run under
 * six variants).
 */
export interface RouteCounts {
  items: number;
  /** Assertion-route items, and how many of them were judged Yes and No (the rest are Abstain or not judged). */
  assertion: number;
  assertionYes: number;
  assertionNo: number;
  /** The same for the other routes (generated, judge). */
  otherYes: number;
  otherNo: number;
}

export function routeCounts(
  items: ReadonlyArray<ChecklistItemRoute>,
  labels: ReadonlyArray<Label | undefined> | string,
): RouteCounts {
  const c = { items: scoredItems(items), assertion: 0, assertionYes: 0, assertionNo: 0, otherYes: 0, otherNo: 0 };
  for (let i = 0; i < items.length; i++) {
    if (items[i].left_out) continue;
    const label = typeof labels === "string" ? labelAt(labels, i) : labels[i];
    if (items[i].route === "assertion") {
      c.assertion++;
      if (label === "Yes") c.assertionYes++;
      else if (label === "No") c.assertionNo++;
    } else if (label === "Yes") c.otherYes++;
    else if (label === "No") c.otherNo++;
  }
  return c;
}

/**
 * {@link countAfterOutcomeStep} from a run's route counts, for a variant that does not apply per-test
 * propagation (`perTest` on a FAIL with test results walks the items: it depends on each item's test).
 * The same rules in the same order: Abstain (or not judged) becomes No under "forced_no"; on PASS,
 * propagation makes every assertion-route item Yes; the endpoint adds one decided item, Yes on PASS.
 */
export function countsOfVariant(
  c: RouteCounts,
  outcome: "PASS" | "FAIL" | null | undefined,
  step: OutcomeStep,
  abstention: AbstentionRule = "exclude",
): LabelCounts {
  const binary = outcome === "PASS" || outcome === "FAIL";
  const forced = abstention === "forced_no";
  const otherAbstain = c.items - c.assertion - c.otherYes - c.otherNo;
  const assertionAbstain = c.assertion - c.assertionYes - c.assertionNo;
  let yes = c.otherYes;
  let no = c.otherNo + (forced ? otherAbstain : 0);
  if (binary && step.propagation && outcome === "PASS") yes += c.assertion;
  else {
    yes += c.assertionYes;
    no += c.assertionNo + (forced ? assertionAbstain : 0);
  }
  let decided = yes + no;
  if (binary && step.endpoint) {
    decided++;
    if (outcome === "PASS") yes++;
  }
  return { yes, decided, checklistNo: no, items: c.items };
}
