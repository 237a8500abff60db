// Judge-corrected means (issue 47; analysis/stats/ppi-mean.ts): the estimate by hand, λ against the closed form
// the variance minimisation reduces to, the fallback when the judge says nothing, a coverage band from a
// fixed-seed simulation, and the CLI on DevAI.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { ppiMean, powerTunedLambda, type PpiClusters } from "../analysis/stats/ppi-mean.js";
import { simulatedCoverage } from "../bench/ppi-coverage.js";
import { readStore } from "../store/read-store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

/** One trajectory per task: h and f per task, the first `labelled` tasks carrying h. */
function iid(h: number[], f: number[], labelled: number): PpiClusters {
  const n = f.length;
  const c = {
    fAll: Float64Array.from(f),
    nAll: new Float64Array(n).fill(1),
    hRef: new Float64Array(n),
    fRef: new Float64Array(n),
    nRef: new Float64Array(n),
  };
  for (let t = 0; t < labelled; t++) {
    c.hRef[t] = h[t];
    c.fRef[t] = f[t];
    c.nRef[t] = 1;
  }
  return c;
}

test("a fixed λ: θ = mean_ref(h) + λ·(mean_all(f) − mean_ref(f)), by hand", () => {
  // Labelled: h = 1, 0, 1 with f = 1, 1, 0; unlabelled f = 1, 1, 1. mean_ref(h) = 2/3, mean_ref(f) = 2/3,
  // mean_all(f) = 5/6: θ(1) = 2/3 + 1/6 = 5/6, θ(0.5) = 2/3 + 1/12 = 3/4.
  const c = iid([1, 0, 1, 0, 0, 0], [1, 1, 0, 1, 1, 1], 3);
  const one = ppiMean(c, { seed: "s", resamples: 200, level: 0.95, lambda: 1 })!;
  assert.ok(Math.abs(one.estimate - 5 / 6) < 1e-12);
  assert.equal(one.lambda_rule, "fixed");
  const half = ppiMean(c, { seed: "s", resamples: 200, level: 0.95, lambda: 0.5 })!;
  assert.ok(Math.abs(half.estimate - 3 / 4) < 1e-12);
  assert.ok(Math.abs(half.classical.estimate - 2 / 3) < 1e-12);
  assert.ok(Math.abs(half.judge_only.estimate - 5 / 6) < 1e-12);
  assert.deepEqual([half.n_reference, half.reference_tasks, half.n_all, half.tasks], [3, 3, 6, 6]);
  assert.equal(ppiMean(iid([1], [1, 0, 1], 1), { seed: "s", resamples: 50, level: 0.95 }), null, "one labelled task");
});

test("powerTunedLambda is −Cov(A, B)/Var(B), clipped to [0, 1], by hand", () => {
  // a = (1, 2, 3), b = (−1, −2, −4): means 2 and −7/3; Cov = (−1·4/3 + 0 + 1·(−5/3))/n, Var(b) = (16/9 + 1/9 + 25/9)/n
  // → −Cov/Var = 3/(42/9) = 27/42.
  assert.ok(Math.abs(powerTunedLambda(Float64Array.of(1, 2, 3), Float64Array.of(-1, -2, -4)) - 27 / 42) < 1e-12);
  assert.equal(powerTunedLambda(Float64Array.of(1, 2, 3), Float64Array.of(1, 2, 3)), 0, "clipped at 0");
  assert.equal(powerTunedLambda(Float64Array.of(1, 2, 3), Float64Array.of(-1, -2, -3)), 1, "clipped at 1");
  assert.equal(powerTunedLambda(Float64Array.of(1, 2, 3), Float64Array.of(5, 5, 5)), 0, "B never varies");
});

test("iid data: the power-tuned λ approaches Cov(h, f)/Var(f) on the labelled sample, the PPI++ optimum", () => {
  // For θ = mean_n(h) + λ(mean_N(f) − mean_n(f)) with the n labelled among the N, Var θ(λ) is least at
  // λ* = Cov(h, f)/Var(f) (the (1 − n/N) factors cancel; Angelopoulos, Duchi & Zrnic 2024 give it for disjoint
  // sets). The bootstrap's λ estimates it.
  const rng = seedrandom("ppi-iid");
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const h = Array.from({ length: 200 }, () => 0.5 + 0.2 * gauss());
  const f = h.map((x) => 0.6 * x + 0.1 + 0.1 * gauss());
  const n = 60;
  const mh = h.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const mf = f.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let cov = 0;
  let vf = 0;
  for (let i = 0; i < n; i++) {
    cov += (h[i] - mh) * (f[i] - mf);
    vf += (f[i] - mf) ** 2;
  }
  const r = ppiMean(iid(h, f, n), { seed: "s", resamples: 20_000, level: 0.95 })!;
  assert.ok(Math.abs(r.lambda - cov / vf) < 0.08, `${r.lambda} vs ${cov / vf}`);
  assert.ok(r.ci[1] - r.ci[0] < r.classical.ci[1] - r.classical.ci[0], "narrower than the classical interval");
  assert.ok(r.effective_reference! > n);
});

test("every trajectory labelled: nothing to correct with, λ = 0 and the corrected estimate is the classical one", () => {
  const c = iid([1, 0, 1, 1, 0], [1, 1, 0, 1, 1], 5);
  const r = ppiMean(c, { seed: "s", resamples: 300, level: 0.95 })!;
  assert.equal(r.lambda, 0);
  assert.equal(r.estimate, r.classical.estimate);
  assert.deepEqual(r.ci, r.classical.ci);
});

test("coverage band (fixed seed, small): the simulation's corrected intervals cover μ in ≥ 85% and are narrower", () => {
  // bench/ppi-coverage.ts measures the full table (docs/statistics.md); this run: 60 replicates × 300 resamples.
  const rows = simulatedCoverage([10], { replicates: 60, resamples: 300, seed: "ppi-band" });
  assert.equal(rows.length, 3);
  for (const r of rows) {
    assert.ok(r.corrected >= 0.85, `${r.arm}: ${r.corrected}`);
    assert.ok(r.width_corrected < r.width_classical, `${r.arm}: ${r.width_corrected} vs ${r.width_classical}`);
  }
});

test("gcpc leaderboard --judge-corrected on DevAI: a corrected row per arm; its options are checked", async () => {
  const dir = tempDir("gcpc-ppi-");
  const tasks = join(dir, "tasks.txt");
  const store = join(repo, "data/real/devai");
  const ids = (await readStore(store)).store!.tasks.map((t) => t.task_id).sort();
  writeFileSync(tasks, `# ten of the DevAI tasks\n${ids.slice(0, 10).join("\n")}\n`);
  const base = ["leaderboard", store, "--by", "harness", "--metric", "gcpc", "--judge-corrected", "--resamples", "300"];
  const all = await cli([...base, "--format", "json"]);
  assert.equal(all.code, 0, all.stderr);
  const board = JSON.parse(all.stdout);
  assert.equal(board.correction.reference_judge, "human consensus");
  for (const row of board.rows) {
    assert.equal(row.corrected.lambda, 0, "fully labelled");
    assert.equal(row.corrected.n_reference, 55);
  }
  const some = await cli([...base, "--reference-tasks", tasks, "--format", "json"]);
  assert.equal(some.code, 0, some.stderr);
  for (const row of JSON.parse(some.stdout).rows) {
    assert.deepEqual([row.corrected.n_reference, row.corrected.reference_tasks], [10, 10]);
    assert.ok(row.corrected.lambda > 0, `${row.arm}: the agent judge tracks the humans, so λ > 0`);
  }
  const md = await cli([...base, "--reference-tasks", tasks]);
  assert.match(md.stdout, /## Judge-corrected means \(towards human consensus\)/);
  assert.match(md.stdout, /those of the 10 tasks listed/);
  const fixed = await cli([...base, "--lambda", "1", "--format", "json"]);
  assert.equal(JSON.parse(fixed.stdout).rows[0].corrected.lambda_rule, "fixed");
  for (const [extra, message] of [
    [["--lambda", "2"], /--lambda must be a number in \[0, 1\]/],
    [["--reference-tasks", join(dir, "nope.txt")], /no such file/],
  ] as const) {
    const r = await cli([...base, ...extra]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
  }
  const passRate = await cli(["leaderboard", store, "--judge-corrected"]);
  assert.match(passRate.stderr, /--judge-corrected applies to GCPC \(--metric gcpc/);
  const noReference = await cli([
    "leaderboard",
    join(repo, "data/real/terminal-bench"),
    "--metric",
    "gcpc",
    "--judge-corrected",
  ]);
  assert.match(noReference.stderr, /names no reference_judge/);
});

test("the power-tuned λ follows the judge: near 0 on LLM-Rubric (κ about 0.01), large on DevAI (κ 0.78)", async () => {
  const { storeCoverage } = await import("../bench/ppi-coverage.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const o = { replicates: 12, resamples: 300, seed: "ppi-lambda" };
  const rubric = prepareStore((await readStore(join(repo, "data/real/llm-rubric"))).store!);
  const devai = prepareStore((await readStore(join(repo, "data/real/devai"))).store!);
  for (const r of storeCoverage(rubric, "LLM-Rubric", "model", [20], o))
    assert.ok(r.lambda < 0.4, `${r.arm}: ${r.lambda}`);
  for (const r of storeCoverage(devai, "DevAI", "harness", [20], o))
    assert.ok(r.lambda > 0.55, `${r.arm}: ${r.lambda}`);
});

test("gcpc compare --judge-corrected on DevAI: with every unit labelled, the Δ is the reference judge's own Δ", async () => {
  const store = join(repo, "data/real/devai");
  const arms = ["--a", "harness=MetaGPT", "--b", "harness=OpenHands", "--resamples", "300", "--format", "json"];
  const r = await cli(["compare", store, ...arms, "--judge-corrected"]);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout).score_delta;
  assert.equal(d.reference_judge, "human consensus");
  assert.equal(d.corrected.lambda, 0);
  // The reference judge's means per arm, from the leaderboard scored by that judge (one attempt per task).
  const lb = await cli([
    "leaderboard",
    store,
    "--by",
    "harness",
    "--metric",
    "gcpc",
    "--judge",
    "human consensus",
    "--resamples",
    "50",
    "--format",
    "json",
  ]);
  const value = (arm: string) => JSON.parse(lb.stdout).rows.find((x: { arm: string }) => x.arm === arm).value;
  assert.ok(Math.abs(d.corrected.estimate - (value("OpenHands") - value("MetaGPT"))) < 1e-12);
  const bad = await cli(["compare", store, ...arms, "--judge-corrected", "--method", "holistic"]);
  assert.equal(bad.code, 2);
});

test("gcpc power --judge-corrected: the half-widths by number of labelled tasks shrink, the corrected below the classical", async () => {
  const r = await cli([
    "power",
    join(repo, "data/real/devai"),
    "--judge-corrected",
    "--arm",
    "harness=MetaGPT",
    "--labelled",
    "5,15,30",
    "--simulations",
    "20",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.equal(d.tasks_with_reference, 55);
  assert.deepEqual(
    d.rows.map((x: { labelled_tasks: number }) => x.labelled_tasks),
    [5, 15, 30],
  );
  for (let i = 0; i < d.rows.length; i++) {
    assert.ok(d.rows[i].half_width_corrected < d.rows[i].half_width_classical);
    if (i > 0) assert.ok(d.rows[i].half_width_corrected < d.rows[i - 1].half_width_corrected);
  }
  const none = await cli(["power", join(repo, "data/real/devai"), "--judge-corrected"]);
  assert.match(none.stderr, /needs --arm FIELD=VALUE/);
});
