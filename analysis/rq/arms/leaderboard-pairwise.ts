// The leaderboard's pairwise tests among the top arms, Holm over their pairs, and the tie groups.
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
import { holm } from "../../stats/multiplicity.js";
import type { LeaderboardRow, PairwiseRow, Leaderboard } from "./leaderboard-types.js";
import type { Arm } from "./leaderboard-arms.js";

/** The arms the pairwise tests cover by default: the site's heat map and the CLI's table stay readable. */
export const PAIRWISE_TOP = 20;

/**
 * The pairwise tests among the top `o.top` arms by value (PAIRWISE_TOP by default), Holm over their pairs, and
 * their tie groups. The tested arms keep the arms' own order, so a pair's seed and draws are those of a board
 * of these arms alone.
 */
export function topPairwise(
  arms: Arm[],
  rows: LeaderboardRow[],
  order: number[],
  clusters: number,
  o: { top?: number; settings: BootstrapSettings },
  stage: (what: string) => void,
): { pairwise: PairwiseRow[]; scope: Leaderboard["pairwise_scope"]; tieGroups: string[][] } {
  const top = Math.min(o.top ?? PAIRWISE_TOP, arms.length);
  const topSet = new Set(order.slice(0, top));
  const tested = arms.filter((_, i) => topSet.has(i));
  if (top >= 2) stage(`${(top * (top - 1)) / 2} pairwise tests among the top ${top} arms`);
  const pairwise = pairwiseRows(tested, clusters, o.settings);
  return {
    pairwise,
    scope: {
      top,
      arms: arms.length,
      pairs: pairwise.length,
      note:
        top < arms.length
          ? `pairwise tests, Holm and tie groups among the top ${top} of ${arms.length} arms by value only ` +
            "(--top N); every arm keeps its interval and rank intervals"
          : null,
    },
    tieGroups: tieGroups(
      order.filter((i) => topSet.has(i)).map((i) => rows[i].arm),
      pairwise,
    ),
  };
}

export function pairwiseRows(arms: Arm[], clusters: number, settings: BootstrapSettings): PairwiseRow[] {
  const rows: PairwiseRow[] = [];
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++) rows.push(pairOf(arms[i], arms[j], clusters, settings));
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((r, k) => ({ ...r, p_holm: adjusted[k] }));
}

/** Two arms on their common tasks: per task, the difference of their means; averaged; clustered by task. */
export function pairOf(a: Arm, b: Arm, clusters: number, settings: BootstrapSettings): PairwiseRow {
  const common: number[] = [];
  for (let c = 0; c < clusters; c++) if (a.count[c] > 0 && b.count[c] > 0) common.push(c);
  const d = common.map((c) => a.sum[c] / a.count[c] - b.sum[c] / b.count[c]);
  const figure = `leaderboard:pair:${a.arm}|${b.arm}`;
  const flip = signFlipTest(d, { seed: seedFor(settings, `${figure}:sign-flip`) });
  const up = d.filter((x) => x > 0).length;
  const down = d.filter((x) => x < 0).length;
  const base = {
    row: a.arm,
    column: b.arm,
    tasks: common.length,
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

/**
 * The groups of consecutive arms (in value order) in which every pair has a Holm-adjusted p ≥ 0.05 (or none):
 * each arm starts the longest such run, and a run inside an earlier one is dropped. Groups may overlap, as
 * in a compact letter display: an arm between two separable ones can be tied with each.
 */
export function tieGroups(order: string[], pairwise: PairwiseRow[]): string[][] {
  const holmOf = new Map<string, number | null>();
  for (const r of pairwise) {
    holmOf.set(JSON.stringify([r.row, r.column]), r.p_holm);
    holmOf.set(JSON.stringify([r.column, r.row]), r.p_holm);
  }
  const pOf = (x: string, y: string) => holmOf.get(JSON.stringify([x, y])) ?? null;
  const tied = (x: string, y: string) => {
    const p = pOf(x, y);
    return p === null || p >= 0.05;
  };
  const groups: string[][] = [];
  let reach = -1;
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j + 1 < order.length && order.slice(i, j + 1).every((x) => tied(x, order[j + 1]))) j++;
    if (j > reach) groups.push(order.slice(i, j + 1));
    reach = Math.max(reach, j);
  }
  return groups;
}
