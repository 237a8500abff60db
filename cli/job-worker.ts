import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { runJob, type AnalysisJob, type JobResult, type JobRunner, type PendingJobs } from "../analysis/rq/jobs.js";
import type { JobBatch } from "./job-worker-main.js";

interface WorkerMessage {
  batch: number;
  k: number;
  result?: JobResult;
  error?: string;
}

/**
 * A JobRunner on one worker thread: the analyses stay synchronous, and the CLI gets the second core.
 *
 * `submit` posts a batch of jobs and returns at once. The worker and, once it calls `wait`, this thread
 * claim the batch's jobs one by one from a shared counter (Atomics.add), so the two cores stay busy
 * until the last job whatever each job costs. The worker posts each result and counts it in a shared
 * integer; this thread blocks on that integer (Atomics.wait) and reads the results with
 * receiveMessageOnPort, so no event-loop turn is needed: the analyses never await.
 * Results cross as structured clones, which keep numbers (NaN, −0), strings and key order exactly, so
 * the report is byte-identical to a single-threaded run (test/job-runner.test.ts).
 */
export class WorkerJobRunner implements JobRunner {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly done: Int32Array;
  private batches = 0;
  private received = 0;
  private readonly early = new Map<number, { k: number; result: JobResult }[]>();

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.done = new Int32Array(new SharedArrayBuffer(4));
    // Bundled (bin/cli-bundle.js), the worker's entry is the bundle's own module beside this one's code;
    // else the worker registers tsx itself (the CLI's loader, through bin/gcpc.js, is not inherited).
    const bundled = import.meta.url.endsWith(".mjs");
    const main = JSON.stringify(new URL(`./job-worker-main.${bundled ? "mjs" : "ts"}`, import.meta.url).href);
    const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
    const code = bundled
      ? `import(${main}).then((m) => m.serve());`
      : `import(${tsx}).then((m) => { m.register(); return import(${main}); }).then((m) => m.serve());`;
    this.worker = new Worker(code, { eval: true, workerData: { port: port2, done: this.done }, transferList: [port2] });
    this.worker.unref();
  }

  submit(jobs: AnalysisJob[]): PendingJobs {
    const batch = this.batches++;
    const claim = new Int32Array(new SharedArrayBuffer(4));
    const message: JobBatch = { batch, jobs, claim };
    this.port.postMessage(message);
    const out = new Array<JobResult>(jobs.length);
    let here = 0;
    // Claim what the worker has not, until every job of the batch is claimed.
    const help = () => {
      for (let k = Atomics.add(claim, 0, 1); k < jobs.length; k = Atomics.add(claim, 0, 1), here++)
        out[k] = runJob(jobs[k]);
    };
    return {
      help,
      wait: () => {
        help();
        for (const r of this.collect(batch, jobs.length - here)) out[r.k] = r.result;
        return out;
      },
    };
  }

  /** The worker's `count` results of a batch; results of other batches read meanwhile are kept for later. */
  private collect(batch: number, count: number): { k: number; result: JobResult }[] {
    const mine = this.early.get(batch) ?? [];
    this.early.delete(batch);
    while (mine.length < count) {
      const message = this.next();
      if (message.error !== undefined) throw new Error(`analysis worker: ${message.error}`);
      const r = { k: message.k, result: message.result as JobResult };
      if (message.batch === batch) mine.push(r);
      else {
        const later = this.early.get(message.batch);
        if (later) later.push(r);
        else this.early.set(message.batch, [r]);
      }
    }
    return mine;
  }

  /** The worker's next result message, waiting until it has posted one. */
  private next(): WorkerMessage {
    for (;;) {
      const count = Atomics.load(this.done, 0);
      if (count > this.received) break;
      // Wake at least once a second to notice a worker that died without posting.
      Atomics.wait(this.done, 0, count, 1000);
      if (this.exited) throw new Error("the analysis worker thread stopped");
    }
    this.received++;
    return this.receive();
  }

  /** The next posted message; counted before it is readable here only in a race, so briefly retried. */
  private receive(): WorkerMessage {
    for (let tries = 0; tries < 10_000; tries++) {
      const got = receiveMessageOnPort(this.port);
      if (got) return got.message;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
    throw new Error("the analysis worker counted a result it never posted");
  }

  /** Results the worker has posted so far (all batches). */
  get posted(): number {
    return Atomics.load(this.done, 0);
  }

  private get exited(): boolean {
    return this.worker.threadId === -1;
  }

  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}

/** Never notified: waiting on it is a 1 ms sleep. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** Trajectories from which a second thread pays for its start (≈ 0.5 s to load the analysis code). */
export const WORKER_THRESHOLD = 20_000;

/** A runner when the store is large enough and the machine has a second core; undefined otherwise. */
export function jobRunnerFor(trajectories: number): WorkerJobRunner | undefined {
  return settleRunner(undefined, trajectories);
}

/**
 * The runner for a store of `trajectories`: `ahead` (started before the count was known) when the store is
 * large enough, else a new one; none, and `ahead` closed, when it is not.
 */
export function settleRunner(ahead: WorkerJobRunner | undefined, trajectories: number): WorkerJobRunner | undefined {
  if (trajectories >= WORKER_THRESHOLD && availableParallelism() > 1) return ahead ?? new WorkerJobRunner();
  void ahead?.close();
  return undefined;
}

/**
 * A runner started before the store is read, when its trajectories file is large enough that the store
 * will almost surely be (a Parquet trajectory takes 6–7 bytes at the demo's scales, a text one well over
 * 60): the worker loads the analysis code while this thread reads, instead of after the trajectories are
 * read (its first job came about 1 s after it was started). `settleRunner` decides once the
 * count is known.
 */
export function runnerAhead(dir: string): WorkerJobRunner | undefined {
  if (availableParallelism() < 2) return undefined;
  for (const [file, bytesPerRow] of AHEAD_FILES) {
    const size = statSync(join(dir, file), { throwIfNoEntry: false })?.size ?? 0;
    if (size >= WORKER_THRESHOLD * bytesPerRow) return new WorkerJobRunner();
  }
  return undefined;
}

const AHEAD_FILES = [
  ["trajectories.parquet", 6],
  ["trajectories.jsonl", 60],
  ["trajectories.csv", 60],
] as const;
