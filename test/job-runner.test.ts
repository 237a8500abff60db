import { test } from "node:test";
import assert from "node:assert/strict";
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { runJob, startJobs, type AnalysisJob, type JobRunner } from "../analysis/rq/jobs.js";
import { rq1Plan } from "../analysis/rq/rq1-discrimination.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { WorkerJobRunner } from "../cli/job-worker.js";
import { waitFor } from "./helpers/wait-for.js";

const demo = new URL("../data/demo", import.meta.url).pathname;

test("the report computed with a worker thread is byte-identical to the single-threaded one", async () => {
  const { store } = await readStore(demo);
  const settings = { ...DEFAULT_SETTINGS, resamples: 400, headline_resamples: 400 };
  const alone = JSON.stringify(analyzeStore(store, settings));
  const runner = new WorkerJobRunner();
  try {
    const shared = JSON.stringify(analyzeStore(store, settings, { runner }));
    assert.equal(shared.length, alone.length);
    assert.equal(shared, alone);
  } finally {
    await runner.close();
  }
});

test("a job that fails on the worker fails the analysis with the worker's message", async () => {
  const runner = new WorkerJobRunner();
  const bad = {
    kind: "uplift",
    group: "g",
    // Two tasks, each with a trial without and with skills: a bootstrap is attempted, and 0 resamples refused.
    columns: {
      arm: Uint8Array.of(0, 1, 0, 1),
      pass: Uint8Array.of(1, 1, 1, 1),
      clusterOf: Int32Array.of(0, 0, 1, 1),
      clusters: 2,
      tasks: 2,
    },
    figure: "f",
    unit: "task",
    settings: { ...DEFAULT_SETTINGS, resamples: 0 },
  } as AnalysisJob;
  try {
    const pending = runner.submit([bad]);
    // Let the worker claim the job and fail before this thread would claim it.
    await waitFor(() => runner.posted > 0, "the worker to claim the job");
    assert.throws(
      () => pending.wait(),
      (e: Error) => /^analysis worker: .*resamples/s.test(e.message),
    );
  } finally {
    await runner.close();
  }
});

test("jobs split between the worker and this thread give the results this thread gives alone", async () => {
  const { store } = await readStore(demo);
  const settings = { ...DEFAULT_SETTINGS, resamples: 300, headline_resamples: 300 };
  const { jobs } = rq1Plan(prepareStore(store), settings);
  const runner = new WorkerJobRunner();
  try {
    const pending = startJobs(jobs, runner);
    // The worker has computed at least one job before this thread starts claiming the rest.
    await waitFor(() => runner.posted > 0, "the worker to compute a job");
    const split = pending.wait();
    assert.ok(runner.posted >= 1 && runner.posted <= jobs.length);
    assert.equal(JSON.stringify(split), JSON.stringify(jobs.map(runJob)));
  } finally {
    await runner.close();
  }
});

test("jobs whose columns are SharedArrayBuffers (keptColumn, large stores) give the worker's results unchanged", async () => {
  const { store } = await readStore(demo);
  const settings = { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 };
  const { jobs } = rq1Plan(prepareStore(store), settings);
  const toShared = (v: unknown): unknown => {
    if (!ArrayBuffer.isView(v)) return v;
    const Type = v.constructor as Float64ArrayConstructor;
    const copy = new Type(new SharedArrayBuffer(v.byteLength) as unknown as ArrayBuffer);
    copy.set(v as Float64Array);
    return copy;
  };
  const withColumns = jobs as Extract<AnalysisJob, { columns: object }>[];
  const shared = withColumns.map((job) => ({
    ...job,
    columns: Object.fromEntries(Object.entries(job.columns).map(([k, v]) => [k, toShared(v)])),
  })) as unknown as AnalysisJob[];
  assert.ok(
    shared.every((j) =>
      Object.values((j as Extract<AnalysisJob, { columns: object }>).columns).some(
        (v) => ArrayBuffer.isView(v) && v.buffer instanceof SharedArrayBuffer,
      ),
    ),
  );
  const runner = new WorkerJobRunner();
  try {
    const pending = runner.submit(shared);
    // Every job computed on the worker: the columns crossed as shared buffers.
    await waitFor(() => runner.posted >= shared.length, "the worker to compute every job");
    assert.equal(JSON.stringify(pending.wait()), JSON.stringify(jobs.map(runJob)));
  } finally {
    await runner.close();
  }
});

test("the leaderboard with its pairwise tests on the worker is the leaderboard drawn on this thread alone", async () => {
  const { leaderboard } = await import("../analysis/rq/arms/leaderboard.js");
  const { store } = await readStore(demo);
  const p = prepareStore(store);
  const settings = { ...DEFAULT_SETTINGS, resamples: 300, headline_resamples: 300 };
  for (const metric of ["pass_rate", "gcpc"] as const) {
    const alone = leaderboard(p, { by: ["harness", "model"], metric, settings });
    const worker = new WorkerJobRunner();
    // This thread claims no pair before the worker has drawn one (it starts slower than the demo's rank intervals).
    const runner: JobRunner = {
      submit(jobs) {
        const before = worker.posted;
        const pending = worker.submit(jobs);
        const pause = new Int32Array(new SharedArrayBuffer(4));
        return {
          help: () => {},
          wait: () => {
            for (const until = Date.now() + 60_000; worker.posted === before && Date.now() < until; )
              Atomics.wait(pause, 0, 0, 5);
            return pending.wait();
          },
        };
      },
    };
    try {
      const shared = leaderboard(p, { by: ["harness", "model"], metric, settings, runner });
      assert.ok(!("available" in shared) && shared.pairwise.length >= 3, `${metric}: some pairs tested`);
      assert.ok(worker.posted > 0, `${metric}: the worker drew some pairs`);
      // Every pair the worker drew is the pair this thread draws (each is seeded by its figure's name).
      assert.equal(JSON.stringify(shared), JSON.stringify(alone), metric);
    } finally {
      await worker.close();
    }
  }
});
