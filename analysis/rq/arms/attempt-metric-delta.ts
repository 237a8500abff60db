// compare's pass^k or pass@k Δ (issue 45.6): per matched cell, each arm's consistency (pass^k) or coverage (pass@k)
// over its own attempts in the cell, and the mean over cells of b − a.
import {
  bootstrapIntervals,
  degenerateMark,
  seedFor,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { attemptMetric, type AttemptMetric } from "../../stats/pass-at-k.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import type { ArmPair } from "./arm-pairs.js";
import type { ArmRow } from "./arm-table.js";
import { taskSums } from "./pass-rate-delta.js";

export interface AttemptMetricDelta {
  metric: AttemptMetric;
  k: number;
  /** Matched cells where both arms hold at least k attempts (the others are left out), and their tasks. */
  units: number;
  tasks: number;
  left_out: number;
  value_a: number | null;
  value_b: number | null;
  estimate: number | null;
  ci: [number, number] | null;
  degenerate?: true;
  p: number | null;
  test: string;
  estimator: string;
  bootstrap: BootstrapDescriptor | null;
}

/**
 * Per matched cell with n ≥ k attempts on both sides, the metric of each side over its n attempts with c passes
 * (analysis/stats/pass-at-k.ts); the mean over cells of b − a, a task-clustered percentile bootstrap of it and the
 * task-level sign-flip test of the tasks' summed differences. Cells are the task pairing's units (trial pairing
 * holds one attempt a side: only k = 1 is defined there).
 */
export function attemptMetricDelta(
  rows: readonly ArmRow[],
  pairs: readonly ArmPair[],
  o: { metric: AttemptMetric; k: number; settings: BootstrapSettings; figure: string },
): AttemptMetricDelta | NotAvailable {
  if (rows.every((r) => r.outcome === null)) return notAvailable(`${o.metric} needs a binary outcome (PASS/FAIL)`);
  const metricOf = (slots: readonly number[]) => {
    const binary = slots.filter((k) => rows[k].outcome !== null);
    const passes = binary.filter((k) => rows[k].outcome === "PASS").length;
    return attemptMetric(o.metric, binary.length, passes, o.k);
  };
  const kept: { task: string; a: number; b: number }[] = [];
  for (const x of pairs) {
    const a = metricOf(x.a);
    const b = metricOf(x.b);
    if (Number.isFinite(a) && Number.isFinite(b)) kept.push({ task: x.task, a, b });
  }
  if (kept.length === 0) return notAvailable(`${o.metric}: no matched cell holds ${o.k} or more attempts of both arms`);
  const d = kept.map((x) => x.b - x.a);
  const { sum, count, clusters } = taskSums(d, kept);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const flip = signFlipTest(sum, { seed: seedFor(o.settings, `${o.figure}:sign-flip`) });
  const estimator =
    `mean over matched cells with ≥ ${o.k} attempts of both arms of ${o.metric}(b) − ${o.metric}(a), each over ` +
    "the arm's own attempts in the cell; task-clustered paired percentile bootstrap (type-7)";
  const base = {
    metric: o.metric,
    k: o.k,
    units: kept.length,
    tasks: clusters,
    left_out: pairs.length - kept.length,
    value_a: mean(kept.map((x) => x.a)),
    value_b: mean(kept.map((x) => x.b)),
    estimate: mean(d),
    p: finite(flip.pValue),
    test: `each task's summed ${o.metric} Δ is one unit of the ${flip.method}`,
    estimator,
  };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings: o.settings,
    figure: o.figure,
    clusters,
    estimator,
    statistics: { delta: (w) => weightedRatio(w, sum, count) },
  });
  return { ...base, ci: res.ci.delta, ...degenerateMark(res.bootstrap), bootstrap: res.bootstrap };
}
