// gcpc compare and gcpc leaderboard: hand-made stores with figures computed by hand, scipy's exact McNemar,
// a brute-force sign-flip enumeration, the properties (swap negates, an arm against itself is 0), and the
// Terminal-Bench leaderboard's published accuracies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { prepareStore } from "../analysis/rq/prepared.js";
import { compareArms, type CompareResult, type TransitionCell } from "../analysis/rq/arms/compare-arms.js";
import { leaderboard } from "../analysis/rq/arms/leaderboard.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { readStore } from "../store/read-store.js";
import { writeStore } from "../store/write-store.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const settings = { ...DEFAULT_SETTINGS, resamples: 400, headline_resamples: 400 };
const scipy: { up: number; down: number; p: number }[] = JSON.parse(
  readFileSync(join(repo, "test/fixtures/mcnemar-scipy-reference.json"), "utf8"),
);

/**
 * 10 tasks, models A and B, one trial each: 7 tasks FAIL→PASS, 2 PASS→FAIL, 1 PASS→PASS. Three items; A's
 * trajectory says Yes to item k when k < (task mod 3), B's when k < (task mod 3) + 1 (one more Yes), so every
 * pair's GCPC Δ is +1/3.
 */
function armsStore() {
  const rows: SmallTrajectory[] = [];
  const outcomes: ["PASS" | "FAIL", "PASS" | "FAIL"][] = [
    ...Array(7).fill(["FAIL", "PASS"]),
    ["PASS", "FAIL"],
    ["PASS", "FAIL"],
    ["PASS", "PASS"],
  ];
  outcomes.forEach(([a, b], t) => {
    const yes = t % 3;
    const labels = (n: number) => [0, 1, 2].map((k) => (k < n ? "Yes" : "No") as "Yes" | "No");
    rows.push({ task: `t${t}`, outcome: a, labels: labels(yes), model: "A", trial: 1 });
    rows.push({ task: `t${t}`, outcome: b, labels: labels(yes + 1), model: "B", trial: 1 });
  });
  return prepareStore(smallStore("two arms (synthetic)", rows));
}

const result = (r: ReturnType<typeof compareArms>): CompareResult => {
  assert.ok(!("available" in r), JSON.stringify(r));
  return r as CompareResult;
};

test("trial pairs: Δ pass rate and its exact McNemar p as computed by hand and by scipy", () => {
  const r = result(compareArms(armsStore(), { a: { model: "A" }, b: { model: "B" }, settings }));
  assert.equal(r.pairing.mode, "trial");
  assert.equal(r.pairing.chosen, "automatic");
  assert.deepEqual(r.matched, { tasks: 10, pairs: 10, unmatched_a: 0, unmatched_b: 0, no_trial: 0 });
  assert.ok(Math.abs(r.pass_rate_delta.estimate! - (7 - 2) / 10) < 1e-12);
  assert.ok(Math.abs(r.pass_rate_delta.p! - scipy.find((c) => c.up === 7 && c.down === 2)!.p) < 1e-12);
  assert.ok("FAIL→PASS" in r.transitions);
  const t = r.transitions as Record<string, { n: number; delta: { median: number | null } }>;
  assert.deepEqual(
    Object.entries(t).map(([k, v]) => [k, v.n]),
    [
      ["FAIL→FAIL", 0],
      ["FAIL→PASS", 7],
      ["PASS→FAIL", 2],
      ["PASS→PASS", 1],
    ],
  );
  assert.ok(Math.abs(t["FAIL→PASS"].delta.median! - 1 / 3) < 1e-12, "every pair gains one of three items");
  assert.equal(r.noise_floor.source, "paper");
});

test("swapping a and b negates every delta, mirrors the interval and the transitions", () => {
  const p = armsStore();
  const ab = result(compareArms(p, { a: { model: "A" }, b: { model: "B" }, settings }));
  const ba = result(compareArms(p, { a: { model: "B" }, b: { model: "A" }, settings }));
  assert.equal(ba.pass_rate_delta.estimate, -ab.pass_rate_delta.estimate!);
  assert.equal(ba.pass_rate_delta.p, ab.pass_rate_delta.p);
  const [lo, hi] = ab.pass_rate_delta.ci!;
  assert.ok(Math.abs(ba.pass_rate_delta.ci![0] + hi) < 1e-12 && Math.abs(ba.pass_rate_delta.ci![1] + lo) < 1e-12);
  const t = (r: CompareResult, k: string) => (r.transitions as Record<string, TransitionCell>)[k];
  for (const [x, y] of [
    ["FAIL→PASS", "PASS→FAIL"],
    ["PASS→PASS", "PASS→PASS"],
    ["FAIL→FAIL", "FAIL→FAIL"],
  ]) {
    assert.equal(t(ab, x).n, t(ba, y).n);
    if (t(ab, x).n) {
      assert.equal(t(ab, x).delta.median, -t(ba, y).delta.median!);
      assert.equal(t(ab, x).improved_share, t(ba, y).regressed_share);
    }
  }
});

test("an arm compared with itself gives Δ = 0 everywhere", () => {
  const r = result(compareArms(armsStore(), { a: { model: "A" }, b: { model: "A" }, settings }));
  assert.equal(r.pass_rate_delta.estimate, 0);
  assert.deepEqual(r.pass_rate_delta.ci, [0, 0]);
  assert.equal(r.pass_rate_delta.p, null, "no discordant pair: the test is not defined");
  for (const cell of Object.values(r.transitions as Record<string, { n: number; delta: { median: number | null } }>))
    if (cell.n) assert.equal(cell.delta.median, 0);
});

test("task pairs: the sign-flip p equals a brute-force enumeration of every sign assignment", () => {
  // Two models, 8 tasks, 3 attempts each: per task the difference of the mean pass rates.
  const rows: SmallTrajectory[] = [];
  const passes = [
    [0, 3],
    [1, 2],
    [0, 2],
    [2, 1],
    [1, 3],
    [0, 0],
    [3, 3],
    [0, 1],
  ];
  passes.forEach(([a, b], t) => {
    for (let k = 0; k < 3; k++) {
      rows.push({ task: `t${t}`, outcome: k < a ? "PASS" : "FAIL", labels: ["Yes"], model: "A", trial: k + 1 });
      rows.push({ task: `t${t}`, outcome: k < b ? "PASS" : "FAIL", labels: ["Yes"], model: "B", trial: k + 1 });
    }
  });
  const r = result(
    compareArms(prepareStore(smallStore("task pairs (synthetic)", rows)), {
      a: { model: "A" },
      b: { model: "B" },
      settings,
    }),
  );
  assert.equal(r.pairing.mode, "task", "several attempts per task: task pairing");
  const d = passes.map(([a, b]) => (b - a) / 3);
  assert.ok(Math.abs(r.pass_rate_delta.estimate! - d.reduce((x, y) => x + y, 0) / d.length) < 1e-12);
  // The statistic is Σ d_t (sizes count, not only signs); every one of the 2^8 sign flips is equally likely under H0.
  const observed = Math.abs(d.reduce((x, y) => x + y, 0));
  let extreme = 0;
  for (let mask = 0; mask < 256; mask++) {
    const flipped = d.reduce((acc, x, i) => acc + (mask & (1 << i) ? -x : x), 0);
    if (Math.abs(flipped) >= observed - 1e-12) extreme++;
  }
  assert.ok(Math.abs(r.pass_rate_delta.p! - extreme / 256) < 1e-12, `${r.pass_rate_delta.p} vs ${extreme / 256}`);
  // The sign test of the same signs differs here: it ignores that +1 and −1/3 are not the same size.
  const s = d.map(Math.sign);
  let signExtreme = 0;
  for (let mask = 0; mask < 256; mask++) {
    const flipped = s.reduce((acc, x, i) => acc + (mask & (1 << i) ? -x : x), 0);
    if (Math.abs(flipped) >= Math.abs(s.reduce((x, y) => x + y, 0))) signExtreme++;
  }
  assert.notEqual(extreme, signExtreme);
  // Trial pairing of the same attempts: 3 pairs per task are not independent, so the test is clustered by task
  // and gives the same p (each task's discordance is 3·d_t); McNemar over the 24 pairs would treat them as iid.
  const trial = result(
    compareArms(prepareStore(smallStore("task pairs (synthetic)", rows)), {
      a: { model: "A" },
      b: { model: "B" },
      pair: "trial",
      settings,
    }),
  );
  assert.equal(trial.pass_rate_delta.clustered, true);
  assert.match(trial.pass_rate_delta.test, /task-clustered: 8 of 8 tasks hold several trial pairs/);
  assert.ok(Math.abs(trial.pass_rate_delta.p! - extreme / 256) < 1e-12);
});

test("the exact McNemar p of gcpc compare matches scipy on the τ² base vs fine-tuned store (40 vs 11)", async () => {
  const r = await cli([
    "compare",
    join(repo, "data/real/tau2-sft"),
    "--a",
    "model=gpt-4.1",
    "--b",
    "model=ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm",
    "--format",
    "json",
    "--resamples",
    "200",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out).slice(2, 7), ["method", "caveats", "a", "b", "where"]);
  for (const key of ["a", "b", "pairing", "matched", "pass_rate_delta", "transitions", "items", "noise_floor"])
    assert.ok(key in out, key);
  assert.deepEqual(out.matched.pairs, 140);
  // 40 of the 100 tasks hold several trial pairs: the iid McNemar (40 vs 11 discordant, scipy p 6e-5 too) is
  // replaced by the task-clustered sign-flip test, here recomputed from the store's rows with exact BigInt counts.
  assert.equal(out.pass_rate_delta.clustered, true);
  assert.match(out.pass_rate_delta.test, /task-clustered: 40 of 100 tasks hold several trial pairs/);
  const { store } = await readStore(join(repo, "data/real/tau2-sft"));
  // A pair shares task, trial and every unnamed field (here the harness: llm_agent or llm_agent_solo).
  const key = (t: { harness?: string | null; task_id: string; trial?: number | null }) =>
    `${t.harness}|${t.task_id}|${t.trial}`;
  const outcome = new Map(store.trajectories.filter((t) => t.model !== "gpt-4.1").map((t) => [key(t), t.outcome]));
  const perTask = new Map<string, number>();
  for (const t of store.trajectories) {
    if (t.model !== "gpt-4.1") continue;
    const b = outcome.get(key(t));
    if (b === undefined) continue;
    const d = (b === "PASS" ? 1 : 0) - (t.outcome === "PASS" ? 1 : 0);
    perTask.set(t.task_id, (perTask.get(t.task_id) ?? 0) + d);
  }
  let counts = new Map<number, bigint>([[0, 1n]]);
  const blocks = [...perTask.values()].filter((x) => x !== 0);
  for (const b of blocks) {
    const next = new Map<number, bigint>();
    for (const [s, c] of counts) for (const t of [s + b, s - b]) next.set(t, (next.get(t) ?? 0n) + c);
    counts = next;
  }
  const cut = Math.abs(blocks.reduce((x, y) => x + y, 0));
  let hits = 0n;
  for (const [s, c] of counts) if (Math.abs(s) >= cut) hits += c;
  const exact = Number((hits * 10n ** 18n) / 2n ** BigInt(blocks.length)) / 1e18;
  assert.ok(Math.abs(out.pass_rate_delta.p - exact) < 1e-15, `${out.pass_rate_delta.p} vs ${exact}`);
  assert.ok(out.pass_rate_delta.p > scipy.find((c) => c.up === 40 && c.down === 11)!.p);
  const bad = await cli(["compare", join(repo, "data/real/tau2-sft"), "--a", "colour=red", "--b", "model=x"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--a needs FIELD=VALUE.*FIELD one of harness, model/);
});

test("leaderboard on Terminal-Bench: droid + claude-4-1-opus 235/400 and the harness's own per-run accuracies", async () => {
  const p = prepareStore((await readStore(join(repo, "data/real/terminal-bench"))).store);
  const board = leaderboard(p, { by: ["harness", "model"], settings: { ...settings, resamples: 300 } });
  assert.ok(!("available" in board));
  const top = board.rows[0];
  assert.equal(top.arm, "droid / claude-4-1-opus");
  assert.equal(top.value, 235 / 400);
  const runs: number[] = JSON.parse(readFileSync(join(repo, "test/fixtures/real-import-reference.json"), "utf8"))
    .terminal_bench.droid_opus_run_accuracies;
  const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
  const se = Math.sqrt(runs.reduce((a, x) => a + (x - mean) ** 2, 0) / (runs.length - 1) / runs.length);
  assert.equal(top.runs.k, 5);
  assert.ok(Math.abs(top.runs.mean! - mean) < 1e-12 && Math.abs(top.runs.se! - se) < 1e-12);
  assert.equal(board.pairwise.length, (13 * 12) / 2);
  assert.ok(board.rows.every((r) => r.rank_ci && r.rank_ci[0] <= r.rank && r.rank <= r.rank_ci[1]));
  // The last arm in value order cannot be tied with the first one.
  assert.ok(!board.tie_groups.some((g) => g.includes(top.arm) && g.includes(board.rows[12].arm)));
});

test("gcpc compare and leaderboard run on the demo and write their formats", async () => {
  const out = join(tempDir("gcpc-compare-"), "c.csv");
  const r = await cli([
    "compare",
    "data/demo",
    "--a",
    "condition=none",
    "--b",
    "condition=curated",
    "--resamples",
    "100",
    "--format",
    "csv",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(readFileSync(out, "utf8"), /^quantity,group,estimate,ci_low,ci_high,n,tasks,p\npass_rate_delta,b - a,/);
  const lb = await cli(["leaderboard", "data/demo", "--by", "harness", "--resamples", "100"]);
  assert.equal(lb.code, 0, lb.stderr);
  assert.match(lb.stdout, /\| rank \[95% CI\] \| joint rank set \| arm \|/);
  const store = join(tempDir("gcpc-compare-store-"), "s");
  await writeStore(store, smallStore("x (synthetic)", [{ task: "t", outcome: "PASS", labels: ["Yes"] }]), "jsonl");
  const none = await cli(["compare", store, "--a", "model=q", "--b", "model=m"]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /compare not available: arm a selects no binary trajectory/);
});

test("RQ3's matched pairs are gcpc compare's trial pairs of condition none against curated (same rule, same pairs)", async () => {
  const { matchPairs } = await import("../analysis/rq/matched-pairs.js");
  const { armTable, armTrialPairs } = await import("../analysis/rq/arms/compare-arms.js");
  const p = prepareStore((await readStore(join(repo, "data/demo"))).store);
  const table = armTable(p);
  assert.ok(!("available" in table));
  const pairs = armTrialPairs(table, { a: { condition: "none" }, b: { condition: "curated" } });
  assert.ok(Array.isArray(pairs));
  const rq3 = matchPairs(p)
    .pairs.map((x) => `${x.without_id}|${x.with_id}`)
    .sort();
  const compare = pairs.map((x) => `${table.rows[x.a].id}|${table.rows[x.b].id}`).sort();
  assert.equal(compare.length, rq3.length);
  assert.deepEqual(compare, rq3);
  // Beyond the pair sets: per transition the same scored pairs (n, zero-evidence sides left out by both) and the
  // same Δ distribution (RQ3 rounds Δ to 12 decimals, compare does not; the threshold differs, the median not).
  const { rq3SkillEffects } = await import("../analysis/rq/rq3-skill-effects.js");
  const r3 = rq3SkillEffects(p, { ...settings, resamples: 50 });
  const c = result(compareArms(p, { a: { condition: "none" }, b: { condition: "curated" }, pair: "trial", settings }));
  assert.ok(!("available" in c.transitions));
  for (const t of r3.transitions) {
    const cell: TransitionCell = (c.transitions as Record<string, TransitionCell>)[`${t.from}→${t.to}`];
    assert.equal(cell.n, t.n, `${t.from}→${t.to}: n`);
    assert.ok(Math.abs(cell.delta.median! - t.median_delta!) < 1e-9, `${t.from}→${t.to}: median`);
  }
});

test("a zero-width interval prints 'degenerate' in gcpc leaderboard and gcpc compare, as in the report", async () => {
  // Model C passes every one of the 10 tasks: each draw of the tasks gives it 100%, so its interval is [1, 1].
  const rows: SmallTrajectory[] = [];
  for (let t = 0; t < 10; t++) {
    rows.push({ task: `t${t}`, outcome: t < 6 ? "PASS" : "FAIL", labels: ["Yes", "No"], model: "A", trial: 1 });
    rows.push({ task: `t${t}`, outcome: t < 3 ? "PASS" : "FAIL", labels: ["No", "No"], model: "B", trial: 1 });
    rows.push({ task: `t${t}`, outcome: "PASS", labels: ["Yes", "Yes"], model: "C", trial: 1 });
  }
  const board = leaderboard(prepareStore(smallStore("three arms (synthetic)", rows)), { by: ["model"], settings });
  assert.ok(!("available" in board));
  const c = board.rows.find((r) => r.arm === "C")!;
  assert.deepEqual([c.value, c.ci, c.degenerate], [1, [1, 1], true]);
  assert.equal(board.rows.find((r) => r.arm === "A")!.degenerate, undefined, "A's pass rate varies over draws");
  const store = join(tempDir("gcpc-degenerate-arms-"), "s");
  await writeStore(store, smallStore("three arms (synthetic)", rows), "jsonl");
  const lb = await cli(["leaderboard", store, "--by", "model", "--resamples", "200"]);
  assert.equal(lb.code, 0, lb.stderr);
  assert.match(lb.stdout, /\| C \| 10 \| 10 \| 100\.0% degenerate: every draw equals the estimate \|/);
  assert.doesNotMatch(lb.stdout, /\[100\.0%, 100\.0%\]/);
  // An arm against itself: Δ is 0 on every draw.
  const same = await cli(["compare", store, "--a", "model=C", "--b", "model=C", "--resamples", "200"]);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /\*\*Pass-rate Δ \+0\.0 pp degenerate: every draw equals the estimate\*\*/);
});

test("score_delta: every pair's GCPC Δ is +1/3, so Δ = 1/3 and the sign-flip p is 2/2^10 (10 tasks, all one sign)", () => {
  const r = result(compareArms(armsStore(), { a: { model: "A" }, b: { model: "B" }, settings }));
  assert.equal(r.score_delta.method, "gcpc");
  assert.ok(Math.abs(r.score_delta.estimate! - 1 / 3) < 1e-12);
  assert.equal(r.score_delta.tasks, 10);
  assert.ok(Math.abs(r.score_delta.p! - 2 / 1024) < 1e-15, `${r.score_delta.p}`);
  assert.match(r.score_delta.test, /exact sign-flip test/);
  // Every draw's mean of a constant Δ is 1/3 (up to the last bits of a weighted sum).
  assert.ok(r.score_delta.ci!.every((x) => Math.abs(x - 1 / 3) < 1e-12));
});

test("caveats beside the figures: not outcome-free (Terminal-Bench), different task sets (τ²), one task (no broken bold)", async () => {
  const tb = await cli([
    "compare",
    join(repo, "data/real/terminal-bench"),
    "--a",
    "harness=droid,model=claude-4-sonnet",
    "--b",
    "harness=droid,model=claude-4-1-opus",
    "--resamples",
    "50",
  ]);
  assert.equal(tb.code, 0, tb.stderr);
  assert.match(tb.stdout, /\*\*Caveat:\*\* gcpc is not outcome-free: the outcome is computed from these items/);
  const lb = await cli(["leaderboard", join(repo, "data/real/tau2-sft"), "--resamples", "50", "--format", "json"]);
  const rows = JSON.parse(lb.stdout).rows as { tasks: number; caveat: string | null }[];
  for (const r of rows) assert.equal(r.caveat !== null, r.tasks < 100, `${r.tasks} tasks: ${r.caveat}`);
  // One task, one attempt per arm: no interval, and the bold span closes on its text.
  const rowsOne: SmallTrajectory[] = [
    { task: "only", outcome: "PASS", labels: ["Yes"], model: "A", trial: 1 },
    { task: "only", outcome: "FAIL", labels: ["No"], model: "B", trial: 1 },
  ];
  const dir = join(tempDir("gcpc-one-task-"), "store");
  await writeStore(dir, smallStore("one task (synthetic)", rowsOne), "jsonl");
  const one = await cli(["compare", dir, "--a", "model=A", "--b", "model=B"]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /\*\*Caveat:\*\* 1 matched task: no interval and no test can rest on it\./);
  assert.match(one.stdout, /\*\*Pass-rate Δ -100\.0 pp\*\*;/);
  assert.doesNotMatch(one.stdout, / \*\*[;.,]/, "no bold span closing after a space");
});

test("transition quartiles and median on unequal Δ, computed by hand (type-7)", () => {
  // One FAIL→FAIL pair per task, eight tasks; B says Yes to k more of 4 items than A, k = 0, 1, 1, 2, 3, 3, 4, −1,
  // so Δ = k/4: sorted −0.25, 0, 0.25, 0.25, 0.5, 0.75, 0.75, 1. Type-7: median (h = 3.5) = (0.25 + 0.5)/2 = 0.375;
  // q25 (h = 1.75) = 0 + 0.75·0.25 = 0.1875; q75 (h = 5.25) = 0.75; mean = 3.25/8 = 0.40625.
  const ks = [0, 1, 1, 2, 3, 3, 4, -1];
  const rows: SmallTrajectory[] = [];
  ks.forEach((k, t) => {
    const base = k < 0 ? 1 : 0;
    const labels = (n: number) => [0, 1, 2, 3].map((i) => (i < n ? "Yes" : "No") as "Yes" | "No");
    rows.push({ task: `t${t}`, outcome: "FAIL", labels: labels(base), model: "A", trial: 1 });
    rows.push({ task: `t${t}`, outcome: "FAIL", labels: labels(base + k), model: "B", trial: 1 });
  });
  const r = result(
    compareArms(prepareStore(smallStore("unequal deltas (synthetic)", rows)), {
      a: { model: "A" },
      b: { model: "B" },
      settings,
    }),
  );
  const ff = (r.transitions as Record<string, TransitionCell>)["FAIL→FAIL"];
  assert.equal(ff.n, 8);
  assert.ok(Math.abs(ff.delta.median! - 0.375) < 1e-12, `median ${ff.delta.median}`);
  assert.ok(Math.abs(ff.delta.q25! - 0.1875) < 1e-12, `q25 ${ff.delta.q25}`);
  assert.ok(Math.abs(ff.delta.q75! - 0.75) < 1e-12, `q75 ${ff.delta.q75}`);
  assert.ok(Math.abs(ff.delta.mean! - 0.40625) < 1e-12);
  assert.ok(ff.median_delta_ci![0] <= 0.375 && 0.375 <= ff.median_delta_ci![1]);
});

test("an arm that selects nothing names the values its field has (a typo in --a model=…)", async () => {
  const store = new URL("../data/real/tau2-sft", import.meta.url).pathname;
  const r = await cli(["compare", store, "--a", "model=gpt4", "--b", "model=gpt-4.1"]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /arm a selects no binary trajectory; model has: ft:gpt-4\.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm, gpt-4\.1$/m,
  );
});

test("the arm table carries the reference judge's labels beside the scoring judge's (DevAI: the human consensus)", async () => {
  const { armTable } = await import("../analysis/rq/arms/compare-arms.js");
  const { decodeLabels } = await import("../analysis/schema/label-vectors.js");
  const p = prepareStore((await readStore(join(repo, "data/real/devai"))).store);
  const table = armTable(p);
  assert.ok(!("available" in table) && table.reference && table.labels);
  assert.equal(table.reference.judge, "human consensus");
  assert.equal(table.reference.labels.length, table.rows.length);
  // Each row's reference labels are the human consensus's run, not the agent judge's (they differ somewhere).
  const k = table.rows.findIndex((r) => r.id === p.trajectories[0].trajectory_id);
  assert.deepEqual(decodeLabels(table.reference.labels[k]), decodeLabels(p.labelsAt(0, "human consensus") ?? ""));
  assert.ok(table.reference.labels.some((l, i) => l !== table.labels![i]));
  // Scored by the reference judge itself (--judge), there is nothing to show beside it.
  const own = armTable(p, "gcpc", "human consensus");
  assert.ok(!("available" in own) && own.reference === undefined);
});
