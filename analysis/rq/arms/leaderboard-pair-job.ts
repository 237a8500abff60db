// One of the leaderboard's pairwise tests as plain data, so that it runs on either thread (analysis/rq/jobs.ts).
import {
  bootstrapIntervals,
  degenerateMark,
  seedFor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite, withoutResidue } from "../../estimates/not-defined.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import { signTestPValue } from "../../stats/sign-test.js";
import type { PairwiseRow } from "./leaderboard-types.js";
import type { Arm } from "./leaderboard-arms.js";

/** Two arms' differences on their common tasks, and what seeds the pair's draws (its figure's name). */
export interface PairJob {
  kind: "leaderboard-pair";
  row: string;
  column: string;
  /** Per common task (in task order): the first arm's task mean less the second's. */
  d: Float64Array;
  settings: BootstrapSettings;
}

/** Two arms on their common tasks: per task, the difference of their means. */
export function pairJob(a: Arm, b: Arm, clusters: number, settings: BootstrapSettings): PairJob {
  const common: number[] = [];
  for (let c = 0; c < clusters; c++) if (a.count[c] > 0 && b.count[c] > 0) common.push(c);
  const d = Float64Array.from(common, (c) => a.sum[c] / a.count[c] - b.sum[c] / b.count[c]);
  return { kind: "leaderboard-pair", row: a.arm, column: b.arm, d, settings };
}

/** The pair's row: the differences averaged, clustered by task (Holm is applied over the pairs afterwards). */
export function pairRow({ row, column, d, settings }: PairJob): PairwiseRow {
  const figure = `leaderboard:pair:${row}|${column}`;
  const flip = signFlipTest(d, { seed: seedFor(settings, `${figure}:sign-flip`) });
  const up = d.filter((x) => x > 0).length;
  const down = d.filter((x) => x < 0).length;
  const base = {
    row,
    column,
    tasks: d.length,
    p_holm: null,
    test: { method: flip.method, exact: flip.exact, mc_se: flip.mc_se },
    sign_test_p: up + down === 0 ? null : finite(signTestPValue(Math.min(up, down), up + down)),
  };
  if (d.length === 0) return { ...base, delta: null, ci: null, p: null };
  const delta = withoutResidue(d.reduce((x, y) => x + y, 0) / d.length);
  const p = finite(flip.pValue);
  if (d.length < 2) return { ...base, delta, ci: null, p };
  // One unit per common task: the draw's mean of d is Σ w·d / Σ w.
  const ones = new Float64Array(d.length).fill(1);
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters: d.length,
    estimator: "mean over common tasks of the difference of the arms' task means; task-clustered percentile bootstrap",
    statistics: {
      delta: (w) => weightedRatio(w, d, ones),
    },
  });
  return { ...base, delta, ci: res.ci.delta, ...degenerateMark(res.bootstrap), p };
}
