// gcpc gate --sequential (issue 56.3): METR's runs replayed in completion order, each look's sequence that of the
// per-task differences recomputed here from the store; the decisions by hand; coverage over all looks at a fixed
// seed (bench/sequential-calibration.ts measures the full table in docs/statistics.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { bettingConfidenceSequence } from "../analysis/stats/betting-cs.js";
import { sequentialDecision } from "../analysis/rq/arms/sequential-gate.js";
import { sequentialCalibration } from "../bench/sequential-calibration.js";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;
const metr = join(repo, "data/real/metr");

test("decisions: worse, better, equivalent, not worse, continue", () => {
  assert.equal(sequentialDecision(-0.3, -0.01, 0.05), "worse");
  assert.equal(sequentialDecision(0.01, 0.3, 0.05), "better");
  assert.equal(sequentialDecision(-0.04, 0.04, 0.05), "equivalent");
  assert.equal(sequentialDecision(-0.04, 0.2, 0.05), "not worse");
  assert.equal(sequentialDecision(-0.2, 0.2, 0.05), "continue");
  assert.equal(sequentialDecision(-0.04, 0.04, 0), "continue", "no margin: no equivalence, no non-inferiority");
});

test("METR GPT-4o → o1-preview replayed in completion order: the looks are the sequence of the tasks' differences", async () => {
  const r = await cli([
    "gate",
    metr,
    "--sequential",
    "--baseline",
    "model=GPT-4o",
    "--candidate",
    "model=o1-preview",
    "--margin",
    "0.05",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const g = JSON.parse(r.stdout);
  // Recomputed here: per task both arms ran, the mean outcome of o1-preview's runs minus GPT-4o's, the task done
  // when the last of those runs completed.
  const store = (await readStore(metr)).store;
  const cells = new Map<string, { a: number[]; b: number[]; done: string }>();
  for (const t of store.trajectories) {
    if (t.model !== "GPT-4o" && t.model !== "o1-preview") continue;
    const c = cells.get(t.task_id) ?? { a: [], b: [], done: "" };
    (t.model === "GPT-4o" ? c.a : c.b).push(t.outcome === "PASS" ? 1 : 0);
    if ((t.completed_at ?? "") > c.done) c.done = t.completed_at ?? "";
    cells.set(t.task_id, c);
  }
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const tasks = [...cells]
    .filter(([, c]) => c.a.length && c.b.length)
    .map(([task, c]) => ({ task, d: mean(c.b) - mean(c.a), done: c.done }))
    .sort((x, y) => (x.done < y.done ? -1 : x.done > y.done ? 1 : 0));
  assert.equal(g.fixed_design_tasks, tasks.length);
  assert.deepEqual(
    g.looks.map((l: { task: string }) => l.task),
    tasks.map((t) => t.task),
  );
  const cs = bettingConfidenceSequence(
    tasks.map((t) => (t.d + 1) / 2),
    { alpha: 0.05 },
  );
  g.looks.forEach((l: { lower: number; upper: number }, i: number) => {
    assert.ok(Math.abs(l.lower - (2 * cs.lower[i] - 1)) < 1e-12 && Math.abs(l.upper - (2 * cs.upper[i] - 1)) < 1e-12);
  });
  // The first look with a decision is where it stopped; fewer tasks than the fixed design's.
  const first = g.looks.findIndex((l: { decision: string }) => l.decision !== "continue") + 1;
  assert.equal(g.stopped_at, first);
  assert.ok(first < g.fixed_design_tasks);
  assert.equal(g.decision, g.looks[first - 1].decision);
});

test("--goal better goes on past not worse: METR o1-preview stops at its first better (or worse) look", async () => {
  const args = ["gate", metr, "--sequential", "--baseline", "model=GPT-4o", "--candidate", "model=o1-preview"];
  const run = async (...extra: string[]) => {
    const r = await cli([...args, "--margin", "0.05", "--format", "json", ...extra]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const [any, better] = [await run(), await run("--goal", "better")];
  // The same looks; the stop moves from the first decision (not worse) to the first better or worse one.
  assert.deepEqual(better.looks, any.looks);
  const first = (ok: (d: string) => boolean) => any.looks.findIndex((l: { decision: string }) => ok(l.decision)) + 1;
  assert.equal(
    any.stopped_at,
    first((d) => d !== "continue"),
  );
  assert.equal(any.decision, "not worse");
  assert.equal(
    better.stopped_at,
    first((d) => d === "better" || d === "worse"),
  );
  assert.ok(better.stopped_at > any.stopped_at, `${better.stopped_at} vs ${any.stopped_at}`);
  assert.deepEqual([better.goal, better.decision], ["better", "better"]);
  const wrong = await cli([...args, "--goal", "better"].filter((a) => a !== "--sequential"));
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--goal applies to --sequential/);
});

test("coverage over all looks at a fixed seed: the sequence ever misses the true mean Δ in at most α (+ 2 SE)", () => {
  const rows = sequentialCalibration({
    replicates: 120,
    tasks: 120,
    attempts: 3,
    deltas: [0, 0.05],
    margin: 0.05,
    alpha: 0.05,
    seed: "sequential-band",
  });
  for (const r of rows) assert.ok(r.coverage >= 0.95 - 2 * Math.sqrt((0.05 * 0.95) / 120), `${r.delta}: ${r.coverage}`);
});
