// gcpc compare on arms that share no task (issue 45.5): an unpaired two-sample, task-clustered bootstrap, labelled
// unpaired in every format; its interval's width against the analytic standard error of a difference of means.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { twoSampleDelta } from "../analysis/stats/two-sample-bootstrap.js";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;

test("two-sample bootstrap: the estimate by hand, and the 95% interval ≈ ±1.96·√(s²_a/n_a + s²_b/n_b)", () => {
  // One value per task (clusters of one): the bootstrap of each mean is the iid one, so its percentile interval's
  // half-width approaches 1.96 × the difference's standard error (with the (n−1)/n plug-in variance).
  const rng = seedrandom("two-sample");
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const xa = Array.from({ length: 150 }, () => 0.4 + 0.2 * gauss());
  const xb = Array.from({ length: 250 }, () => 0.5 + 0.3 * gauss());
  const sums = (xs: number[]) => ({ sum: Float64Array.from(xs), count: new Float64Array(xs.length).fill(1) });
  const r = twoSampleDelta(sums(xa), sums(xb), { seed: "s", resamples: 20_000, level: 0.95 });
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const pvar = (xs: number[]) => xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / xs.length;
  assert.ok(Math.abs(r.estimate - (mean(xb) - mean(xa))) < 1e-12);
  const se = Math.sqrt(pvar(xa) / xa.length + pvar(xb) / xb.length);
  const half = (r.ci![1] - r.ci![0]) / 2;
  assert.ok(Math.abs(half / (1.959964 * se) - 1) < 0.04, `half-width ${half} vs ${1.959964 * se}`);
  // A sample of one task has no interval.
  assert.equal(twoSampleDelta(sums([1]), sums(xb), { seed: "s", resamples: 100, level: 0.95 }).ci, null);
});

test("LLM-Rubric: systems that ran their own dialogues are compared unpaired, said so in Markdown, JSON and CSV", async () => {
  const store = join(repo, "data/real/llm-rubric");
  const base = ["compare", store, "--a", "model=0", "--b", "model=1", "--resamples", "400"];
  const md = await cli(base);
  assert.equal(md.code, 0, md.stderr);
  assert.match(md.stdout, /^# Compare \(unpaired\)/);
  assert.match(md.stdout, /\*\*Caveat:\*\* unpaired: the arms share no task/);
  const json = JSON.parse((await cli([...base, "--format", "json"])).stdout);
  assert.equal(json.unpaired, true);
  assert.equal(json.common_tasks, 0);
  assert.deepEqual([json.a.tasks, json.b.tasks], [76, 71]);
  // The endpoints' Monte Carlo error is printed (issue 55.1): positive, well below the interval's width.
  for (const d of [json.pass_rate_delta, json.score_delta]) {
    assert.ok(d.ci_mc_se[0] > 0 && d.ci_mc_se[1] > 0, JSON.stringify(d.ci_mc_se));
    assert.ok(d.ci_mc_se[0] < (d.ci[1] - d.ci[0]) / 10);
  }
  assert.match(md.stdout, /\(unpaired; endpoints' MC SE [\d.]+, [\d.]+ pp;/);
  // The unpaired score Δ (issue 55.5: never checked): each side's mean GCPC is that arm's leaderboard value.
  const gcpc = JSON.parse(
    (await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--resamples", "50", "--format", "json"]))
      .stdout,
  );
  const meanOf = (arm: string) => gcpc.rows.find((x: { arm: string }) => x.arm === arm).value;
  assert.ok(Math.abs(json.score_delta.mean_a - meanOf("0")) < 1e-12, `${json.score_delta.mean_a} vs ${meanOf("0")}`);
  assert.ok(Math.abs(json.score_delta.mean_b - meanOf("1")) < 1e-12);
  assert.ok(Math.abs(json.score_delta.estimate - (meanOf("1") - meanOf("0"))) < 1e-12);
  // By hand from the arms' own rates: Δ = b − a.
  assert.ok(Math.abs(json.pass_rate_delta.estimate - (json.b.pass_rate - json.a.pass_rate)) < 1e-12);
  const csv = (await cli([...base, "--format", "csv"])).stdout;
  assert.match(
    csv,
    /^quantity,group,estimate,ci_low,ci_high,tasks_a,tasks_b,pairing\npass_rate_delta,b - a,.*,unpaired\n/,
  );
  const board = await cli(["leaderboard", store, "--by", "model", "--metric", "gcpc", "--resamples", "100"]);
  assert.equal((board.stdout.match(/shares no task with another arm/g) ?? []).length, 3);
  assert.doesNotMatch(board.stdout, /of the board's 76 tasks/);
  // --judge-corrected on unpaired arms says why there is no corrected Δ, in Markdown and JSON (issue 55.1).
  const corrected = await cli([...base, "--judge-corrected"]);
  assert.equal(corrected.code, 0, corrected.stderr);
  assert.match(corrected.stdout, /Judge-corrected Δ: not computed \(the arms share no matched unit/);
  const cj = JSON.parse((await cli([...base, "--judge-corrected", "--format", "json"])).stdout);
  assert.equal(cj.corrected.available, false);
});
