// Inspect logs in the shapes that broke on unseen files: zstd-compressed .eval archives (zip method 93, as newer
// Inspect versions write them; test/fixtures/make_zstd_eval.py builds one from the vendored log_formats.eval with
// Debian's zstd), two logs of the same task and model (attempts numbered across logs), and a scorer named by
// --items or --outcome that no log has.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import JSZip from "jszip";
import { importInspect } from "../store/import/inspect.js";
import { zipMembers } from "../store/import/zip-members.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const raw = join(repo, "data/real/raw/inspect-logs");
const zstdEval = join(repo, "test/fixtures/inspect/log_formats-zstd.eval");

test("a zstd-compressed .eval reads as the deflate original does (every member, the same rows)", async () => {
  const zstd = zipMembers(readFileSync(zstdEval));
  const deflate = zipMembers(readFileSync(join(raw, "log_formats.eval")));
  assert.ok(zstd.every((m) => m.method === 93) && deflate.every((m) => m.method === 8));
  assert.deepEqual(
    zstd.map((m) => [m.name, m.read().toString("utf8")]),
    deflate.map((m) => [m.name, m.read().toString("utf8")]),
  );
  const a = await importInspect([zstdEval]);
  const b = await importInspect([join(raw, "log_formats.eval")]);
  assert.equal(a.skipped.length, 0);
  assert.deepEqual(a.store.trajectories, b.store.trajectories);
});

test("a damaged zstd member is named with its compression, and the rest of the import goes on", async () => {
  const dir = tempDir("gcpc-zstd-bad-");
  const bytes = readFileSync(zstdEval);
  const header = zipMembers(bytes).find((m) => m.name === "header.json")!;
  // Overwrite the middle of the archive's last member data (header.json is written last) with zeros.
  const damaged = Buffer.from(bytes);
  const at = bytes.lastIndexOf(Buffer.from("header.json")) - 40;
  damaged.fill(0, at, at + 24);
  writeFileSync(join(dir, "bad.eval"), damaged);
  copyFileSync(join(raw, "log_formats.json"), join(dir, "good.json"));
  const r = await importInspect([dir]);
  assert.ok(header.name === "header.json");
  assert.ok(
    r.skipped.some((s) => s.folder.includes("bad.eval")),
    JSON.stringify(r.skipped),
  );
  assert.ok(r.store.trajectories.length > 0);
});

test("two logs of the same task and model: attempts are unique per (task, model), in the logs' start order", async () => {
  const r = await importInspect([raw]);
  const seen = new Set<string>();
  for (const t of r.store.trajectories) {
    const key = `${t.task_id}|${t.model}|${t.trial}`;
    assert.ok(!seen.has(key), `two attempts numbered ${key}`);
    seen.add(key);
  }
  // popularity/1 with gpt-4o-mini ran in three logs: the .eval runs created 2025-02-11 15:17 and 15:18 and the
  // .json log created 2025-05-12 (eval id VnKtvCqGnnegLQ7qSBFDzx): attempts 1, 2, 3 in that order.
  const runs = r.store.trajectories.filter((t) => t.task_id === "popularity/1" && t.model === "openai/gpt-4o-mini");
  assert.deepEqual(runs.map((t) => t.trial).sort(), [1, 2, 3]);
  assert.equal(runs.find((t) => t.trajectory_id.startsWith("VnKtvCqGnnegLQ7qSBFDzx/"))!.trial, 3);
  assert.match(r.notes.join("\n"), /task-model pair\(s\) hold attempts from more than one log/);
});

test("the scorers of every log are listed; --items naming a scorer no log has exits 2 and lists those that exist", async () => {
  const out = join(tempDir("gcpc-inspect-scorers-"), "store");
  const ok = await cli(["import", "inspect", raw, "--out", out]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /security-guide\.json: scorers model_graded_fact \(C\/I\/P\/N\)/);
  const bad = await cli(["import", "inspect", raw, "--items", "checklist", "--out", `${out}-2`]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--items "checklist": no log has that scorer; the scorers found are choice/);
});

test("a sample id holding '/' is a nested .eval member (samples/a/b/c_epoch_1.json): read; an empty log is listed", async () => {
  const dir = tempDir("gcpc-inspect-nested-");
  const zip = new JSZip();
  const header = { version: 2, eval: { eval_id: "e1", task: "t", model: "m" } };
  const sample = (id: string) => ({
    id,
    epoch: 1,
    scores: { verdict: { value: "C" }, checklist: { value: { a: "C" } } },
  });
  zip.file("header.json", JSON.stringify(header));
  zip.file("samples/plain_epoch_1.json", JSON.stringify(sample("plain")));
  zip.file("samples/a/b/c_epoch_1.json", JSON.stringify(sample("a/b/c")));
  writeFileSync(join(dir, "nested.eval"), await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" }));
  // A log with a header and no sample yields nothing: it is a listed problem, never silence.
  writeFileSync(join(dir, "empty.json"), JSON.stringify({ ...header, eval: { ...header.eval, eval_id: "e2" } }));
  const r = await importInspect([dir]);
  assert.deepEqual(r.store.trajectories.map((t) => t.trajectory_id).sort(), ["e1/a/b/c/epoch-1", "e1/plain/epoch-1"]);
  assert.deepEqual(
    r.skipped.map((s) => [s.folder.replace(`${dir}/`, ""), s.reason]),
    [["empty.json", "the log holds no sample (nothing to import from it)"]],
  );
});
