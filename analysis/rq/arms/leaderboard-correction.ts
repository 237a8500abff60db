// The leaderboard's judge-corrected means (--judge-corrected): each arm's row towards the reference judge.
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import type { NotAvailable } from "../../estimates/not-defined.js";
import type { PreparedStore } from "../prepared.js";
import { judgeCorrectedMean, referenceJudgeOf, type CorrectionOptions } from "./judge-corrected.js";
import type { LeaderboardRow, Leaderboard } from "./leaderboard-types.js";
import type { Arm } from "./leaderboard-arms.js";

/**
 * Every arm (the trajectories grouped by `by`) with its value and a task-clustered interval, the figure
 * leaderboards print beside it (mean over runs ± SE over runs), every pair of arms compared on their common
 * tasks (task-clustered bootstrap CI, the task-level sign-flip test of the task differences, Holm over all
 * pairs), bootstrap rank intervals (every arm re-ranked on each draw of the tasks), simultaneous rank sets
 * (Mogstad et al. 2024), and the tie groups the data cannot separate.
 */
export const CORRECTION_ESTIMATOR =
  "prediction-powered inference: θ = mean_ref(h) + λ·(mean_all(f) − mean_ref(f)), f the arm's GCPC by its " +
  "scoring judge on every trajectory, h the reference judge's GCPC on the trajectories it labelled; λ in [0, 1] " +
  "power-tuned (PPI++) to the least variance over the draws unless fixed; task-clustered bootstrap stratified " +
  "by labelled and other tasks, expanded percentile interval (Hesterberg 2015) on the labelled tasks' count";

/** Each row's judge-corrected mean towards the store's reference judge (judge-corrected.ts), and how. */
export function correctRows(
  p: PreparedStore,
  arms: Arm[],
  rows: LeaderboardRow[],
  clusters: number,
  scoreOf: (k: number) => number,
  settings: BootstrapSettings,
  corrected: CorrectionOptions,
  stage: (what: string) => void,
): NonNullable<Leaderboard["correction"]> | NotAvailable {
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") return reference;
  stage(`judge-corrected means of ${arms.length} arms towards ${reference}`);
  arms.forEach((a, i) => {
    const arm = { name: a.arm, slots: a.slots, slotClusters: a.slotClusters, clusters };
    rows[i].corrected = judgeCorrectedMean(p, arm, scoreOf, reference, settings, corrected);
  });
  return {
    reference_judge: reference,
    estimator: CORRECTION_ESTIMATOR,
    reference_tasks: corrected.referenceTasks ? corrected.referenceTasks.size : null,
  };
}
