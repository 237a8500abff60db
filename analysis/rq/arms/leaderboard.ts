import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { compareCodePoints } from "../../order.js";
import { taskClusters } from "../common.js";
import { fieldOf, type ArmField, type Selector } from "./compare-arms.js";
import { methodScoreMaps } from "../method-scores.js";
import { isBinary, type PreparedStore } from "../prepared.js";
import { PLAIN } from "../../scoring/official-outcome.js";
import type { CorrectionOptions } from "./judge-corrected.js";
import type { LeaderboardMetric, Leaderboard } from "./leaderboard-types.js";
import { groupArms, perTaskAttempts, ratio, type Arm } from "./leaderboard-arms.js";
import type { JobRunner } from "../jobs.js";
import { rankIntervals } from "./leaderboard-ranks.js";
import { armRows } from "./leaderboard-rows.js";
import { startTopPairwise } from "./leaderboard-pairwise.js";
import { correctionRefused, correctRows } from "./leaderboard-correction.js";

export type { LeaderboardMetric, LeaderboardRow, PairwiseRow, Leaderboard } from "./leaderboard-types.js";
export { PAIRWISE_TOP } from "./leaderboard-pairwise.js";

/** What the GCPC of an arm is: the weighted form in a store whose items carry weights. */
const gcpcName = (p: PreparedStore) => (p.unweightedGcpc ? "mean weighted GCPC (Σ w·grade / Σ w)" : "mean GCPC");

export function leaderboard(
  p: PreparedStore,
  o: {
    by: ArmField[];
    metric?: LeaderboardMetric;
    /** pass^k and pass@k: the k (attempts drawn per task). */
    k?: number;
    /** GCPC: every trajectory scored by this judge's labels (run 1), instead of each one's scoring judge. */
    judge?: string;
    settings: BootstrapSettings;
    where?: Selector;
    /** false: no pairwise tests (nor tie groups), the arms' values and ranks only (the report's first section). */
    pairwise?: boolean;
    /** Pairwise tests among the top N arms by value only (default PAIRWISE_TOP): N arms make N(N − 1)/2 tests. */
    top?: number;
    /** Called as each stage starts (the CLI's progress lines). */
    stage?: (what: string) => void;
    /** GCPC only: each arm's mean corrected towards the store's reference judge (prediction-powered inference). */
    corrected?: CorrectionOptions;
    /** Another thread for the pairwise tests (the same rows without it: each pair is seeded by its figure). */
    runner?: JobRunner;
  },
): Leaderboard | NotAvailable {
  const stage = o.stage ?? (() => undefined);
  const metric = o.metric ?? "pass_rate";
  const gcpc = methodScoreMaps(p).get("gcpc")!;
  const judge = o.judge;
  if (judge !== undefined && !p.counts.judges.includes(judge))
    return notAvailable(`no judge "${judge}" in the store (its judges: ${p.counts.judges.join(", ") || "none"})`);
  const scoreOf = (k: number) => {
    const t = p.trajectories[k];
    if (metric !== "gcpc") return t.outcome === "PASS" ? 1 : 0;
    return judge === undefined ? (gcpc.get(t.trajectory_id) ?? NaN) : p.scoreAt(k, PLAIN, "exclude", judge);
  };
  const where = Object.entries(o.where ?? {}) as [ArmField, string][];
  const kept = (k: number) => where.every(([f, v]) => fieldOf(p, p.trajectories[k], f) === v);
  // GCPC is a property of the checklist labels: a trajectory with no binary outcome (a rubric table imported
  // without --outcome) has one all the same. Only the pass rate needs the outcome.
  const needsOutcome = metric !== "gcpc";
  const slots = p.trajectories
    .map((_, k) => k)
    .filter((k) => (!needsOutcome || isBinary(p.trajectories[k])) && Number.isFinite(scoreOf(k)) && kept(k));
  if (slots.length === 0)
    return notAvailable(`no trajectory with a ${metric === "gcpc" ? "GCPC score" : "binary outcome"}`);
  const { clusterOf, clusters, ids } = taskClusters(slots.map((k) => p.trajectories[k].task_id));
  let arms = groupArms(p, slots, o.by, scoreOf, clusterOf, clusters);
  let attempted: { ran: number; k: number }[] | undefined;
  if (metric === "pass^k" || metric === "pass@k") {
    const scored = attemptArms(arms, metric, o.k ?? NaN);
    if ("available" in scored) return scored;
    ({ arms, attempted } = scored);
  }
  // One arm is a leaderboard of one row (no pairs, no joint sets): the Real evaluations page lists every arm.
  stage(`rank intervals of ${arms.length} arms over ${ids.length} tasks (${o.settings.resamples} resamples)`);
  // The pairwise tests start first, so that a runner's thread draws them while this one draws the rank intervals.
  const order = byValue(arms);
  const pending = o.pairwise === false ? null : startTopPairwise(arms, order, clusters, o, stage);
  const ranks = rankIntervals(arms, clusters, o.settings);
  const rows = armRows(arms, ranks, attempted);
  const tests = pending?.finish(rows) ?? null;
  let correction: Leaderboard["correction"];
  if (o.corrected) {
    const refused = correctionRefused(p, metric, judge);
    if (refused) return refused;
    const done = correctRows(p, arms, rows, clusters, scoreOf, o.settings, o.corrected, stage);
    if ("available" in done) return done;
    correction = done;
  }
  return {
    by: o.by,
    where: o.where ?? {},
    metric,
    estimator:
      `${metricName(p, metric, o.k)}${judge === undefined ? "" : ` (every trajectory scored by judge ${judge})`}; ` +
      `task-clustered percentile bootstrap (type-7) over ${ids.length} tasks, every arm re-ranked on each draw`,
    rows: order.map((i) => rows[i]),
    pairwise: tests?.pairwise ?? [],
    pairwise_scope: tests?.scope ?? { top: 0, arms: arms.length, pairs: 0, note: null },
    // No pairwise tests (the report's first section): no tie groups either, rather than one group of every arm.
    tie_groups: tests?.tieGroups ?? [],
    ...(correction ? { correction } : {}),
    bootstrap: ranks.bootstrap,
    rank_joint: ranks.joint
      ? {
          method: ranks.joint.method,
          critical: ranks.joint.critical,
          separated: ranks.joint.separated,
          resamples: ranks.joint.resamples,
          seed: ranks.joint.seed,
        }
      : null,
  };
}

/**
 * The arms' indices by value, best first, ties by arm name: the rows' order (each row's value is ratio(a, null),
 * leaderboard-rows.ts), known before the rank intervals.
 */
function byValue(arms: Arm[]): number[] {
  const values = arms.map((a) => ratio(a, null));
  return values.map((_, i) => i).sort((x, y) => values[y] - values[x] || compareCodePoints(arms[x].arm, arms[y].arm));
}

/** What a metric's value is, as the estimator line says it. */
function metricName(p: PreparedStore, metric: LeaderboardMetric, k?: number): string {
  if (metric === "pass_rate") return "pass rate = passes / trials per arm over its trajectories";
  if (metric === "gcpc") return `${gcpcName(p)} per arm over its trajectories`;
  const per =
    metric === "pass^k"
      ? `C(c, ${k}) / C(n, ${k}), the chance that ${k} of its attempts all pass (τ-bench's pass^k)`
      : `1 − C(n − c, ${k}) / C(n, ${k}), the chance that one of ${k} of its attempts passes (Chen et al. 2021)`;
  return (
    `${metric} (k = ${k}) = the mean over the arm's tasks with n ≥ ${k} attempts (c passes) of ${per}; ` +
    `tasks with fewer attempts and arms with none are left out`
  );
}

/**
 * pass^k and pass@k: each arm's per-task figure over its attempts, keeping per arm the tasks it ran at all, so its
 * caveat tells "ran 70 of 80" from "ran all 80, 10 of them fewer than k times" (issue 55.3).
 */
function attemptArms(
  arms: Arm[],
  metric: "pass^k" | "pass@k",
  k: number,
): { arms: Arm[]; attempted: { ran: number; k: number }[] } | NotAvailable {
  if (!(Number.isInteger(k) && k >= 1)) return notAvailable(`${metric} needs k, a whole number ≥ 1`);
  const ranOf = (a: Arm) => a.count.reduce((n, c) => n + (c > 0 ? 1 : 0), 0);
  const kept = arms
    .map((a) => ({ a: perTaskAttempts(a, metric, k), ran: ranOf(a) }))
    .filter(({ a }) => a.count.some((c) => c > 0));
  if (kept.length === 0) return notAvailable(`${metric}: no arm ran any task at least ${k} times`);
  return { arms: kept.map(({ a }) => a), attempted: kept.map(({ ran }) => ({ ran, k })) };
}
