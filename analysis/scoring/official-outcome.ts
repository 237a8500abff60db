import type { Label } from "../schema/tables.js";
import { gradeAt } from "../schema/grades.js";
import { creditRatio } from "./credit-ratio.js";

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
  /**
   * The item's weight (schema_version 2), as the store gives it; absent: 1. The endpoint item of the
   * official-outcome step weighs the mean weight of the scored checklist (one average item).
   */
  weight?: number | null;
}

/**
 * The weight of the endpoint item: the mean weight of the items not left out (1 without weights). Weights stay
 * as given, not scaled to a mean of 1: equal credits of two tasks then tie exactly, as exact ratios would.
 */
export function endpointWeight(items: ReadonlyArray<ChecklistItemRoute>): number {
  let n = 0;
  let total = 0;
  for (let i = 0; i < items.length; i++)
    if (!items[i].left_out) {
      n++;
      total += items[i].weight ?? 1;
    }
  return n === 0 || total === n ? 1 : total / n;
}

const GRADE_OF_LABEL: Record<Label, number> = { Yes: 1, No: 0, Abstain: NaN };

/**
 * Item i's grade: 1 Yes, 0 No, a graded label's value; NaN for Abstain or not judged; -1 when the item does
 * not apply to the trajectory (analysis/schema/grades.ts). A run's label string is read in place.
 */
function gradeOf(labels: ReadonlyArray<Label | undefined> | string, i: number): number {
  if (typeof labels === "string") return gradeAt(labels, i);
  const label = labels[i];
  return label === undefined ? NaN : GRADE_OF_LABEL[label];
}

/** Status of one verifier test of the trajectory, by test id (from verifier_results). */
export type TestStatusLookup = (testId: string) => "passed" | "failed" | "skipped" | "other" | undefined;

/**
 * Counts of a run after the official-outcome step. With graded labels or item weights (schema_version 2)
 * each is a sum of weights (w·grade for `yes`); Yes/No labels without weights give the plain counts.
 */
export interface LabelCounts {
  /** Yes among decided items (endpoint included when appended); Σ w·grade. */
  yes: number;
  /** Decided (non-Abstain) items, endpoint included when appended; Σ w. */
  decided: number;
  /** Checklist items judged No after the step (endpoint excluded), Σ w·(1 − grade): Perfect needs this to be 0. */
  checklistNo: number;
  /** Checklist size |C_t| (endpoint excluded), not-applicable items left out; Σ w. */
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
    size = 0;
  const binary = outcome === "PASS" || outcome === "FAIL";
  for (let i = 0; i < items.length; i++) {
    if (items[i].left_out) continue;
    let grade = gradeOf(labels, i);
    if (grade === -1) continue; // not applicable: out of this trajectory's checklist
    const w = items[i].weight ?? 1;
    size += w;
    if (abstention === "forced_no" && Number.isNaN(grade)) grade = 0;
    if (binary && step.propagation && outcome === "PASS" && items[i].route === "assertion") grade = 1;
    if (
      binary &&
      step.perTest &&
      outcome === "FAIL" &&
      testStatus &&
      items[i].route === "assertion" &&
      items[i].assertion_ref
    ) {
      const status = testStatus(items[i].assertion_ref!);
      if (status === "passed") grade = 1;
      else if (status === "failed") grade = 0;
    }
    if (Number.isNaN(grade)) continue;
    // Graded labels (schema_version 2): an item adds its weighted grade; Yes and No are grades 1 and 0.
    yes += w * grade;
    decided += w;
  }
  // Credit short of full (No, or a grade below 1), as countsOfVariant counts it: 0 exactly when every grade is 1.
  const checklistNo = decided - yes;
  if (binary && step.endpoint) {
    const w = endpointWeight(items);
    decided += w;
    if (outcome === "PASS") yes += w;
  }
  return { yes, decided, checklistNo, items: size };
}

/** GCPC = Yes / decided (paper eq. 1), equal credits equal numbers (creditRatio); NaN when nothing is decided. */
export function gcpcOf(counts: LabelCounts): number {
  return counts.decided === 0 ? NaN : creditRatio(counts.yes, counts.decided);
}

/**
 * One run's labels counted by route, once: every variant of the official-outcome step and the abstention
 * rule without per-test propagation is arithmetic on these counts (see {@link countsOfVariant}), where
 * {@link countAfterOutcomeStep} walks the items once per variant (RQ4 scores every run under
 * six variants).
 */
export interface RouteCounts {
  /** Checklist items counted (Σ w; not-applicable and left-out items excluded). */
  items: number;
  /**
   * Assertion-route items, how many of them were decided (judged Yes, No or a grade) and their credit (Yes count;
   * Σ w·grade). The rest are Abstain or not judged. Decided is summed on its own, not as Yes + No: with graded or
   * weighted items Yes + No would miss the decided weight by a rounding, and equal credits would stop tying.
   */
  assertion: number;
  assertionYes: number;
  assertionDecided: number;
  /** The same for the other routes (generated, judge). */
  otherYes: number;
  otherDecided: number;
  /** The endpoint item's weight (endpointWeight): 1 without weights. */
  endpoint: number;
}

export function routeCounts(
  items: ReadonlyArray<ChecklistItemRoute>,
  labels: ReadonlyArray<Label | undefined> | string,
): RouteCounts {
  const c = {
    items: 0,
    assertion: 0,
    assertionYes: 0,
    assertionDecided: 0,
    otherYes: 0,
    otherDecided: 0,
    endpoint: endpointWeight(items),
  };
  for (let i = 0; i < items.length; i++) {
    if (items[i].left_out) continue;
    const grade = gradeOf(labels, i);
    if (grade === -1) continue; // not applicable
    const w = items[i].weight ?? 1;
    c.items += w;
    const decided = !Number.isNaN(grade);
    if (items[i].route === "assertion") {
      c.assertion += w;
      if (decided) {
        c.assertionYes += w * grade;
        c.assertionDecided += w;
      }
    } else if (decided) {
      c.otherYes += w * grade;
      c.otherDecided += w;
    }
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
  const otherAbstain = c.items - c.assertion - c.otherDecided;
  const assertionAbstain = c.assertion - c.assertionDecided;
  let yes = c.otherYes;
  let decided = c.otherDecided + (forced ? otherAbstain : 0);
  if (binary && step.propagation && outcome === "PASS") {
    yes += c.assertion;
    decided += c.assertion;
  } else {
    yes += c.assertionYes;
    decided += c.assertionDecided + (forced ? assertionAbstain : 0);
  }
  const checklistNo = decided - yes;
  if (binary && step.endpoint) {
    decided += c.endpoint;
    if (outcome === "PASS") yes += c.endpoint;
  }
  return { yes, decided, checklistNo, items: c.items };
}
