// Terminal-Bench runs written from the format `tb run` writes (<run>/results.json with results[], and
// <run>/<task>/<trial>/results.json per trial): a run whose own list is shorter than its folders (an adapter run
// listed 507 of its 516 trials), and a results file of trials without task ids.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTerminalBench } from "../store/import/terminal-bench.js";
import { tempDir } from "./helpers/temp-dir.js";

const trial = (task: string, name: string, resolved: boolean) => ({
  id: `${task}-${name}`,
  trial_name: name,
  task_id: task,
  is_resolved: resolved,
  failure_mode: "unset",
  parser_results: { test_a: resolved ? "passed" : "failed" },
  trial_started_at: "2025-01-01T00:00:00Z",
});

function write(path: string, doc: unknown) {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(doc));
}

test("a run listing fewer trials than its folders hold: every folder's trial imported, the missing names said", () => {
  const run = join(tempDir("gcpc-tb-unlisted-"), "runs", "2025-01-01__00-00-00");
  const trials = [trial("t1", "t1.1-of-1", true), trial("t2", "t2.1-of-1", false), trial("t3", "t3.1-of-1", true)];
  write(join(run, "results.json"), { id: "run", results: trials.slice(0, 2), accuracy: 0.5 });
  for (const t of trials) write(join(run, t.task_id, t.trial_name, "results.json"), t);
  write(join(run, "run_metadata.json"), { agent_name: "agent", model_name: "model" });
  const r = importTerminalBench([run]);
  assert.equal(r.store.trajectories.length, 3);
  assert.equal(r.notes.length, 1);
  assert.match(
    r.notes[0],
    /lists 2 trial\(s\), its folders hold 3; not listed \(imported from their folders\): t3\.1-of-1$/,
  );
});

test("a results file of trials without task ids is one skip line with the count", () => {
  const dir = tempDir("gcpc-tb-noid-");
  const bad = Array.from({ length: 164 }, (_, i) => ({ trial_name: `x.${i}`, is_resolved: true }));
  write(join(dir, "run", "results.json"), { results: [...bad, trial("t1", "t1.1-of-1", true)] });
  const r = importTerminalBench([dir]);
  assert.equal(r.skipped.length, 1);
  assert.match(r.skipped[0].reason, /^164 trial\(s\): without a task_id or trial_name string \(results\[0\], \[1\]/);
  assert.equal(r.store.trajectories.length, 1);
});
