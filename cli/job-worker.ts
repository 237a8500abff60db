import { availableParallelism } from "node:os";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { AnalysisJob, JobResult, JobRunner } from "../analysis/rq/jobs.js";

/**
 * A JobRunner on one worker thread: the analyses stay synchronous, and the CLI gets the second core.
 *
 * `submit` posts the jobs and returns at once; the worker runs them in order and posts each result,
 * counting them in a shared integer. Waiting blocks this thread on that integer (Atomics.wait) and reads
 * the results with receiveMessageOnPort, so no event-loop turn is needed: the analyses never await.
 * Results cross as structured clones, which keep numbers (NaN, −0), strings and key order exactly, so
 * the report is byte-identical to a single-threaded run (test/job-runner.test.ts).
 */
export class WorkerJobRunner implements JobRunner {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly done: Int32Array;
  private posted = 0;
  private received = 0;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.done = new Int32Array(new SharedArrayBuffer(4));
    // The worker registers tsx itself (the CLI may run through bin/gcpc.js, whose loader is not inherited).
    const code =
      `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})` +
      `.then((m) => { m.register(); return import(${JSON.stringify(new URL("./job-worker-main.ts", import.meta.url).href)}); })` +
      ".then((m) => m.serve());";
    this.worker = new Worker(code, { eval: true, workerData: { port: port2, done: this.done }, transferList: [port2] });
    this.worker.unref();
  }

  submit(jobs: AnalysisJob[]): () => JobResult[] {
    const first = this.posted;
    for (const job of jobs) this.port.postMessage(job);
    this.posted += jobs.length;
    return () => {
      const out: JobResult[] = [];
      for (let k = first; k < first + jobs.length; k++) out.push(this.next(k));
      return out;
    };
  }

  /** Result number k (0-based, in posting order): waits until the worker has posted it. */
  private next(k: number): JobResult {
    if (k !== this.received) throw new Error(`job results are read in order (expected ${this.received}, asked ${k})`);
    for (;;) {
      const count = Atomics.load(this.done, 0);
      if (count > k) break;
      // Wake at least once a second to notice a worker that died without posting.
      Atomics.wait(this.done, 0, count, 1000);
      if (this.exited) throw new Error("the analysis worker thread stopped");
    }
    const message = this.receive();
    this.received++;
    if (message.error !== undefined) throw new Error(`analysis worker: ${message.error}`);
    return message.result as JobResult;
  }

  /** The next posted message; counted before it is readable here only in a race, so briefly retried. */
  private receive(): { result?: JobResult; error?: string } {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let tries = 0; tries < 10_000; tries++) {
      const got = receiveMessageOnPort(this.port);
      if (got) return got.message;
      Atomics.wait(pause, 0, 0, 1);
    }
    throw new Error("the analysis worker counted a result it never posted");
  }

  private get exited(): boolean {
    return this.worker.threadId === -1;
  }

  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}

/** Trajectories from which a second thread pays for its start (≈ 0.5 s to load the analysis code). */
export const WORKER_THRESHOLD = 50_000;

/** A runner when the store is large enough and the machine has a second core; undefined otherwise. */
export function jobRunnerFor(trajectories: number): WorkerJobRunner | undefined {
  return trajectories >= WORKER_THRESHOLD && availableParallelism() > 1 ? new WorkerJobRunner() : undefined;
}
