// compare's pass-rate Δ over matched units: the mean of the units' differences, its task-clustered paired
// bootstrap and the exact paired test (McNemar for one trial pair per task, else the task-level sign-flip test).
import { bootstrapIntervals, seedFor, type BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { finite, withoutResidue } from "../../estimates/not-defined.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import { signTestPValue } from "../../stats/sign-test.js";
import { taskClusters } from "../common.js";
import type { ArmPair, Pairing } from "./arm-pairs.js";
import type { ArmRow } from "./arm-table.js";

/** What a comparison without any binary outcome says of the pass rate and the transitions, in one line. */
export const NO_OUTCOME = "the store has no binary outcome (PASS/FAIL): the pass rate and its transitions need one";

/** The pass-rate Δ of a store with no outcome: its reason, no figure. */
export function noPassRateDelta() {
  return {
    rate_a: null,
    rate_b: null,
    estimate: null,
    ci: null,
    p: null,
    test: NO_OUTCOME,
    clustered: false,
    bootstrap: null,
    reason: NO_OUTCOME,
  };
}

const passOf = (rows: ArmRow[], slots: number[]) =>
  slots.reduce((n, k) => n + (rows[k].outcome === "PASS" ? 1 : 0), 0) / slots.length;

/** Per task (dense clusters in order of first appearance): the sum of the units' Δ and their count. */
export function taskSums(d: readonly number[], units: readonly { task: string }[]) {
  const { clusterOf, clusters } = taskClusters(units.map((x) => x.task));
  const sum = new Float64Array(clusters);
  const count = new Float64Array(clusters);
  d.forEach((x, i) => {
    sum[clusterOf[i]] += x;
    count[clusterOf[i]]++;
  });
  return { sum, count, clusters };
}

/** Mean over pairs of pass(b) − pass(a); a task-clustered bootstrap of that mean; the exact paired test. */
export function passRateDelta(
  rows: ArmRow[],
  pairs: ArmPair[],
  mode: Pairing,
  settings: BootstrapSettings,
  figure: string,
) {
  const rateA = pairs.map((x) => passOf(rows, x.a));
  const rateB = pairs.map((x) => passOf(rows, x.b));
  const d = pairs.map((_, i) => rateB[i] - rateA[i]);
  const { sum, count, clusters } = taskSums(d, pairs);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const estimate = withoutResidue(mean(d));
  const test = pairedTest(d, sum, count, mode, seedFor(settings, `${figure}:sign-flip`));
  const base = {
    rate_a: mean(rateA),
    rate_b: mean(rateB),
    estimate,
    p: finite(test.p),
    test: test.name,
    clustered: test.clustered,
  };
  if (clusters < 2) return { ...base, ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator: "mean over matched units of pass(b) − pass(a); task-clustered paired percentile bootstrap (type-7)",
    statistics: { delta: (w) => weightedRatio(w, sum, count) },
  });
  return { ...base, ci: res.ci.delta, bootstrap: res.bootstrap };
}

/**
 * The paired test of the pass-rate Δ. Trial pairs, one per task: exact McNemar. Several pairs in a task
 * (repeated attempts, or several cells), or task pairing: the units are not independent, so the test is the
 * task-level sign-flip test of each task's summed difference D_t = Σ (pass(b) − pass(a)) over its pairs
 * (its discordance FAIL→PASS − PASS→FAIL under trial pairing), exact on the grid of the task means.
 */
function pairedTest(
  d: number[],
  perTask: Float64Array,
  count: Float64Array,
  mode: Pairing,
  seed: string,
): { p: number; name: string; clustered: boolean } {
  const clusters = count.length;
  const repeated = count.reduce((n, c) => n + (c > 1 ? 1 : 0), 0);
  if (mode === "trial" && repeated === 0) {
    const up = d.filter((x) => x > 0).length;
    const down = d.filter((x) => x < 0).length;
    return {
      p: up + down === 0 ? NaN : signTestPValue(Math.min(up, down), up + down),
      name: `exact McNemar (binomial on the ${up + down} discordant pairs: ${up} FAIL→PASS, ${down} PASS→FAIL)`,
      clustered: false,
    };
  }
  const flip = signFlipTest(perTask, { seed });
  const what =
    mode === "trial"
      ? `task-clustered: ${repeated} of ${clusters} tasks hold several trial pairs, which are not independent, so ` +
        "each task's discordance (FAIL→PASS − PASS→FAIL) is one unit of"
      : "each task's summed per-cell pass-rate difference is one unit of";
  return { p: flip.pValue, name: `${what} the ${flip.method}`, clustered: true };
}
