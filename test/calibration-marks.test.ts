// A figure marked "calibrated" lands within its stated tolerance of the paper's value; one that does not says
// "calibration target missed" in every format (issue: the RQ3 medians were marked calibrated and missed for two
// rounds without a test noticing).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { readStore } from "../store/read-store.js";
import { loadPaperFigures, paperMarks } from "../report/paper.js";
import { tidyFigures } from "../report/tidy.js";
import { reportSections } from "../report/sections.js";
import { renderMarkdown } from "../report/render.js";
import { CALIBRATED_FIGURES, calibrationTolerance } from "../store/generate/demo-inputs.js";

const repo = new URL("..", import.meta.url).pathname;

test("paperMarks: within the tolerance 'calibrated', beyond it 'calibration target missed' with the distance", () => {
  const o = {
    demo: true,
    benchmarks: ["skillsbench-1.1"],
    inputs: new Set<string>(),
    calibrated: new Set(["rq1.auc.gcpc"]),
  };
  assert.deepEqual(paperMarks("rq1.auc.gcpc", { ...o, estimate: 0.7, paperValue: 0.689 }), ["calibrated"]);
  assert.deepEqual(paperMarks("rq1.auc.gcpc", { ...o, estimate: 0.75, paperValue: 0.689 }), [
    "calibration target missed (|Δ| 0.061 > 0.03)",
  ]);
  assert.equal(calibrationTolerance("rq3.FAIL→FAIL.improved_share"), 0.04);
  assert.equal(calibrationTolerance("rq3.FAIL→PASS.median_delta"), 0.05);
});

test("on the demo, every calibrated figure's mark matches its distance to the paper, in the CSV and the Markdown", async () => {
  const { store } = await readStore(join(repo, "data/demo"));
  const report = analyzeStore(store, { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 });
  const paper = loadPaperFigures();
  const seen = new Map<string, number | null>();
  const rows = tidyFigures(report, paper, (id, estimate) => seen.set(id, estimate));
  let checked = 0;
  for (const id of CALIBRATED_FIGURES) {
    const estimate = seen.get(id);
    const target = paper.figures[id]?.value;
    if (estimate === undefined || estimate === null || target === undefined) continue;
    const row = rows.find((r) => r.paper === target && r.estimate === estimate)!;
    const within = Math.abs(estimate - target) <= calibrationTolerance(id) + 1e-12;
    const mark = String(row.paper_mark);
    assert.equal(mark.startsWith("calibrated"), within, `${id}: ${estimate} vs ${target}: ${mark}`);
    assert.equal(mark.startsWith("calibration target missed"), !within, `${id}: ${mark}`);
    checked++;
  }
  assert.ok(checked >= 15, `${checked} calibrated figures checked`);
  // The RQ3 medians (0 on the demo before the within-pair coupling, paper +0.227 and −0.222) are the case that
  // went unnoticed; they now land within ±0.05 and say "calibrated".
  const md = renderMarkdown(reportSections(report, paper), "");
  assert.match(md, /\| 0\.227 \(calibrated/);
  // Which calibrated figures miss on the demo is pinned: a change that moves another one out is noticed.
  const missed = [...CALIBRATED_FIGURES].filter((id) => {
    const estimate = seen.get(id);
    const target = paper.figures[id]?.value;
    return (
      typeof estimate === "number" &&
      target !== undefined &&
      Math.abs(estimate - target) > calibrationTolerance(id) + 1e-12
    );
  });
  // data/README.md states the count (a figure that drifts when the generator moves).
  const readme = readFileSync(join(repo, "data/README.md"), "utf8");
  const stated = readme.match(/On this demo (\d+|none) of the (\d+) calibrated figures miss/);
  assert.ok(stated, "data/README.md states how many calibrated figures miss their tolerance");
  assert.deepEqual(
    [stated[1] === "none" ? 0 : Number(stated[1]), Number(stated[2])],
    [missed.length, CALIBRATED_FIGURES.size],
    "data/README.md's count of misses",
  );
  assert.deepEqual(missed.sort(), [], "calibrated figures beyond their tolerance on the demo");
});

test("the demo tells the paper's RQ3 story: transition medians and FAIL→FAIL shares within tolerance", async () => {
  const { store } = await readStore(join(repo, "data/demo"));
  const report = analyzeStore(store, { ...DEFAULT_SETTINGS, resamples: 400, headline_resamples: 400 });
  const t = (group: string) => report.rq3.transitions.find((x) => x.group === group)!;
  for (const [group, target] of [
    ["FAIL→PASS", 0.227],
    ["PASS→FAIL", -0.222],
  ] as const) {
    const x = t(group);
    assert.ok(Math.abs(x.median_delta! - target) <= 0.05, `${group} median ${x.median_delta} vs ${target}`);
    assert.ok(x.median_delta_ci && x.median_delta_ci[0] < x.median_delta_ci[1], `${group}: a non-degenerate CI`);
    assert.ok(!x.bootstrap?.degenerate?.includes("median"), `${group}: median not degenerate`);
  }
  assert.ok(Math.abs(t("FAIL→FAIL").improved_share! - 0.209) <= 0.04);
  assert.ok(Math.abs(t("FAIL→FAIL").regressed_share! - 0.187) <= 0.04);
});

test("a paper value the demo neither takes nor searched for is 'reproduced' only within its tolerance (issue 55.4)", async () => {
  const { paperMarks } = await import("../report/paper.js");
  const o = { demo: true, benchmarks: ["skillsbench-1.1"], inputs: new Set<string>(), calibrated: new Set<string>() };
  // RQ2's ρ for TICK: ours 0.0095, the paper's 0.162: |Δ| 0.1525 beyond ±0.10.
  assert.deepEqual(paperMarks("rq2.methods.tick.spearman_rho", { ...o, estimate: 0.0095, paperValue: 0.162 }), [
    "differs from the paper (|Δ| 0.152 > 0.10)",
  ]);
  assert.deepEqual(paperMarks("rq2.methods.tick.spearman_rho", { ...o, estimate: 0.2, paperValue: 0.162 }), [
    "reproduced",
  ]);
  // A count: within 5% of the paper's.
  assert.deepEqual(paperMarks("rq5.transfer.items", { ...o, estimate: 700, paperValue: 713 }), ["reproduced"]);
  assert.deepEqual(paperMarks("rq5.transfer.items", { ...o, estimate: 660, paperValue: 713 }), [
    "differs from the paper (660 against 713: 7.4% > 5%)",
  ]);
});
