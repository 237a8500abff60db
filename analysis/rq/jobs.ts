import { aucWithCIColumns, type AucEstimate, type AucJob } from "./common.js";
import { upliftRow, type UpliftJob, type UpliftRow } from "./outcome-level.js";
import { pairedAucColumns, type PairedDelta, type PairedJob } from "./rq1-discrimination.js";
import { transitionTests, type TransitionJob, type TransitionTests } from "./rq3-skill-effects.js";
import { separationInterval, type SeparationInterval, type SeparationJob } from "./rq4-ablations.js";
import type { NotAvailable } from "../estimates/not-defined.js";
import { pairRow, type PairJob } from "./arms/leaderboard-pair-job.js";
import type { PairwiseRow } from "./arms/leaderboard-types.js";

/**
 * The analyses' heaviest independent pieces, as plain data: each is a pure function of its job, seeded
 * by its figure's name, so it gives the same result on any thread and in any order (the
 * statistics on both cores). Each carries its rows as typed columns, which a structured clone copies to
 * a worker thread unchanged.
 */
export type AnalysisJob = AucJob | PairedJob | UpliftJob | TransitionJob | SeparationJob | PairJob;

export type JobResult =
  | AucEstimate
  | PairedDelta
  | NotAvailable
  | UpliftRow
  | TransitionTests
  | SeparationInterval
  | PairwiseRow;

export type { AucJob };

/** Runs one job here. */
export function runJob(job: AnalysisJob): JobResult {
  switch (job.kind) {
    case "auc":
      return aucWithCIColumns(job.method, job.columns, job.settings, job.figure);
    case "paired":
      return pairedAucColumns(job.columns, job.methods, job.settings);
    case "uplift":
      return upliftRow(job);
    case "transition":
      return transitionTests(job);
    case "separation":
      return separationInterval(job);
    case "leaderboard-pair":
      return pairRow(job);
  }
}

/**
 * Somewhere else to run jobs (a worker thread, cli/job-worker.ts). `submit` hands it the jobs and
 * returns at once; both sides then claim jobs one at a time, in the order given, from a shared
 * counter: the other thread as soon as it has them, this one when it calls `help` or `wait`, which then
 * returns every result in job order. The analyses stay synchronous and free of I/O; without a runner every job
 * runs here.
 */
export interface JobRunner {
  submit(jobs: AnalysisJob[]): PendingJobs;
}

export interface PendingJobs {
  /** Runs, here, the jobs no thread has claimed yet (so that several batches can be helped before any wait). */
  help(): void;
  wait(): JobResult[];
}

/** Rows behind a job. */
function rowsOf(job: AnalysisJob): number {
  switch (job.kind) {
    case "auc":
      return job.columns.scores.length;
    case "paired":
      return job.columns.a.length;
    case "uplift":
      return job.columns.arm.length;
    case "transition":
      return job.columns.deltas.length;
    case "separation":
      return job.sums.nPass.length; // a separation draws over its tasks' sums, not its rows
    case "leaderboard-pair":
      return job.d.length;
  }
}

/** Work of a job, for ordering: rows × resamples (a draw's cost grows with the rows behind it). */
const cost = (job: AnalysisJob) => (rowsOf(job) + 1) * job.settings.resamples;

/**
 * Starts the jobs on the runner, if any, so that this thread can do other work meanwhile; `wait` gives
 * every job's result in job order, identical with or without a runner (each job is seeded by its
 * figure). The jobs are claimed heaviest first (longest processing time first), so the two threads end
 * close together.
 */
export function startJobs(jobs: AnalysisJob[], runner?: JobRunner): PendingJobs {
  if (!runner) return { help: () => {}, wait: () => jobs.map(runJob) };
  const order = jobs.map((_, i) => i).sort((a, b) => cost(jobs[b]) - cost(jobs[a]) || a - b);
  const pending = runner.submit(order.map((i) => jobs[i]));
  return {
    help: () => pending.help(),
    wait() {
      const claimed = pending.wait();
      const out = new Array<JobResult>(jobs.length);
      for (const [k, i] of order.entries()) out[i] = claimed[k];
      return out;
    },
  };
}
