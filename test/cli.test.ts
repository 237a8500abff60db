import { group as d3group } from "d3";
import { labelVectorsFromRows } from "../analysis/schema/label-vectors.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { readStore } from "../store/read-store.js";
import { tableContent as norm } from "./helpers/table-content.js";
import { methodScoreRows } from "../analysis/schema/method-score-columns.js";
import { tempDir } from "./helpers/temp-dir.js";
import { analyzeStoreAt, paperFiguresFor, reportText } from "../cli/commands.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const repo = new URL("..", import.meta.url).pathname;
const gcpc = (...args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
const valid = join(repo, "test/fixtures/stores/valid");

test("usage errors exit 2 with a message; help exits 0", () => {
  assert.equal(gcpc("--help").status, 0);
  assert.equal(gcpc("help", "report").status, 0);
  const r = gcpc("frobnicate");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command "frobnicate"/);
  assert.equal(gcpc("report", valid, "--format", "xml").status, 2);
  assert.equal(gcpc("report", valid, "--resamples", "abc").status, 2);
  assert.equal(gcpc("report").status, 2);
  const threads = gcpc("report", valid, "--threads", "3");
  assert.equal(threads.status, 2);
  assert.match(threads.stderr, /--threads must be 1 or 2/);
  // gcpc site: an output folder or a live preview, not both; --port belongs to the preview.
  for (const [args, message] of [
    [["site", valid], /site needs --out DIR \(or --preview\)/],
    [["site", valid, "--preview", "--out", "x"], /--preview serves the pages live and writes no --out/],
    [["site", valid, "--out", "x", "--port", "3001"], /--port applies to --preview/],
  ] as const) {
    const site = gcpc(...args);
    assert.equal(site.status, 2, args.join(" "));
    assert.match(site.stderr, message);
  }
});

test("an invalid store exits 2 and writes no output file", () => {
  const dir = tempDir("gcpc-");
  const out = join(dir, "report.json");
  const r = gcpc(
    "report",
    join(repo, "test/fixtures/stores/malformed/unknown-label"),
    "--format",
    "json",
    "--out",
    out,
  );
  assert.equal(r.status, 2);
  assert.match(r.stderr, /judgments\.jsonl, line 3, field "label"/);
  assert.equal(existsSync(out), false);
  rmSync(dir, { recursive: true });
});

test("validate prints the tables of a valid store", () => {
  const r = gcpc("validate", valid);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /judgments\s+5 rows\s+judgments\.jsonl/);
});

// Same store and seed, same bytes: the golden test proves it run to run (its digests were recorded by an
// earlier run), so this test runs the report twice only with different seeds.
test("another seed changes the CIs; the JSON keeps its documented keys", () => {
  const a = gcpc("report", "data/demo", "--format", "json", "--resamples", "300", "--seed", "11"),
    c = gcpc("report", "data/demo", "--format", "json", "--resamples", "300", "--seed", "12");
  assert.equal(a.status, 0, a.stderr);
  assert.notEqual(a.stdout, c.stdout);
  const j = JSON.parse(a.stdout);
  // documented stable keys
  for (const k of ["counts", "rq1", "rq2", "rq3", "rq4", "rq5"]) assert.ok(k in j, k);
  assert.deepEqual(Object.keys(j.rq1.auc[0]).slice(0, 7), ["method", "n", "n_pass", "n_fail", "tasks", "auc", "ci"]);
  assert.ok(["delta", "ci", "positive_share", "n"].every((k) => k in j.rq1.paired));
  assert.ok(
    ["from", "to", "n", "median_delta", "improved_share", "regressed_share", "sign_test_p"].every(
      (k) => k in j.rq3.transitions[0],
    ),
  );
  assert.ok(
    j.rq1.auc.every((a: any) => a.ci[0] <= a.auc && a.auc <= a.ci[1]),
    "CI contains the estimate",
  );
  assert.equal(j.store.synthetic, true);
});

test("md, csv and latex reports render every table; the demo shows the paper's values", async () => {
  // One run of the command (md) and one analysis in process rendered in every format by the command's own
  // renderer: the two md texts are the same bytes, so the golden test's in-process renders are the command's.
  const md = gcpc("report", "data/demo", "--resamples", "200");
  assert.equal(md.status, 0, md.stderr);
  const settings = { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 };
  const io = { out: () => {}, err: () => {}, progressTty: false };
  const { report, manifest } = await analyzeStoreAt(join(repo, "data/demo"), {}, io, () => {}, settings, 2);
  const paper = paperFiguresFor(manifest, {});
  assert.equal(reportText(report, "md", paper, settings), md.stdout);
  const csv = { stdout: reportText(report, "csv", paper, settings) };
  const tex = { stdout: reportText(report, "latex", paper, settings) };
  for (const t of ["Figure 4B", "Figure 4A", "Table 2", "Figure 5", "Table 3B", "Table 3C", "Table 4", "pair check"])
    assert.match(md.stdout, new RegExp(t));
  assert.match(md.stdout, /SYNTHETIC/);
  // The paper's SkillsBench-only value beside a figure pooled over three benchmarks, calibrated on the demo: both marked.
  assert.match(md.stdout, /\| gcpc \| \d+ .* \| 0\.689 \(calibrated; other population\) \|/);
  assert.match(
    csv.stdout.split("\n")[0],
    /^section,quantity,group,estimate,ci_low,ci_high,n,tasks,resamples,seed,ci_low_mc_se,ci_high_mc_se,degenerate,paper,paper_mark$/,
  );
  const gcpcRow = csv.stdout.match(
    /^rq1_auc,auc,gcpc,(0\.\d+),0\.\d+,0\.\d+,\d+,\d+,200,20260101:rq1:auc:gcpc,,,,0\.689,calibrated; other population$/m,
  );
  assert.ok(gcpcRow, "the CSV's gcpc AUC row, marked calibrated");
  // "calibrated" means within the tolerance of the paper's 0.689 (±0.03 for an AUC).
  assert.ok(Math.abs(Number(gcpcRow[1]) - 0.689) <= 0.03, `AUC ${gcpcRow[1]}`);
  assert.match(tex.stdout, /\\begin\{longtable\}/);
  assert.match(tex.stdout, /\\toprule/);
});

test("the committed demo store equals a fresh generation from its seed", async () => {
  const committed = await readStore(join(repo, "data/demo"), { evidence: true });
  const seed = committed.store.manifest.seed!;
  const fresh = generateDemoStore({ seed });
  // Judgments come back as label vectors (built in DuckDB): equal to the fresh rows' vectors, evidence included.
  const taskOf = new Map(fresh.trajectories.map((t) => [t.trajectory_id, t.task_id]));
  const checklist = d3group(fresh.items, (it) => it.task_id);
  const primary = fresh.manifest.primary_judge ?? "primary";
  const expected = labelVectorsFromRows(fresh.judgments, (id) => checklist.get(taskOf.get(id)!), primary, {
    evidence: true,
  });
  assert.equal(committed.store.labels?.judgments, fresh.judgments.length);
  assert.deepEqual([...committed.store.labels!.runs], [...expected.runs]);
  for (const table of [
    "tasks",
    "items",
    "trajectories",
    "method_scores",
    "human_ratings",
    "human_preferences",
    "human_item_labels",
    "evidence_replacements",
    "schema_audit",
  ] as const) {
    const rows = table === "method_scores" ? methodScoreRows(committed.store) : committed.store[table];
    assert.equal(norm(rows), norm(fresh[table]), table);
  }
  assert.deepEqual(committed.store.manifest, JSON.parse(JSON.stringify(fresh.manifest)));
  // The README's own command writes the committed files byte for byte (rows equal is not enough: a column the
  // generator gained after the demo was written once passed the comparison above as "absent = default").
  const out = join(tempDir("gcpc-demo-"), "demo");
  assert.equal(gcpc("generate", out, "--seed", String(seed)).status, 0);
  const files = readdirSync(join(repo, "data/demo")).sort();
  assert.deepEqual(readdirSync(out).sort(), files);
  const differ = files.filter((f) => !readFileSync(join(out, f)).equals(readFileSync(join(repo, "data/demo", f))));
  assert.deepEqual(differ, [], `regenerate data/demo with: gcpc generate data/demo --seed ${seed}`);
  rmSync(out, { recursive: true });
});

test("stores may mix JSONL, CSV and Parquet; CSV lists are JSON arrays in a cell", async () => {
  const dir = tempDir("gcpc-mix-");
  const { writeFileSync, copyFileSync } = await import("node:fs");
  for (const f of ["items.jsonl", "judgments.jsonl", "trajectories.jsonl"]) copyFileSync(join(valid, f), join(dir, f));
  writeFileSync(
    join(dir, "tasks.csv"),
    'task_id,benchmark,domain,instruction,verifier_tests\nt1,demo,data,"Read the CSV. Write the report.","[""test_read"",""test_write""]"\nt2,demo,,"Parse the log.","[""test_parse""]"\n',
  );
  const { store } = await readStore(dir);
  assert.deepEqual(store.tasks[0].verifier_tests, ["test_read", "test_write"]);
  assert.equal(store.tasks[1].domain, undefined);
  rmSync(dir, { recursive: true });
});

test("generate refuses to overwrite a non-empty folder (exit 2)", () => {
  const r = gcpc("generate", valid, "--seed", "1");
  assert.equal(r.status, 2);
  assert.match(r.stderr, /refusing to write .*: it is an existing store folder/);
  assert.ok(existsSync(join(valid, "tasks.jsonl")));
  assert.ok(readFileSync(join(valid, "tasks.jsonl"), "utf8").includes("t1"));
});

test("CSV cells that could start a formula are neutralised; numbers are not", async () => {
  const { csvCell } = await import("../report/render.js");
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell("@SUM(A1)"), "'@SUM(A1)");
  assert.equal(csvCell("-0.25"), "-0.25");
  assert.equal(csvCell("+cmd"), "'+cmd");
});
