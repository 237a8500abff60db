import { workerData, type MessagePort } from "node:worker_threads";
import { runJob, type AnalysisJob } from "../analysis/rq/jobs.js";

/** The worker side of cli/job-worker.ts: run each job as it arrives, post its result, count it. */
export function serve(): void {
  const { port, done } = workerData as { port: MessagePort; done: Int32Array };
  port.on("message", (job: AnalysisJob) => {
    try {
      port.postMessage({ result: runJob(job) });
    } catch (e) {
      port.postMessage({ error: (e as Error).stack ?? String(e) });
    }
    Atomics.add(done, 0, 1);
    Atomics.notify(done, 0);
  });
}
