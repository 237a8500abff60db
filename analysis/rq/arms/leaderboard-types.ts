// What gcpc leaderboard returns: its rows, pairwise rows and the board (analysis/rq/arms/leaderboard.ts).
import type { BootstrapDescriptor } from "../../estimates/bootstrap-interval.js";
import type { NotAvailable } from "../../estimates/not-defined.js";
import type { ArmField, Selector } from "./compare-arms.js";
import type { AttemptMetric } from "../../stats/pass-at-k.js";
import type { CorrectedEstimate } from "./judge-corrected.js";

export type LeaderboardMetric = "pass_rate" | "gcpc" | AttemptMetric;

export interface LeaderboardRow {
  arm: string;
  fields: Record<string, string | null>;
  trajectories: number;
  tasks: number;
  /** Pooled over the arm's trajectories (pass rate: passes / trials; gcpc: mean score). */
  value: number;
  ci: [number, number] | null;
  /** Every draw gave the arm this value (e.g. it passed every task): `ci` has zero width and says nothing. */
  degenerate?: true;
  few_clusters: boolean;
  /** What public leaderboards print: the mean of the per-run values (run = trial index) ± the SE over runs. */
  runs: { k: number; mean: number | null; se: number | null };
  /** Bootstrap rank (1 = best) of the value: its estimate and 95% percentile interval over the same task draws. */
  rank: number;
  rank_ci: [number, number] | null;
  /**
   * Simultaneous rank set: with 95% confidence every arm's true rank lies in its set at once (Mogstad et al.
   * 2024; `rank_joint` says how). Wider than `rank_ci`, which holds for one arm at a time.
   */
  rank_ci_joint: [number, number] | null;
  /**
   * What to read beside the row: few tasks (fewer than 10: interval and ranks unreliable), or an arm that ran
   * fewer of the board's tasks than it holds, or none that another arm ran (its value is on its own tasks: ranks
   * compare different task sets).
   */
  caveat: string | null;
  /** `--judge-corrected`: the arm's mean GCPC as the reference judge would have scored it (judge-corrected.ts). */
  corrected?: CorrectedEstimate | NotAvailable;
}

export interface PairwiseRow {
  /** Δ = value(row arm) − value(column arm), each a task's mean over its trials, averaged over common tasks. */
  row: string;
  column: string;
  tasks: number;
  delta: number | null;
  ci: [number, number] | null;
  /** Every draw gave this Δ (e.g. the same difference on every common task). */
  degenerate?: true;
  /** Two-sided p of the task-level sign-flip test of the d_t (exact on a common grid, else Monte Carlo). */
  p: number | null;
  p_holm: number | null;
  /** How p was computed: exact (grid 1/L) or Monte Carlo with its draws and standard error. */
  test: { method: string; exact: boolean; mc_se: number | null };
  /** The binomial sign test of sign(d_t) beside it (ignores the sizes of the differences): for comparison. */
  sign_test_p: number | null;
}

export interface Leaderboard {
  by: ArmField[];
  where: Selector;
  metric: LeaderboardMetric;
  estimator: string;
  rows: LeaderboardRow[];
  pairwise: PairwiseRow[];
  /**
   * Which arms the pairwise tests (and the tie groups) cover: the top `top` arms by value of `arms`, Holm over
   * their pairs only. Every arm keeps its value, interval and rank intervals.
   */
  pairwise_scope: { top: number; arms: number; pairs: number; note: string | null };
  /** Runs of adjacent arms (by value) the data cannot separate: every pair's Holm-adjusted p ≥ 0.05 (may overlap). */
  tie_groups: string[][];
  bootstrap: BootstrapDescriptor | null;
  /** How `rank_ci_joint` was computed: the method, the critical value and the pairs it separates. */
  rank_joint: { method: string; critical: number; separated: number; resamples: number; seed: string } | null;
  /** `--judge-corrected`: the reference judge of the rows' `corrected` estimates, and how they are computed. */
  correction?: { reference_judge: string; estimator: string; words: string; reference_tasks: number | null };
}
