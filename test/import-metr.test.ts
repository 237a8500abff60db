// gcpc import metr (issue 56.2): METR's public runs as a bundled real store. Counts checked against the raw file
// read here directly; the committed store equals a fresh import; bad input names its line and field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const raw = join(repo, "data/real/raw/metr-runs/all_runs.jsonl.gz");

test("the METR store holds every run of the raw file, its outcome, score and times; a fresh import equals it", async () => {
  const runs = gunzipSync(readFileSync(raw))
    .toString("utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const committed = (await readStore(join(repo, "data/real/metr"))).store;
  assert.equal(committed.trajectories.length, runs.length);
  assert.equal(committed.tasks.length, new Set(runs.map((r) => r.task_id)).size);
  const byId = new Map(committed.trajectories.map((t) => [t.trajectory_id, t]));
  for (const r of runs) {
    const t = byId.get(String(r.run_id))!;
    assert.equal(t.model, r.alias);
    assert.equal(t.outcome, r.score_binarized === 1 ? "PASS" : "FAIL");
    assert.equal(t.reward, r.score);
    if (r.started_at) assert.equal(t.started_at, new Date(r.started_at).toISOString());
    assert.equal(t.duration_s, (r.completed_at - r.started_at) / 1000);
  }
  // Trials: each (alias, task)'s runs numbered 1..n by start time.
  const cells = new Map<string, number[]>();
  for (const t of committed.trajectories) {
    const key = `${t.model}\u0000${t.task_id}`;
    cells.set(key, [...(cells.get(key) ?? []), t.trial!]);
  }
  for (const trials of cells.values())
    assert.deepEqual(
      [...trials].sort((a, b) => a - b),
      trials.map((_, i) => i + 1),
    );
  const fresh = join(tempDir("gcpc-metr-"), "s");
  const r = await cli(["import", "metr", raw, "--out", fresh]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /imported metr: 7063 trajectories of 83 tasks in 11 arm\(s\)/);
  assert.deepEqual((await readStore(fresh)).store.trajectories, committed.trajectories);
});

test("a bad METR run names its line and field, and nothing is written", async () => {
  const dir = tempDir("gcpc-metr-bad-");
  const file = join(dir, "runs.jsonl");
  writeFileSync(
    file,
    '{"run_id":"a","task_id":"t","alias":"m","score":0.5,"score_binarized":0}\n' +
      '{"run_id":"b","task_id":"t","alias":"m","score":1.5,"score_binarized":1}\n',
  );
  const r = await cli(["import", "metr", file, "--out", join(dir, "s")]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /runs\.jsonl, line 2, field "score": must be a number in \[0, 1\]/);
});
