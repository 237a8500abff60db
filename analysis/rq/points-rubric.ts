// `gcpc points` (issue 58.3): a points rubric's scores (HealthBench's rule, analysis/scoring/points-score.ts) per
// arm, how often a run meets a negative criterion, and each penalty item's rate. Scored from the primary judge's
// first run, as every headline figure is. Repeats of one task stay together: the intervals resample tasks, with
// all their runs (HealthBench's own bootstrap resamples runs as if independent: docs/statistics.md).
import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { bootstrapIntervals } from "../estimates/bootstrap-interval.js";
import { gradeAt } from "../schema/grades.js";
import { pointsMean, pointsScore } from "../scoring/points-score.js";
import { wilsonInterval } from "../stats/wilson.js";
import { ClusteredProportions } from "../stats/clustered-proportion.js";
import { compareCodePoints } from "../order.js";
import type { PreparedStore } from "./prepared.js";
import type { ArmField } from "./arms/arm-pairs.js";
import { fieldOf } from "./arms/arm-view.js";

export const POINTS_ESTIMATORS = {
  score:
    "per trajectory: Σ points × grade over its decided items (Yes 1, No 0; Abstain and not judged earn nothing) ÷ " +
    "Σ positive points over its applicable items (NotApplicable leaves the rubric); per arm: the mean of those " +
    "(unclipped), and HealthBench's score, that mean clipped to [0, 1]",
  interval:
    "task-clustered percentile bootstrap (a task's runs resampled together), the arm's tasks resampled; the score's " +
    "interval is the mean's clipped to [0, 1]",
  penalised: "share of the arm's scored runs that meet at least one negative-points item (grade > 0), same bootstrap",
  penalty:
    "per negative-points item: share of its decided runs that meet it (grade > 0), all arms; Wilson score " +
    "interval (its runs are repeats of one task: the interval is for that task's rate)",
} as const;

export interface PointsArm {
  arm: string;
  /** Runs scored (some positive points applicable), and their tasks. */
  trajectories: number;
  tasks: number;
  unclipped: number | null;
  unclipped_ci: [number, number] | null;
  score: number | null;
  score_ci: [number, number] | null;
  penalised: number | null;
  penalised_ci: [number, number] | null;
}

export interface PenaltyItem {
  task_id: string;
  item_id: string;
  text: string;
  points: number;
  decided: number;
  met: number;
  rate: number | null;
  rate_ci: [number, number] | null;
}

export interface PointsReport {
  /** Tasks whose items carry points, their items, and the negative ones among them. */
  rubric_tasks: number;
  rubric_items: number;
  penalty_items: number;
  by: ArmField | null;
  arms: PointsArm[];
  penalties: PenaltyItem[];
  estimators: typeof POINTS_ESTIMATORS;
}

/** One scored run: its arm, task and score, and whether it met a negative item. */
interface ScoredRun {
  arm: string;
  task: string;
  score: number;
  penalised: boolean;
}

/** The store's points rubrics scored per arm (`by`; one arm "all" without), and its penalty items' rates. */
export function pointsReport(p: PreparedStore, settings: BootstrapSettings, by?: ArmField): PointsReport {
  const rubricTasks = [...p.checklist.entries()].filter(([, items]) => items.some((it) => it.points != null));
  const pointsOf = new Map(rubricTasks.map(([task, items]) => [task, items.map((it) => it.points ?? 0)]));
  const runs: ScoredRun[] = [];
  const met = new Map<string, { decided: number; met: number }>();
  p.trajectories.forEach((t, k) => {
    const points = pointsOf.get(t.task_id);
    const labels = points && p.labelsAt(k);
    if (!points || labels === undefined) return;
    points.forEach((x, i) => {
      const g = gradeAt(labels, i);
      if (x >= 0 || !(g >= 0)) return;
      const key = `${t.task_id}\u0000${i}`;
      const m = met.get(key) ?? { decided: 0, met: 0 };
      m.decided++;
      if (g > 0) m.met++;
      met.set(key, m);
    });
    const s = pointsScore(labels, points);
    if (s.score === null) return;
    const arm = by ? (fieldOf(p, t, by) ?? "(none)") : "all";
    runs.push({ arm, task: t.task_id, score: s.score, penalised: s.penalised });
  });
  const arms = [...new Set(runs.map((r) => r.arm))].sort(compareCodePoints);
  const penalties: PenaltyItem[] = [];
  for (const [task, items] of rubricTasks.sort(([a], [b]) => compareCodePoints(a, b)))
    items.forEach((it, i) => {
      if (!(it.points != null && it.points < 0)) return;
      const m = met.get(`${task}\u0000${i}`) ?? { decided: 0, met: 0 };
      penalties.push({
        task_id: task,
        item_id: it.item_id,
        text: it.text,
        points: it.points,
        decided: m.decided,
        met: m.met,
        rate: m.decided > 0 ? m.met / m.decided : null,
        rate_ci: wilsonInterval(m.met, m.decided),
      });
    });
  return {
    rubric_tasks: rubricTasks.length,
    rubric_items: rubricTasks.reduce((n, [, items]) => n + items.length, 0),
    penalty_items: penalties.length,
    by: by ?? null,
    arms: arms.map((arm) =>
      armRow(
        arm,
        runs.filter((r) => r.arm === arm),
        settings,
      ),
    ),
    penalties,
    estimators: POINTS_ESTIMATORS,
  };
}

/** One arm's mean score (unclipped and clipped) and share penalised, each with a task-clustered interval. */
function armRow(arm: string, runs: ScoredRun[], settings: BootstrapSettings): PointsArm {
  const tasks = [...new Set(runs.map((r) => r.task))].sort(compareCodePoints);
  const index = new Map(tasks.map((t, i) => [t, i]));
  // Per task: Σ score over its runs (0) and its runs penalised (1), each over its runs: what a draw's task
  // weights multiply (a score's "successes" are its points share, which may be below 0).
  const sums = new ClusteredProportions(tasks.length, 2);
  for (const r of runs) {
    const i = index.get(r.task)!;
    sums.add(0, i, r.score, 1);
    sums.add(1, i, r.penalised ? 1 : 0, 1);
  }
  const mean = pointsMean(runs.map((r) => r.score));
  const base = {
    arm,
    trajectories: runs.length,
    tasks: tasks.length,
    unclipped: mean?.unclipped ?? null,
    score: mean?.clipped ?? null,
    penalised: runs.length ? runs.filter((r) => r.penalised).length / runs.length : null,
  };
  if (tasks.length < 2) return { ...base, unclipped_ci: null, score_ci: null, penalised_ci: null };
  const res = bootstrapIntervals({
    settings,
    figure: `points:${arm}`,
    clusters: tasks.length,
    estimator: POINTS_ESTIMATORS.interval,
    statistics: { unclipped: (w) => sums.rate(0, w), penalised: (w) => sums.rate(1, w) },
  });
  const clip = (x: number) => Math.min(1, Math.max(0, x));
  return {
    ...base,
    unclipped_ci: res.ci.unclipped,
    score_ci: [clip(res.ci.unclipped[0]), clip(res.ci.unclipped[1])],
    penalised_ci: res.ci.penalised,
  };
}
