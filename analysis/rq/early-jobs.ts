import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import type { AucJob } from "./common.js";
import { startJobs, type JobRunner, type PendingJobs } from "./jobs.js";
import { outcomePlan } from "./outcome-level.js";
import { rq1StoredJobs } from "./rq1-discrimination.js";
import { attachMethodScores, type FrameTables, type TrajectoryFrame } from "./trajectory-frame.js";

/**
 * The intervals that read only the trajectory frame, started before the store is prepared: the binary
 * outcome view (every uplift row) and RQ1's AUCs of the stored methods. With a runner they run on the other
 * thread while this one reads the judgments and prepares the store (the worker sat idle through
 * both). Each job is seeded by its figure, so the report is the same bytes as when the plans start them.
 */
export interface EarlyJobs {
  frame: TrajectoryFrame;
  settings: BootstrapSettings;
  /** Absent until the method scores are read (`startEarlyStored`); the report's plan then computes them. */
  rq1Stored?: { jobs: AucJob[]; pending: PendingJobs };
  outcomes: { plan: ReturnType<typeof outcomePlan>; pending: PendingJobs };
}

/** Both kinds of early intervals, from a frame of every frame table. */
export function startEarlyJobs(frame: TrajectoryFrame, settings: BootstrapSettings, runner?: JobRunner): EarlyJobs {
  // The uplift rows first: they read only the trajectories and tasks, so the other thread starts on them
  // while this one builds the stored methods' score columns and AUC jobs.
  const early = startEarlyOutcomes(frame, settings, runner);
  startEarlyStored(early, frame.source, runner);
  return early;
}

/**
 * The uplift rows alone, from a frame that may still lack the method scores: at 100× the paper the worker
 * starts on them about 1.4 s sooner than when it waited for the method scores' read (0.9 s) and their AUC
 * jobs' build.
 */
export function startEarlyOutcomes(frame: TrajectoryFrame, settings: BootstrapSettings, runner?: JobRunner): EarlyJobs {
  const plan = outcomePlan(frame, settings);
  const outcomes = { plan, pending: startJobs("available" in plan ? [] : plan.jobs, runner) };
  return { frame, settings, outcomes };
}

/** The stored methods' AUC intervals, once the method scores are read: attached to the frame first. */
export function startEarlyStored(
  early: EarlyJobs,
  methodScores: Pick<FrameTables, "method_scores" | "method_score_columns">,
  runner?: JobRunner,
): void {
  if (early.frame.source !== methodScores) attachMethodScores(early.frame, methodScores);
  const jobs = rq1StoredJobs(early.frame, early.settings);
  early.rq1Stored = { jobs, pending: startJobs(jobs, runner) };
}
