import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import type { AucJob } from "./common.js";
import { startJobs, type JobRunner, type PendingJobs } from "./jobs.js";
import { outcomePlan } from "./outcome-level.js";
import { rq1StoredJobs } from "./rq1-discrimination.js";
import type { TrajectoryFrame } from "./trajectory-frame.js";

/**
 * The intervals that read only the trajectory frame, started before the store is prepared: the binary
 * outcome view (every uplift row) and RQ1's AUCs of the stored methods. With a runner they run on the other
 * thread while this one reads the judgments and prepares the store (the worker sat idle through
 * both). Each job is seeded by its figure, so the report is the same bytes as when the plans start them.
 */
export interface EarlyJobs {
  frame: TrajectoryFrame;
  settings: BootstrapSettings;
  rq1Stored: { jobs: AucJob[]; pending: PendingJobs };
  outcomes: { plan: ReturnType<typeof outcomePlan>; pending: PendingJobs };
}

export function startEarlyJobs(frame: TrajectoryFrame, settings: BootstrapSettings, runner?: JobRunner): EarlyJobs {
  // The uplift rows first: they read only the trajectories and tasks, so the other thread starts on them
  // while this one builds the stored methods' score columns and AUC jobs.
  const plan = outcomePlan(frame, settings);
  const outcomes = { plan, pending: startJobs("available" in plan ? [] : plan.jobs, runner) };
  const rq1Jobs = rq1StoredJobs(frame, settings);
  const rq1Stored = { jobs: rq1Jobs, pending: startJobs(rq1Jobs, runner) };
  return { frame, settings, rq1Stored, outcomes };
}
