import type { Label } from "../schema/tables.js";
import {
  countAfterOutcomeStep,
  countsOfVariant,
  gcpcOf,
  PLAIN,
  WITH_OFFICIAL_OUTCOME,
  type ChecklistItemRoute,
  type LabelCounts,
  type RouteCounts,
} from "./official-outcome.js";

/** Per-trajectory metrics of paper §3.4. NaN marks "undefined" (zero-evidence). */
export interface TrajectoryMetrics {
  /** Plain GCPC: log evidence only, neither outcome operation. NaN when zero-evidence. */
  gcpc: number;
  /** GCPC with official outcome (propagation + endpoint). Equals plain for non-binary trajectories. */
  gcpc_outcome: number;
  /** 1 if no checklist item is No after PASS propagation (endpoint excluded; Abstain is not a violation). */
  perfect: 0 | 1;
  /** Decided raw labels / checklist items. */
  coverage: number;
  /** Every checklist item Abstain (or unjudged). */
  zero_evidence: boolean;
  /** Raw counts behind plain GCPC, so differences can be compared exactly. */
  yes: number;
  decided: number;
  items: number;
}

export function trajectoryMetrics(
  items: ReadonlyArray<ChecklistItemRoute>,
  labels: ReadonlyArray<Label | undefined>,
  outcome: "PASS" | "FAIL" | null | undefined,
): TrajectoryMetrics {
  const plain = countAfterOutcomeStep(items, labels, outcome, PLAIN);
  const withOutcome = countAfterOutcomeStep(items, labels, outcome, WITH_OFFICIAL_OUTCOME);
  // Perfect: propagation first (on PASS), then look for a No among checklist items (rule 3).
  const propagated = countAfterOutcomeStep(items, labels, outcome, PROPAGATED);
  return metricsOfCounts(plain, withOutcome, propagated, plain.items);
}

const PROPAGATED = Object.freeze({ propagation: true, endpoint: false });

/**
 * {@link trajectoryMetrics} from a run's route counts (official-outcome.ts): the same three counts by
 * arithmetic (countsOfVariant equals countAfterOutcomeStep, tested), without walking the items three times
 * (the prepared store computes these for every trajectory, and keeps the route counts).
 */
export function metricsOfRouteCounts(c: RouteCounts, outcome: "PASS" | "FAIL" | null | undefined): TrajectoryMetrics {
  return metricsOfCounts(
    countsOfVariant(c, outcome, PLAIN),
    countsOfVariant(c, outcome, WITH_OFFICIAL_OUTCOME),
    countsOfVariant(c, outcome, PROPAGATED),
    c.items,
  );
}

function metricsOfCounts(
  plain: LabelCounts,
  withOutcome: LabelCounts,
  propagated: LabelCounts,
  items: number,
): TrajectoryMetrics {
  return {
    gcpc: gcpcOf(plain),
    gcpc_outcome: gcpcOf(withOutcome),
    perfect: propagated.checklistNo === 0 ? 1 : 0,
    coverage: items === 0 ? NaN : plain.decided / items,
    zero_evidence: plain.decided === 0,
    yes: plain.yes,
    decided: plain.decided,
    items,
  };
}
