// gcpc gate (issue 56.1): the decision table by hand, the exit codes, the three formats, and the error rates at a
// fixed seed with an asserted band (bench/gate-calibration.ts measures the full table in docs/statistics.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { verdictOf } from "../analysis/rq/arms/gate.js";
import { gateCalibration } from "../bench/gate-calibration.js";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;
const tau2 = join(repo, "data/real/tau2-sft");
const FT = "model=ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm";

test("the decision table: worse, better, not worse, inconclusive, insufficient data", () => {
  const zero = { margin: 0, regression: "zero" as const };
  const d2 = { margin: 0.02, regression: "zero" as const };
  assert.equal(verdictOf([-0.09, -0.01], 30, zero).verdict, "worse");
  assert.equal(verdictOf([0.01, 0.09], 30, zero).verdict, "better");
  assert.equal(verdictOf([-0.015, 0.05], 30, d2).verdict, "not worse");
  assert.equal(verdictOf([-0.03, 0.05], 30, d2).verdict, "inconclusive");
  assert.equal(verdictOf([-0.015, 0.05], 30, zero).verdict, "inconclusive", "no margin: no non-inferiority");
  assert.equal(verdictOf([-0.09, -0.01], 4, zero).verdict, "insufficient data", "under 5 matched tasks");
  assert.equal(verdictOf(null, 30, zero).verdict, "insufficient data");
  // --regression margin: a drop counts as worse only below −D.
  assert.equal(verdictOf([-0.05, -0.01], 30, { margin: 0.02, regression: "margin" }).verdict, "inconclusive");
  assert.equal(verdictOf([-0.05, -0.03], 30, { margin: 0.02, regression: "margin" }).verdict, "worse");
});

test("τ² fine-tuned against base: better (exit 0); the other way worse (exit 1); JUnit marks it a failure", async () => {
  const args = ["gate", tau2, "--resamples", "400", "--metric", "pass_rate,gcpc"];
  const up = await cli([...args, "--baseline", "model=gpt-4.1", "--candidate", FT, "--format", "json"]);
  assert.equal(up.code, 0, up.stderr);
  const r = JSON.parse(up.stdout);
  assert.equal(r.verdict, "better");
  assert.equal(r.checks.length, 2);
  assert.equal(r.level, 1 - 0.05 / 2, "Bonferroni over 2 checks");
  // The same Δ as gcpc compare prints (the same matched units and estimator).
  const compare = JSON.parse(
    (await cli(["compare", tau2, "--a", "model=gpt-4.1", "--b", FT, "--resamples", "400", "--format", "json"])).stdout,
  );
  assert.equal(r.checks[0].estimate, compare.pass_rate_delta.estimate);
  assert.equal(r.checks[0].p, compare.pass_rate_delta.p);
  const down = await cli([...args, "--baseline", FT, "--candidate", "model=gpt-4.1", "--format", "junit"]);
  assert.equal(down.code, 1, down.stderr);
  assert.match(down.stdout, /<testsuites name="gcpc gate" tests="2" failures="2" skipped="0">/);
  assert.match(down.stdout, /<failure message="worse: upper bound -[\d.]+ &lt; 0">/);
  const md = await cli([...args, "--baseline", FT, "--candidate", "model=gpt-4.1"]);
  assert.match(md.stdout, /^## Gate: \*\*❌ worse\*\*/);
});

test("Terminal-Bench goose against openhands on claude-4-sonnet: equal rates, inconclusive (exit 3, or 0 when asked)", async () => {
  const tb = join(repo, "data/real/terminal-bench");
  const args = ["gate", tb, "--baseline", "harness=goose,model=claude-4-sonnet", "--candidate"];
  const r = await cli([...args, "harness=openhands,model=claude-4-sonnet", "--resamples", "300", "--format", "json"]);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(JSON.parse(r.stdout).checks[0].estimate, 0);
  const pass = await cli([
    ...args,
    "harness=openhands,model=claude-4-sonnet",
    "--resamples",
    "300",
    "--on-inconclusive",
    "pass",
  ]);
  assert.equal(pass.code, 0);
  const bad = await cli([...args, "harness=openhands", "--margin", "1.5"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--margin must be a number in \[0, 1\)/);
});

test("calibration at a fixed seed: under no change 'worse' at most α; at a drop equal to the margin 'not worse' at most α", () => {
  const rows = gateCalibration(
    [
      { tasks: 60, attempts: 1, delta: 0 },
      { tasks: 60, attempts: 1, delta: -0.05 },
      { tasks: 30, attempts: 4, delta: 0 },
      { tasks: 30, attempts: 4, delta: -0.05 },
    ],
    { replicates: 150, resamples: 300, seed: "gate-band", margin: 0.05, alpha: 0.05 },
  );
  // The band: α plus two binomial SEs of 150 replicates (2·√(0.05·0.95/150) ≈ 0.036).
  for (const r of rows) {
    if (r.delta === 0) assert.ok(r.worse <= 0.05 + 0.036, `no change, ${r.tasks}×${r.attempts}: worse ${r.worse}`);
    else assert.ok(r.not_worse <= 0.05 + 0.036, `drop = margin, ${r.tasks}×${r.attempts}: not worse ${r.not_worse}`);
  }
});

test("guards: the candidate's mean cost per run against the baseline's, as a ratio with a task-clustered interval", async () => {
  const { gate } = await import("../analysis/rq/arms/gate.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { simulatedStore } = await import("../bench/gate-calibration.js");
  const { DEFAULT_SETTINGS } = await import("../analysis/estimates/bootstrap-interval.js");
  const seedrandom = (await import("seedrandom")).default;
  const run = (factor: number) => {
    const rng = seedrandom(`guard:${factor}`);
    const store = simulatedStore({ tasks: 40, attempts: 2, delta: 0 }, rng);
    // Each task a cost level; the candidate's runs cost `factor` times the baseline's, with ±5% noise.
    const level = new Map(store.tasks.map((t) => [t.task_id, 0.5 + rng()]));
    for (const t of store.trajectories)
      t.cost_usd = level.get(t.task_id)! * (t.model === "candidate" ? factor : 1) * (0.95 + 0.1 * rng());
    const r = gate(prepareStore(store), {
      baseline: { model: "baseline" },
      candidate: { model: "candidate" },
      metrics: ["pass_rate"],
      margin: 0.1,
      alpha: 0.05,
      regression: "zero",
      guards: [{ field: "cost_usd", name: "cost", limit: 0.1 }],
      settings: { ...DEFAULT_SETTINGS, resamples: 400 },
    });
    if ("available" in r) throw new Error(r.reason);
    return r.checks.find((c) => c.metric === "guard:cost")!;
  };
  const same = run(1.02);
  assert.equal(same.verdict, "not worse", same.reason);
  assert.ok(Math.abs(same.estimate! - 1.02) < 0.02, `ratio ${same.estimate}`);
  assert.equal(run(1.5).verdict, "worse");
  assert.equal(run(0.7).verdict, "better");
  const { parseGuards } = await import("../cli/gate-command.js");
  assert.deepEqual(parseGuards(["cost:+10%", "duration:+25%"]), [
    { field: "cost_usd", name: "cost", limit: 0.1 },
    { field: "duration_s", name: "duration", limit: 0.25 },
  ]);
  assert.throws(() => parseGuards("price:+10%"), /--guard takes NAME:\+P%/);
});
