import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { WORKER_THRESHOLD } from "../cli/job-worker.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const gcpc = (...args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, GCPC_PROGRESS: "1" },
    maxBuffer: 1 << 28,
  });

// A store past the worker threshold, so that `--threads 2` (the default) starts the worker and the
// intervals that read no judgment start on it while the other tables are read (analysis/rq/early-jobs.ts).
test("gcpc report on a worker, early intervals included, writes the bytes of a one-thread run", () => {
  const dir = tempDir("gcpc-worker-");
  try {
    const store = join(dir, "store");
    const made = gcpc("generate", store, "--seed", "3", "--scale", "4.5");
    assert.equal(made.status, 0, made.stderr);
    const trajectories = Number(/(\d+) trajectories/.exec(made.stdout)?.[1]);
    assert.ok(trajectories >= WORKER_THRESHOLD, made.stdout);
    const run = (threads: string) => {
      const out = join(dir, `report-${threads}.json`);
      const r = gcpc("report", store, "--format", "json", "--resamples", "200", "--threads", threads, "--out", out);
      assert.equal(r.status, 0, r.stderr);
      return { bytes: readFileSync(out), stderr: r.stderr };
    };
    const one = run("1");
    const two = run("2");
    // In two steps: the uplift rows once the trajectories and tasks are read, the stored methods' AUCs once
    // the method scores are read too.
    assert.match(
      two.stderr,
      /started \d+ uplift intervals on the worker\n.*reading method_scores.*\n.*started \d+ stored/,
    );
    assert.match(two.stderr, /started [1-9]\d* stored methods' AUC intervals on the worker/);
    assert.doesNotMatch(one.stderr, /intervals on the worker/);
    assert.ok(two.bytes.length > 100_000);
    assert.ok(two.bytes.equals(one.bytes), "the two reports differ");

    // Invalid past the frame's tables: the read's problem, exit 2 (an invalid store, not a crash), no report,
    // while early intervals ran.
    rmSync(join(store, "items.parquet"));
    const out = join(dir, "never.json");
    const bad = gcpc("report", store, "--format", "json", "--resamples", "200", "--out", out);
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /started \d+ stored methods' AUC intervals on the worker/);
    assert.match(bad.stderr, /required table "items" is missing/);
    assert.equal(existsSync(out), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a worker starts ahead for a large trajectories file, and is closed when the store turns out small", async (t) => {
  const { runnerAhead, settleRunner } = await import("../cli/job-worker.js");
  const { writeFileSync } = await import("node:fs");
  const { availableParallelism } = await import("node:os");
  if (availableParallelism() < 2) {
    t.skip("one core: runnerAhead never starts a worker here");
    return;
  }
  const dir = tempDir("gcpc-ahead-");
  writeFileSync(join(dir, "trajectories.parquet"), Buffer.alloc(10_000));
  assert.equal(runnerAhead(dir), undefined, "10 KB of Parquet is far below the threshold");
  writeFileSync(join(dir, "trajectories.parquet"), Buffer.alloc(6 * WORKER_THRESHOLD));
  const ahead = runnerAhead(dir);
  assert.ok(ahead, "a file of the threshold's size starts one");
  // The count decides: a large store keeps the runner started ahead, a small one closes it.
  assert.equal(settleRunner(ahead, WORKER_THRESHOLD), ahead);
  assert.equal(settleRunner(ahead, WORKER_THRESHOLD - 1), undefined);
  const fresh = settleRunner(undefined, WORKER_THRESHOLD);
  assert.ok(fresh && fresh !== ahead);
  await fresh.close();
});
