import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { StoreValidationError } from "../store/problems.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { startEarlyJobs, startEarlyOutcomes, startEarlyStored, type EarlyJobs } from "../analysis/rq/early-jobs.js";
import { FRAME_FIELDS, trajectoryFrame, type FrameTables } from "../analysis/rq/trajectory-frame.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { WorkerJobRunner } from "../cli/job-worker.js";
import { frameWatch } from "../cli/early-frame.js";
import { tempDir } from "./helpers/temp-dir.js";

const demo = new URL("../data/demo", import.meta.url).pathname;
const settings = { ...DEFAULT_SETTINGS, resamples: 300, headline_resamples: 300 };

test("the frame's tables reach the CLI's frame watch once, before the judgments, as the store's own arrays", async () => {
  const steps: string[] = [];
  const calls: { tables: FrameTables; stepsBefore: number }[] = [];
  const { store } = await readStore(demo, {
    onProgress: (s) => steps.push(s),
    onTableRead: frameWatch((tables) => calls.push({ tables, stepsBefore: steps.length })),
  });
  assert.equal(calls.length, 1);
  const [{ tables, stepsBefore }] = calls;
  const judgmentsAt = steps.findIndex((s) => s.startsWith("reading judgments"));
  assert.ok(judgmentsAt >= 0 && stepsBefore <= judgmentsAt, steps.join("; "));
  for (const k of FRAME_FIELDS) assert.equal(tables[k], store[k], k);
  assert.ok(store.trajectories.length > 0 && store.tasks.length > 0);
  // Early and late frames of one store are interchangeable; a frame of other tables is refused.
  assert.doesNotThrow(() => prepareStore(store, trajectoryFrame(tables)));
  const copy = { ...store, trajectories: [...store.trajectories] };
  assert.throws(() => prepareStore(copy, trajectoryFrame(tables)), /frame was built from other tables/);
});

test("intervals started from the frame give the report the plans give, with or without a worker", async () => {
  let early: EarlyJobs | undefined;
  const runner = new WorkerJobRunner();
  try {
    const { store } = await readStore(demo, {
      onTableRead: frameWatch((tables) => {
        early = startEarlyJobs(trajectoryFrame(tables), settings, runner);
      }),
    });
    assert.ok(early?.rq1Stored && early.rq1Stored.jobs.length > 0, "the demo has stored method scores");
    assert.ok(!("available" in early.outcomes.plan) && early.outcomes.plan.jobs.length > 0);
    const withEarly = JSON.stringify(analyzeStore(store, settings, { runner, early }));
    const plain = JSON.stringify(analyzeStore(store, settings));
    assert.equal(withEarly, plain);
    // The same without a worker: the early jobs then run when the report waits for them.
    const here = startEarlyJobs(trajectoryFrame(store), settings);
    assert.equal(JSON.stringify(analyzeStore(store, settings, { early: here })), plain);
    // Started with other settings, they are refused rather than mixed into this report.
    const other = startEarlyJobs(trajectoryFrame(store), { ...settings, seed: 1 });
    assert.throws(() => analyzeStore(store, settings, { early: other }), /other settings/);
  } finally {
    await runner.close();
  }
});

test("in two steps: the uplift rows start before the method scores are read, the stored AUCs after; same report", async () => {
  const steps: string[] = [];
  const seen: { step: string; before: number; methodScores: boolean }[] = [];
  let early: EarlyJobs | undefined;
  const runner = new WorkerJobRunner();
  try {
    const { store } = await readStore(demo, {
      onProgress: (s) => steps.push(s),
      onTableRead: frameWatch(
        (tables) => {
          const methodScores = tables.method_scores !== undefined || tables.method_score_columns !== undefined;
          seen.push({ step: "frame", before: steps.length, methodScores });
          early = startEarlyOutcomes(trajectoryFrame(tables), settings, runner);
        },
        (tables) => {
          seen.push({ step: "method scores", before: steps.length, methodScores: true });
          startEarlyStored(early!, tables, runner);
        },
      ),
    });
    assert.deepEqual(
      seen.map((s) => [s.step, s.methodScores]),
      [
        ["frame", false],
        ["method scores", true],
      ],
    );
    // The first call comes before the method scores' read starts, the second before the judgments'.
    const at = (prefix: string) => steps.findIndex((s) => s.startsWith(prefix));
    assert.ok(seen[0].before <= at("reading method_scores"), steps.join("; "));
    assert.ok(seen[1].before <= at("reading judgments"), steps.join("; "));
    for (const k of FRAME_FIELDS) assert.equal(early!.frame.source[k], store[k], k);
    assert.ok(early?.rq1Stored && early.rq1Stored.jobs.length > 0);
    const plain = JSON.stringify(analyzeStore(store, settings));
    assert.equal(JSON.stringify(analyzeStore(store, settings, { runner, early })), plain);
    // Once a frame's stored scores were read, method scores can no longer be attached to it.
    const frame = trajectoryFrame({ ...store, method_scores: undefined, method_score_columns: undefined });
    void frame.storedScores;
    assert.throws(() => startEarlyStored(startEarlyOutcomes(frame, settings), store), /stored scores were read/);
  } finally {
    await runner.close();
  }
});

test("a store whose judgments fail validation still fails with its problems while early intervals run", async () => {
  const dir = tempDir("gcpc-early-");
  const runner = new WorkerJobRunner();
  try {
    cpSync(demo, dir, { recursive: true });
    rmSync(join(dir, "judgments.parquet"));
    const file = join(dir, "judgments.jsonl");
    writeFileSync(file, '{"trajectory_id": "nope", "item_id": "x", "label": "Maybe"}\n');
    let started = 0;
    await assert.rejects(
      readStore(dir, {
        onTableRead: frameWatch((tables) => {
          started = startEarlyJobs(trajectoryFrame(tables), settings, runner).rq1Stored?.jobs.length ?? 0;
        }),
      }),
      (e: unknown) => e instanceof StoreValidationError && /judgments\.jsonl, line 1, field "label"/.test(String(e)),
    );
    assert.ok(started > 0, "the frame's tables were valid, so intervals were started");
  } finally {
    await runner.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("no frame is offered when one of its tables has a problem", async () => {
  const dir = tempDir("gcpc-early-");
  try {
    cpSync(demo, dir, { recursive: true });
    rmSync(join(dir, "tasks.parquet"));
    writeFileSync(join(dir, "tasks.jsonl"), '{"task_id": ""}\n');
    let calls = 0;
    await assert.rejects(
      readStore(dir, { onTableRead: frameWatch(() => calls++) }),
      (e: unknown) => e instanceof StoreValidationError && /tasks\.jsonl, line 1, field "task_id"/.test(String(e)),
    );
    assert.equal(calls, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
