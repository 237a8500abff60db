import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { benchmarkSubset } from "../analysis/schema/subset.js";
import { cli } from "./helpers/run-cli.js";
import { methodScoreRows } from "../analysis/schema/method-score-columns.js";

const repo = new URL("..", import.meta.url).pathname;

test("--benchmark restricts the report to one benchmark's tasks (like with like for the paper's figures)", async () => {
  const { store } = await readStore(join(repo, "data/demo"));
  const sb = new Set(store.tasks.filter((t) => t.benchmark === "skillsbench-1.1").map((t) => t.task_id));
  const r = await cli([
    "report",
    "data/demo",
    "--format",
    "json",
    "--resamples",
    "50",
    "--benchmark",
    "skillsbench-1.1",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.counts.tasks, sb.size);
  assert.equal(report.counts.trajectories, store.trajectories.filter((t) => sb.has(t.task_id)).length);
  assert.match(report.store.name, /\[benchmark skillsbench-1\.1\]$/);
  // Transfer benchmarks are gone from Table 4; every RQ1 trajectory is a SkillsBench one.
  assert.deepEqual(
    report.rq5.transfer.map((t: { benchmark: string }) => t.benchmark),
    ["skillsbench-1.1"],
  );
  const bad = await cli(["report", "data/demo", "--benchmark", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--benchmark "nope": the store's benchmarks are skillsbench-1\.1, terminal-bench-2\.0/);
});

test("a benchmark subset keeps every row attached to its trajectories and nothing else", async () => {
  const { store } = await readStore(join(repo, "data/demo"));
  const sub = benchmarkSubset(store, "terminal-bench-2.0");
  const ids = new Set(sub.trajectories.map((t) => t.trajectory_id));
  assert.ok(ids.size > 0);
  // Label vectors: exactly the kept trajectories' runs, the judgment count theirs.
  assert.deepEqual(
    [...sub.labels.runs.keys()].sort(),
    [...store.labels.runs.keys()].filter((id) => ids.has(id)).sort(),
  );
  const judged = (runs: typeof sub.labels.runs) =>
    [...runs.values()].flat().reduce((n, r) => n + r.labels.replaceAll(".", "").length, 0);
  assert.ok(sub.labels.judgments > 0 && sub.labels.judgments < store.labels.judgments);
  assert.equal(sub.labels.judgments, judged(sub.labels.runs));
  // The demo's method scores are columns (read from Parquet): a subset's rows are the store's rows of its
  // trajectories, in file order, renumbered to the subset's positions (terminal-bench has none).
  for (const benchmark of ["terminal-bench-2.0", "skillsbench-1.1"]) {
    const part = benchmarkSubset(store, benchmark);
    const keep = new Set(part.trajectories.map((t) => t.trajectory_id));
    const kept = (methodScoreRows(store) ?? []).filter((m) => keep.has(m.trajectory_id));
    assert.ok(part.method_score_columns);
    assert.deepEqual(methodScoreRows(part), kept, benchmark);
    if (benchmark === "skillsbench-1.1") assert.ok(kept.length > 0);
  }
  assert.ok(sub.tasks.every((t) => t.benchmark === "terminal-bench-2.0"));
});

test("paper rows the demo generator takes as inputs say 'demo input'; reproduced rows do not", async () => {
  const r = await cli(["report", "data/demo", "--resamples", "50"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\| evidence replacement: Yes → No \| [^|]+ \| 73\.5% \(demo input\) \|/);
  assert.match(r.stdout, /\| schema audit: real \| [^|]+ \| 99\.4% \(demo input\) \|/);
  assert.match(r.stdout, /\| gcpc \| [^\n]*\| 0\.689 \(calibrated; other population\) \|$/m);
  assert.doesNotMatch(r.stdout, /0\.689 \(demo input\)/);
});

test("--interval bca: every descriptor says bca, intervals move off the percentile ones; a bad value exits 2", async () => {
  const args = ["report", "examples/jsonl-store", "--format", "json", "--resamples", "400"];
  const pct = JSON.parse((await cli(args)).stdout);
  const bca = JSON.parse((await cli([...args, "--interval", "bca"])).stdout);
  assert.equal(bca.settings.interval, "bca");
  assert.equal(bca.rq1.auc[0].bootstrap.interval, "bca");
  assert.equal(pct.rq1.auc[0].bootstrap.interval, "percentile");
  assert.equal(bca.rq1.auc[0].auc, pct.rq1.auc[0].auc);
  assert.notDeepEqual(bca.rq4.outcome_step[0].ci, pct.rq4.outcome_step[0].ci);
  const bad = await cli([...args, "--interval", "wald"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--interval must be percentile, bca/);
});

test("--interval expanded: every interval holds the percentile one, on the same draws; captions say so", async () => {
  const args = ["report", "examples/jsonl-store", "--format", "json", "--resamples", "400"];
  const pct = JSON.parse((await cli(args)).stdout);
  const exp = JSON.parse((await cli([...args, "--interval", "expanded"])).stdout);
  assert.equal(exp.settings.interval, "expanded");
  const [a, b] = [pct.rq1.auc[0], exp.rq1.auc[0]];
  assert.equal(b.bootstrap.interval, "expanded");
  assert.match(b.bootstrap.interval_note, /quantiles for a nominal 95\.00% interval over \d+ clusters/);
  assert.equal(b.auc, a.auc);
  assert.ok(b.ci[0] <= a.ci[0] && b.ci[1] >= a.ci[1], `${b.ci} holds ${a.ci}`);
  const md = await cli(["report", "examples/jsonl-store", "--resamples", "400", "--interval", "expanded"]);
  assert.match(md.stdout, /expanded percentile \(Hesterberg 2015, widened for few tasks\) 95% CI/);
});

test("--interval studentized: AUC and ΔAUC get bootstrap-t intervals, other figures the expanded percentile", async () => {
  // The demo: on the 3-task example store most draws separate perfectly (SE* = 0), so bootstrap-t is unbounded there.
  const args = ["report", "data/demo", "--format", "json", "--resamples", "200"];
  const pct = JSON.parse((await cli(args)).stdout);
  const st = JSON.parse((await cli([...args, "--interval", "studentized"])).stdout);
  assert.equal(st.settings.interval, "studentized");
  const auc = st.rq1.auc.find((a: any) => a.ci !== null);
  assert.match(auc.bootstrap.interval_note, /^studentized \(bootstrap-t\) for auc/);
  assert.notDeepEqual(auc.ci, pct.rq1.auc.find((a: any) => a.method === auc.method).ci);
  const exp = JSON.parse((await cli([...args, "--interval", "expanded"])).stdout);
  assert.match(st.rq4.outcome_step[0].bootstrap.interval_note, /expanded percentile for .*no per-draw standard error/);
  assert.deepEqual(st.rq4.outcome_step[0].ci, exp.rq4.outcome_step[0].ci);
});
