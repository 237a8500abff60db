import { test } from "node:test";
import assert from "node:assert/strict";
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { runJobs, type AnalysisJob } from "../analysis/rq/jobs.js";
import { WorkerJobRunner } from "../cli/job-worker.js";

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
    rows: ["t1", "t2"].flatMap((task_id) =>
      (["none", "curated"] as const).map((condition) => ({
        task_id,
        condition,
        outcome: "PASS",
        harness: "h",
        model: "m",
      })),
    ),
    figure: "f",
    unit: "task",
    settings: { ...DEFAULT_SETTINGS, resamples: 0 },
  } as AnalysisJob;
  try {
    // With 0 resamples both jobs weigh 0, so both go to the worker (the side with no more work so far).
    assert.throws(
      () => runJobs([bad, { ...bad, group: "h" } as AnalysisJob], runner),
      (e: Error) => /^analysis worker: .*resamples/s.test(e.message),
    );
  } finally {
    await runner.close();
  }
});
