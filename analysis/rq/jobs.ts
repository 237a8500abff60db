import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { aucWithCI, type AucEstimate } from "./common.js";
import { upliftRow, type UpliftRow, type UpliftTrial } from "./outcome-level.js";
import { pairedAucComparison, type PairedDelta } from "./rq1-discrimination.js";
import type { NotAvailable } from "../estimates/not-defined.js";

/**
 * The analyses' heaviest independent pieces, as plain data: each is a pure function of its job, seeded
 * by its figure's name, so it gives the same result on any thread and in any order (issue 10: the
 * statistics on both cores). Rows are plain objects and arrays, which a structured clone carries to a
 * worker thread unchanged.
 */
export type AnalysisJob =
  | {
      kind: "auc";
      method: string;
      rows: { score: number; pass: boolean; task: string }[];
      settings: BootstrapSettings;
      figure: string;
    }
  | {
      kind: "paired";
      rows: { a: number; b: number; pass: boolean; task: string }[];
      methods: [string, string];
      settings: BootstrapSettings;
    }
  | {
      kind: "uplift";
      group: string;
      rows: UpliftTrial[];
      figure: string;
      unit: "task" | "configuration";
      settings: BootstrapSettings;
    };

export type JobResult = AucEstimate | PairedDelta | NotAvailable | UpliftRow;

/** Runs one job here. */
export function runJob(job: AnalysisJob): JobResult {
  switch (job.kind) {
    case "auc":
      return aucWithCI(job.method, job.rows, job.settings, job.figure);
    case "paired":
      return pairedAucComparison(job.rows, job.methods, job.settings);
    case "uplift":
      return upliftRow(job);
  }
}

/**
 * Somewhere else to run jobs (a worker thread, cli/job-worker.ts): `submit` queues them there at once
 * and returns a function that waits for their results, in job order. The analyses stay synchronous and
 * free of I/O; without a runner every job runs here.
 */
export interface JobRunner {
  submit(jobs: AnalysisJob[]): () => JobResult[];
}

/** Work of a job, for splitting: rows × resamples (a draw's cost grows with the rows behind it). */
const cost = (job: AnalysisJob) => (job.rows.length + 1) * job.settings.resamples;

/**
 * Every job's result, in job order, identical with or without a runner. With one, the jobs are split
 * between the runner and this thread, heaviest first, each to whichever side has less work so far
 * (longest-processing-time first); the runner's share is queued before this thread starts its own.
 */
export function runJobs<R extends JobResult>(jobs: AnalysisJob[], runner?: JobRunner): R[] {
  if (!runner || jobs.length < 2) return jobs.map((j) => runJob(j) as R);
  const order = jobs.map((_, i) => i).sort((a, b) => cost(jobs[b]) - cost(jobs[a]) || a - b);
  const here: number[] = [];
  const there: number[] = [];
  let hereCost = 0;
  let thereCost = 0;
  for (const i of order) {
    if (thereCost <= hereCost) {
      there.push(i);
      thereCost += cost(jobs[i]);
    } else {
      here.push(i);
      hereCost += cost(jobs[i]);
    }
  }
  const wait = runner.submit(there.map((i) => jobs[i]));
  const out = new Array<R>(jobs.length);
  for (const i of here) out[i] = runJob(jobs[i]) as R;
  for (const [k, r] of wait().entries()) out[there[k]] = r as R;
  return out;
}
