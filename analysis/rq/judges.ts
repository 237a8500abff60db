// `gcpc judges`: one store's judges in one place (issue 55.3: the README listed "judges" among what the workbench
// does, and the figures were spread over `report`'s rubric section and `leaderboard --judge-corrected`).
import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import type { PreparedStore } from "./prepared.js";
import { judgesVsReference, type JudgeVsReference } from "./rubric.js";
import { overviewArmFields } from "./arms/arm-fields.js";
import { leaderboard, type Leaderboard } from "./arms/leaderboard.js";

export interface JudgesReport {
  /** Every judge with labels, the primary (scoring) one and the reference one (null when the store names none). */
  judges: string[];
  primary_judge: string;
  reference_judge: string | null;
  /** Per judge against the reference: agreement, Cohen's and quadratic κ, α, sensitivity and specificity. */
  agreement: JudgeVsReference[] | NotAvailable;
  /** Each arm's mean GCPC corrected towards the reference judge (prediction-powered inference). */
  corrected: Leaderboard | NotAvailable;
}

/** The judges of a store: their agreement with the reference judge item by item, and the judge-corrected means. */
export function judgesReport(p: PreparedStore, settings: BootstrapSettings): JudgesReport {
  const reference = p.store.manifest.reference_judge ?? null;
  const by = overviewArmFields(p);
  const corrected = !reference
    ? notAvailable("store.json names no reference_judge: there is nothing to correct towards")
    : leaderboard(p, {
        by: by.length ? by : ["harness", "model"],
        metric: "gcpc",
        settings,
        corrected: {},
        pairwise: false,
      });
  return {
    judges: p.counts.judges,
    primary_judge: p.primaryJudge,
    reference_judge: reference,
    agreement: judgesVsReference(p, settings),
    corrected,
  };
}
