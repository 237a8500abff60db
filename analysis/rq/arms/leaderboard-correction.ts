// The leaderboard's judge-corrected means (--judge-corrected): each arm's row towards the reference judge.
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
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
  "the plug-in of least variance (PPI++), re-tuned on every draw and shrunk by n/(n + 10) for n labelled tasks, " +
  "unless fixed (--lambda X, or classic PPI's N/(N − n)); task-clustered bootstrap stratified " +
  "by labelled and other tasks, expanded percentile interval (Hesterberg 2015) on the labelled tasks' count, " +
  "with t on n − 1 − s degrees of freedom for a λ shrunk by s (the reference-only interval: n − 1)";

/**
 * What the corrected figure is, and why it can sit outside the two others, in words (issue 55.1: the tables were
 * explained by a formula only, and a new user asked which number to report).
 */
export const CORRECTION_WORDS =
  "The corrected figure is the reference-only mean moved by λ × (the judge's mean over every run − its mean over " +
  "the labelled runs): if the labelled runs are ones the judge scores higher than the rest, the reference-only " +
  "mean moves down, so the corrected figure can sit below both others (the judge-only mean is on the judge's own " +
  "scale, the reference-only one on the labelled runs alone). λ is 0 when every run is labelled (nothing to " +
  "correct with) or when the judge does not track the reference; it is re-tuned on every bootstrap draw and " +
  "shrunk by n/(n + 10) for n labelled tasks, so the interval carries λ's own uncertainty. Effective reference " +
  "labels: how many the reference-only interval would need to be as narrow. The figure to report is in bold, and " +
  "each row says why.";

/**
 * Why `--judge-corrected` cannot run with this metric and scoring judge, or undefined. Another scoring judge than
 * the primary (the CLI allows the consensus, fitted without the reference's labels) is corrected as the primary
 * one is; the reference itself has nothing to be corrected towards.
 */
export function correctionRefused(
  p: PreparedStore,
  metric: string,
  judge: string | undefined,
): NotAvailable | undefined {
  if (metric !== "gcpc") return notAvailable("--judge-corrected applies to --metric gcpc");
  if (judge !== undefined && judge === p.store.manifest.reference_judge)
    return notAvailable("--judge-corrected corrects a scoring judge towards the reference judge: not the reference");
  return undefined;
}

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
    words: CORRECTION_WORDS,
    reference_tasks: corrected.referenceTasks ? corrected.referenceTasks.size : null,
  };
}
