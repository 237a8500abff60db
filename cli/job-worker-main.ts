import { workerData, type MessagePort } from "node:worker_threads";
import { runJob, type AnalysisJob } from "../analysis/rq/jobs.js";

/** One batch of jobs: both threads claim job indices from `claim` (Atomics.add), the caller included. */
export interface JobBatch {
  batch: number;
  jobs: AnalysisJob[];
  claim: Int32Array;
}

/** The worker side of cli/job-worker.ts: claim jobs of each batch until none is left, post each result. */
export function serve(): void {
  const { port, done } = workerData as { port: MessagePort; done: Int32Array };
  port.on("message", ({ batch, jobs, claim }: JobBatch) => {
    for (let k = Atomics.add(claim, 0, 1); k < jobs.length; k = Atomics.add(claim, 0, 1)) {
      try {
        port.postMessage({ batch, k, result: runJob(jobs[k]) });
      } catch (e) {
        port.postMessage({ batch, k, error: (e as Error).stack ?? String(e) });
      }
      Atomics.add(done, 0, 1);
      Atomics.notify(done, 0);
    }
  });
}
