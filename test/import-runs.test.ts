// The importers of harness runs (Terminal-Bench, τ²-bench, Inspect) on the vendored real data, run as a
// user runs them (`gcpc import KIND ... --out STORE`), checked against counts a Python script computed from
// the raw files itself (test/fixtures/real_import_reference.py), and on malformed inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import JSZip from "jszip";
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { decodeLabels } from "../analysis/schema/label-vectors.js";
import type { StoreFrame } from "../analysis/schema/store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const raw = join(repo, "data/real/raw");
const reference = JSON.parse(readFileSync(join(repo, "test/fixtures/real-import-reference.json"), "utf8"));
const settings = { ...DEFAULT_SETTINGS, resamples: 100, headline_resamples: 100 };

/** Per "harness / model": trials, PASS trials and distinct tasks of a store. */
function arms(store: Pick<StoreFrame, "trajectories">) {
  const out: Record<string, { trials: number; passes: number; tasks: Set<string> }> = {};
  for (const t of store.trajectories) {
    const a = (out[`${t.harness} / ${t.model}`] ??= { trials: 0, passes: 0, tasks: new Set() });
    a.trials++;
    if (t.outcome === "PASS") a.passes++;
    a.tasks.add(t.task_id);
  }
  return out;
}

/** Every judgment label of a store read from disk (label vectors), counted. */
function labelCounts(store: StoreFrame): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const runs of store.labels.runs.values())
    for (const r of runs) for (const l of decodeLabels(r.labels)) if (l) counts[l] = (counts[l] ?? 0) + 1;
  return counts;
}

async function importTo(kind: string, inputs: string[], extra: string[] = []) {
  const out = join(tempDir(`gcpc-${kind}-`), "store");
  const r = await cli(["import", kind, ...inputs, "--out", out, "--format", "jsonl", ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return { out, ...r, store: (await readStore(out)).store };
}

test("terminal-bench: the 13 leaderboard submissions import with the raw files' counts (Python reference)", async () => {
  const tree = tempDir("gcpc-tb-raw-");
  execFileSync("tar", ["xzf", join(raw, "terminal-bench/results.tar.gz"), "-C", tree]);
  const { store, stdout } = await importTo("terminal-bench", [join(tree, "results")]);
  const ref = reference.terminal_bench;
  assert.match(stdout, /imported terminal-bench: 5200 trajectories of 80 tasks in 13 arm\(s\)/);
  assert.match(stdout, /arm droid \/ claude-4-1-opus: 80 tasks, 400 trajectories \(235 PASS, 165 FAIL, 0 non-binary\)/);
  assert.equal(store.trajectories.length, ref.trials);
  assert.equal(store.trajectories.filter((t) => t.outcome === "PASS" || t.outcome === "FAIL").length, ref.binary);
  assert.equal(store.trajectories.filter((t) => t.tags?.includes("is_resolved:null")).length, ref.is_resolved_null);
  assert.equal(store.tasks.length, ref.tasks);
  assert.equal(store.items.length, ref.items);
  assert.ok(store.items.every((it) => it.determines_outcome === true && it.route === "assertion"));
  assert.deepEqual(labelCounts(store), ref.labels);
  const mine = arms(store);
  for (const [arm, r] of Object.entries(ref.arms as Record<string, { trials: number; passes: number; tasks: number }>))
    assert.deepEqual([mine[arm]?.trials, mine[arm]?.passes, mine[arm]?.tasks.size], [r.trials, r.passes, r.tasks], arm);
  // The published accuracy: droid with claude-4-1-opus resolves 235 of 400.
  assert.deepEqual([mine["droid / claude-4-1-opus"].passes, mine["droid / claude-4-1-opus"].trials], [235, 400]);
  // Trial indices 1..5 within each (arm, task).
  const perCell = new Map<string, number[]>();
  for (const t of store.trajectories) {
    const k = `${t.harness}|${t.model}|${t.task_id}`;
    perCell.set(k, [...(perCell.get(k) ?? []), t.trial!]);
  }
  for (const trials of perCell.values()) assert.deepEqual([...trials].sort(), [1, 2, 3, 4, 5]);
  // The committed store is this import.
  const committed = (await readStore(join(repo, "data/real/terminal-bench"))).store;
  assert.deepEqual(committed.trajectories, store.trajectories);
  assert.deepEqual(labelCounts(committed), ref.labels);
});

test("terminal-bench: GCPC over the tests is flagged not outcome-free in every format", async () => {
  const report = analyzeStore((await readStore(join(repo, "data/real/terminal-bench"))).store, settings);
  const gcpc = report.rq1.auc.find((a) => a.method === "gcpc")!;
  assert.equal(gcpc.outcome_free, false);
  assert.match(gcpc.note ?? "", /^not outcome-free: the outcome is computed from these items/);
  const md = await cli(["report", join(repo, "data/real/terminal-bench"), "--resamples", "100"]);
  assert.match(md.stdout, /\| gcpc \|[^\n]*not outcome-free: the outcome is computed from these items/);
  // Every run is condition none: RQ3 has no with/without pair, and says so instead of printing empty transitions.
  assert.equal(report.rq3.available, false);
  assert.match(report.rq3.reason ?? "", /^no matched pair: no trial of a task ran both without/);
  assert.equal(report.rq3.pairs_total, 0);
  assert.match(md.stdout, /\| not available: no matched pair: [^\n]*\n\n## RQ3: cluster-robust tests/);
  assert.doesNotMatch(md.stdout, /\| FAIL→FAIL \| 0 \|/);
});

test("tau2: base vs fine-tuned import with every check as an item, outcome-determining by the reward basis", async () => {
  const { store, out } = await importTo("tau2", [join(raw, "tau2-bench/sft-results")]);
  const ref = reference.tau2_sft;
  assert.equal(store.trajectories.length, ref.simulations);
  assert.equal(store.tasks.length, ref.tasks);
  assert.equal(store.items.length, ref.items);
  assert.equal(store.items.filter((it) => it.determines_outcome).length, ref.determining_items);
  const mine = arms(store);
  for (const [arm, r] of Object.entries(ref.arms as Record<string, { simulations: number; passes: number }>))
    assert.deepEqual([mine[arm]?.trials, mine[arm]?.passes], [r.simulations, r.passes], arm);
  // A natural-language assertion keeps its judge's justification as the judgment's evidence.
  const rows0 = readFileSync(join(out, "judgments.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const nl = rows0.filter((j) => j.item_id.startsWith("NL_ASSERTION:"));
  assert.ok(nl.length > 0 && nl.every((j) => typeof j.evidence === "string" && j.evidence.length > 20));
  const report = analyzeStore(store, settings);
  const rows = Object.fromEntries(report.rq1.auc.map((a) => [a.method, a]));
  assert.equal(rows.gcpc.outcome_free, true, "GCPC counts the checks outside the reward basis");
  assert.equal(rows["gcpc (all items)"].outcome_free, false);
  const committed = (await readStore(join(repo, "data/real/tau2-sft"))).store;
  assert.deepEqual(committed.trajectories, store.trajectories);
});

test("tau2: four judge-viewer judges become method scores; undecided verdicts are counted, never guessed", async () => {
  const { store, stdout } = await importTo("tau2", [join(raw, "tau2-bench/judge-viewer")]);
  const ref = reference.tau2_judges;
  assert.equal(store.trajectories.length, ref.simulations);
  const undecided = Object.values(ref.judges as Record<string, Record<string, number>>).reduce(
    (n, c) => n + (c.undecided ?? 0),
    0,
  );
  assert.match(stdout, new RegExp(`4 holistic judge\\(s\\); ${undecided} undecided verdict\\(s\\) left out`));
  for (const [judge, counts] of Object.entries(ref.judges as Record<string, Record<string, number>>)) {
    const scores = store.method_scores!.filter((m) => m.method === `judge:${judge}`);
    assert.equal(scores.filter((m) => m.score === 1).length, counts.PASS ?? 0, judge);
    assert.equal(scores.filter((m) => m.score === 0).length, counts.FAIL ?? 0, judge);
  }
  const report = analyzeStore(store, settings);
  const judges = report.rq1.auc.filter((a) => a.method.startsWith("judge:"));
  assert.equal(judges.length, 4);
  assert.ok(judges.every((j) => j.auc !== null && j.ci !== null && j.outcome_free === true));
});

test("inspect: .json and .eval logs (zip members read by store/import/zip-members.ts) import once each, with the raw files' counts", async () => {
  const { store } = await importTo("inspect", [join(raw, "inspect-logs")]);
  const ref = reference.inspect;
  assert.equal(store.trajectories.length, ref.sample_epochs);
  assert.equal(store.trajectories.filter((t) => t.outcome === "PASS" || t.outcome === "FAIL").length, ref.binary);
  assert.equal(store.trajectories.filter((t) => t.outcome === "PASS").length, ref.passes);
});

test("inspect: a hand-written dict-valued log gives items, labels, evidence and method scores, as .json and .eval", async () => {
  const file = join(repo, "test/fixtures/inspect/checklist-scores.json");
  const dir = tempDir("gcpc-inspect-eval-");
  // The same log as an .eval archive, written here with JSZip: header.json plus one member per sample.
  const log = JSON.parse(readFileSync(file, "utf8"));
  const zip = new JSZip();
  zip.file("header.json", JSON.stringify({ version: 2, status: "success", eval: log.eval }));
  for (const s of log.samples) zip.file(`samples/${s.id}_epoch_${s.epoch}.json`, JSON.stringify(s));
  writeFileSync(join(dir, "checklist.eval"), await zip.generateAsync({ type: "nodebuffer" }));
  for (const input of [file, join(dir, "checklist.eval")]) {
    const { out, store } = await importTo("inspect", [input], ["--outcome", "verdict", "--items", "checklist"]);
    assert.deepEqual(
      store.trajectories.map((t) => [t.task_id, t.trial, t.outcome]),
      [
        ["report_writing/csv-report", 1, "PASS"],
        ["report_writing/csv-report", 2, "FAIL"],
        ["report_writing/log-parser", 1, "PASS"],
        ["report_writing/log-parser", 2, "FAIL"],
      ],
    );
    assert.deepEqual(store.items.map((it) => `${it.task_id}:${it.item_id}`).sort(), [
      "report_writing/csv-report:computes-totals",
      "report_writing/csv-report:reads-input",
      "report_writing/csv-report:writes-table",
      "report_writing/log-parser:counts-errors",
      "report_writing/log-parser:saves-count",
    ]);
    const full = (await readStore(out, { evidence: true })).store;
    const judged = (id: string) => decodeLabels(full.labels!.runs.get(id)![0].labels);
    // Checklist order is by item id: computes-totals, reads-input, writes-table; N is Abstain.
    assert.deepEqual(judged("hand-written-checklist/csv-report/epoch-2"), ["No", "Yes", "Abstain"]);
    assert.deepEqual(judged("hand-written-checklist/log-parser/epoch-2"), ["No", "Abstain"]);
    assert.deepEqual(
      store.method_scores!.map((m) => m.score),
      [0.75, 0.25, 1, 0],
    );
  }
});

test("malformed inputs are listed with their path and reason, the rest imports; nothing imported exits 2", async () => {
  const dir = tempDir("gcpc-bad-runs-");
  const trial = (id: string, extra: object = {}) =>
    JSON.stringify({
      id,
      task_id: "t1",
      trial_name: `t1.${id}`,
      is_resolved: true,
      parser_results: { a: "passed" },
      ...extra,
    });
  mkdirSync(join(dir, "tb/run/t1/ok"), { recursive: true });
  writeFileSync(join(dir, "tb/run/t1/ok/results.json"), trial("ok", { instruction: "x".repeat(300_000) }));
  for (const [name, text] of [
    ["truncated", trial("cut").slice(0, 40)],
    ["types", trial("types", { parser_results: ["a"] })],
    ["keys", JSON.stringify({ id: "nokeys", is_resolved: true })],
  ]) {
    mkdirSync(join(dir, `tb/run/t1/${name}`), { recursive: true });
    writeFileSync(join(dir, `tb/run/t1/${name}/results.json`), text);
  }
  const out = join(dir, "tb-store");
  const r = await cli(["import", "terminal-bench", join(dir, "tb"), "--out", out, "--harness", "h", "--model", "m"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /skipped .*truncated\/results\.json: not valid JSON/);
  assert.match(r.stderr, /skipped .*types\/results\.json: 1 trial\(s\): parser_results is neither null nor an object/);
  assert.match(r.stderr, /skipped .*keys\/results\.json: neither a trial's nor a run's results\.json/);
  assert.equal((await readStore(out)).store.trajectories.length, 1);
  // τ²: a file of the wrong shape and a gzip that is not one; Inspect: an .eval zip without header.json.
  writeFileSync(join(dir, "wrong.json"), JSON.stringify({ simulations: [{ task_id: 3 }] }));
  writeFileSync(join(dir, "broken.json.gz"), "not gzip");
  const tau = await cli([
    "import",
    "tau2",
    join(dir, "wrong.json"),
    join(dir, "broken.json.gz"),
    "--out",
    join(dir, "t2"),
  ]);
  assert.equal(tau.code, 2);
  assert.match(tau.stderr, /wrong\.json: 1 simulation\(s\) without an id or task_id \(simulations\[0\]\)/);
  assert.match(tau.stderr, /broken\.json\.gz: cannot read/);
  assert.match(tau.stderr, /nothing imported/);
  assert.equal(existsSync(join(dir, "t2")), false, "no partial store");
  const zip = new JSZip();
  zip.file("samples/1_epoch_1.json", "{}");
  writeFileSync(join(dir, "no-header.eval"), await zip.generateAsync({ type: "nodebuffer" }));
  writeFileSync(join(dir, "not-a-zip.eval"), "PK but not a zip");
  const ins = await cli([
    "import",
    "inspect",
    join(dir, "no-header.eval"),
    join(dir, "not-a-zip.eval"),
    "--out",
    join(dir, "i"),
  ]);
  assert.equal(ins.code, 2);
  assert.match(ins.stderr, /no-header\.eval: the \.eval archive has no header\.json member/);
  assert.match(ins.stderr, /not-a-zip\.eval: not a zip archive/);
  assert.equal(existsSync(join(dir, "i")), false);
});

test("a long import is not silent: a progress line per 500 input files read", async () => {
  const dir = tempDir("gcpc-import-progress-");
  try {
    execFileSync("tar", ["xzf", join(repo, "data/real/raw/terminal-bench/results.tar.gz"), "-C", dir]);
    const r = await cli(["import", "terminal-bench", join(dir, "results"), "--out", join(dir, "store")], true);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.match(/read \d+ files/g) ?? [];
    // 3,636 JSON files in the tree: a line at 500, 1,000, …, 3,500.
    assert.deepEqual(
      lines,
      [500, 1000, 1500, 2000, 2500, 3000, 3500].map((n) => `read ${n} files`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
