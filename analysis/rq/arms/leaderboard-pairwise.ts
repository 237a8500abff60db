// The leaderboard's pairwise tests among the top arms, Holm over their pairs, and the tie groups.
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { holm } from "../../stats/multiplicity.js";
import { startJobs, type JobRunner } from "../jobs.js";
import type { LeaderboardRow, PairwiseRow, Leaderboard } from "./leaderboard-types.js";
import type { Arm } from "./leaderboard-arms.js";
import { pairJob, type PairJob } from "./leaderboard-pair-job.js";

/** The arms the pairwise tests cover by default: the site's heat map and the CLI's table stay readable. */
export const PAIRWISE_TOP = 20;

/**
 * The pairwise tests among the top `o.top` arms by value (PAIRWISE_TOP by default), started on `runner` when given
 * (the other thread draws them while this one computes the rank intervals); `finish` gives them with Holm over their
 * pairs and their tie groups. The tested arms keep the arms' own order, so a pair's seed and draws are those of a
 * board of these arms alone. `order`: the arms by value, best first.
 */
export function startTopPairwise(
  arms: Arm[],
  order: number[],
  clusters: number,
  o: { top?: number; settings: BootstrapSettings; runner?: JobRunner },
  stage: (what: string) => void,
): {
  finish(rows: LeaderboardRow[]): {
    pairwise: PairwiseRow[];
    scope: Leaderboard["pairwise_scope"];
    tieGroups: string[][];
  };
} {
  const top = Math.min(o.top ?? PAIRWISE_TOP, arms.length);
  const topSet = new Set(order.slice(0, top));
  const tested = arms.filter((_, i) => topSet.has(i));
  if (top >= 2) stage(`${(top * (top - 1)) / 2} pairwise tests among the top ${top} arms`);
  const pending = startPairwiseRows(tested, clusters, o.settings, o.runner);
  return {
    finish(rows) {
      const pairwise = pending();
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
    },
  };
}

/** Every pair's test started (on `runner` when given); the function gives their rows with Holm's p. */
function startPairwiseRows(
  arms: Arm[],
  clusters: number,
  settings: BootstrapSettings,
  runner?: JobRunner,
): () => PairwiseRow[] {
  const jobs: PairJob[] = [];
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++) jobs.push(pairJob(arms[i], arms[j], clusters, settings));
  const pending = startJobs(jobs, runner);
  return () => {
    const rows = pending.wait() as PairwiseRow[];
    const adjusted = holm(rows.map((r) => r.p));
    return rows.map((r, k) => ({ ...r, p_holm: adjusted[k] }));
  };
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
