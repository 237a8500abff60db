// compare's score Δ (GCPC by default) over the same matched units as the pass rate.
import {
  bootstrapIntervals,
  degenerateMark,
  seedFor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite, withoutResidue } from "../../estimates/not-defined.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import type { ArmPair } from "./arm-pairs.js";
import type { ArmRow, ArmTable } from "./arm-table.js";
import { taskSums } from "./pass-rate-delta.js";

/** Mean of the finite scores of a side's slots (null when none has a score). */
function meanScore(rows: ArmRow[], slots: number[]): number | null {
  let s = 0;
  let n = 0;
  for (const k of slots) {
    const v = rows[k].score;
    if (v !== null) {
      s += v;
      n++;
    }
  }
  return n ? s / n : null;
}

/**
 * The score's Δ (partial credit, GCPC by default) paired like the pass rate: per matched unit the mean score of
 * b's attempts minus a's (units where a side has no score left out); the mean over units; a task-clustered
 * paired bootstrap CI; the task-level sign-flip test of each task's summed Δ (Monte Carlo unless the scores
 * share a small grid). Under task pairing it is the partial-credit answer the pass rate cannot give.
 */
export function scoreDelta(table: ArmTable, pairs: ArmPair[], settings: BootstrapSettings, figure: string) {
  const rows = table.rows;
  const kept = pairs
    .map((x) => ({ task: x.task, a: meanScore(rows, x.a), b: meanScore(rows, x.b) }))
    .filter((x): x is { task: string; a: number; b: number } => x.a !== null && x.b !== null);
  const method = table.method;
  if (kept.length === 0)
    return {
      method,
      estimate: null,
      ci: null,
      p: null,
      test: "no unit with a score on both sides",
      tasks: 0,
      units: 0,
    };
  const d = kept.map((x) => x.b - x.a);
  const { sum, count, clusters } = taskSums(d, kept);
  const flip = signFlipTest(sum, { seed: seedFor(settings, `${figure}:sign-flip`) });
  const base = {
    method,
    estimate: withoutResidue(d.reduce((x, y) => x + y, 0) / d.length),
    p: finite(flip.pValue),
    test: `each task's summed ${method} Δ is one unit of the ${flip.method}`,
    test_mc_se: flip.mc_se,
    tasks: clusters,
    units: d.length,
  };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator:
      `mean over matched units of mean ${method}(b) − mean ${method}(a); ` +
      "task-clustered paired percentile bootstrap (type-7)",
    statistics: { delta: (w) => weightedRatio(w, sum, count) },
  });
  return { ...base, ci: res.ci.delta, ...degenerateMark(res.bootstrap), bootstrap: res.bootstrap };
}
