// Points rubrics (issue 58.3): HealthBench's rule (Arora et al. 2025 §2; simple-evals healthbench_eval.py:
// score = Σ points of the criteria met ÷ Σ positive points, the mean of the scores clipped to [0, 1]) on worked
// examples computed by hand, then `gcpc import table --points` and `gcpc points` on a SYNTHETIC points table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pointsMean, pointsScore } from "../analysis/scoring/points-score.js";
import { gradeChar } from "../analysis/schema/grades.js";

test("HealthBench worked examples: met criteria's points over the positive points, by hand", () => {
  // +5 met, +3 missed, −4 met: (5 − 4) / (5 + 3) = 1/8.
  assert.deepEqual(pointsScore("YNY", [5, 3, -4]), { earned: 1, possible: 8, score: 0.125, penalised: true });
  // Every positive criterion met, the penalty avoided: 10 / 10.
  assert.deepEqual(pointsScore("YYN", [7, 3, -2]), { earned: 10, possible: 10, score: 1, penalised: false });
  // Only the penalty met: −10 / 10 = −1 (a score may be below 0; the mean is what is clipped).
  assert.equal(pointsScore("NY", [10, -10]).score, -1);
  // Abstain earns nothing but its points stay possible; NotApplicable leaves the rubric.
  assert.equal(pointsScore("AY", [4, 6]).score, 0.6);
  assert.equal(pointsScore("-Y", [4, 6]).score, 1);
  // An abstained penalty is not met; a penalty not applicable is not met.
  assert.equal(pointsScore("YA", [4, -6]).penalised, false);
  assert.equal(pointsScore("Y-", [4, -6]).score, 1);
  // A graded criterion earns its points times its grade: 0.5 × 4 / 4.
  assert.equal(pointsScore(gradeChar(0.5), [4]).score, 0.5);
  // Nothing possible (only penalties, or every positive item not applicable): no score.
  assert.equal(pointsScore("N", [-3]).score, null);
  // The mean is clipped, not each score: mean(1/8, −1, 1) = 1/24; mean(−1, −1/2) = −3/4 → 0.
  assert.deepEqual(pointsMean([0.125, -1, 1]), { unclipped: 0.125 / 3, clipped: 0.125 / 3 });
  assert.deepEqual(pointsMean([-1, -0.5]), { unclipped: -0.75, clipped: 0 });
  assert.deepEqual(pointsMean([1, 1.5]), { unclipped: 1.25, clipped: 1 });
  assert.equal(pointsMean([]), null);
});

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./helpers/temp-dir.js";

const repo = resolve(import.meta.dirname, "..");
const gcpc = (args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), ...args], { encoding: "utf8", cwd: repo });

/**
 * A SYNTHETIC points table (generated here, not real results): 6 tasks, each with three positive criteria and one
 * penalty, answered by two models three times each; model "b" meets the penalty more often. Long form with a
 * points column, as HealthBench's rubrics come (criterion, points).
 */
function syntheticPointsTable(): {
  csv: string;
  rows: { task: string; model: string; trial: number; item: string; label: string; points: number }[];
} {
  const rows: { task: string; model: string; trial: number; item: string; label: string; points: number }[] = [];
  let x = 7;
  const next = () => {
    x = (x * 48271) % 2147483647; // Park–Miller: the same table on every machine
    return x / 2147483647;
  };
  for (let t = 1; t <= 6; t++) {
    const points = [10, 5, 3, -6 - t];
    for (const model of ["a", "b"])
      for (let trial = 1; trial <= 3; trial++)
        points.forEach((p, i) => {
          const u = next();
          const met = p > 0 ? u < (model === "a" ? 0.7 : 0.5) : u < (model === "a" ? 0.15 : 0.6);
          const label = p > 0 && u > 0.93 ? "unsure" : met ? "yes" : "no";
          rows.push({ task: `t${t}`, model, trial, item: `c${i + 1}`, label, points: p });
        });
  }
  const csv = [
    "task,model,trial,item,label,points",
    ...rows.map((r) => `${r.task},${r.model},${r.trial},${r.item},${r.label},${r.points}`),
  ];
  return { csv: `${csv.join("\n")}\n`, rows };
}

test("gcpc import table --points COL and gcpc points on a SYNTHETIC table: every arm's score is the table's, by hand", () => {
  const dir = tempDir("gcpc-points-");
  const { csv, rows } = syntheticPointsTable();
  writeFileSync(join(dir, "synthetic-points.csv"), csv);
  const store = join(dir, "store");
  const imp = gcpc([
    "import",
    "table",
    join(dir, "synthetic-points.csv"),
    "--out",
    store,
    "--name",
    "synthetic points table (SYNTHETIC)",
    "--task",
    "task",
    "--model",
    "model",
    "--trial",
    "trial",
    "--item",
    "item",
    "--label",
    "label",
    "--abstain",
    "unsure",
    "--points",
    "points",
  ]);
  assert.equal(imp.status, 0, imp.stderr);
  const out = gcpc(["points", store, "--by", "model", "--format", "json", "--resamples", "500"]);
  assert.equal(out.status, 0, out.stderr);
  const r = JSON.parse(out.stdout);
  assert.equal(r.rubric_tasks, 6);
  assert.equal(r.penalty_items, 6);
  // By hand from the table: per run, Σ points met ÷ Σ positive points (an abstained criterion earns nothing).
  for (const model of ["a", "b"]) {
    const scores: number[] = [];
    let penalised = 0;
    for (let t = 1; t <= 6; t++)
      for (let trial = 1; trial <= 3; trial++) {
        const run = rows.filter((x) => x.task === `t${t}` && x.model === model && x.trial === trial);
        const earned = run.filter((x) => x.label === "yes").reduce((s, x) => s + x.points, 0);
        const possible = run.filter((x) => x.points > 0).reduce((s, x) => s + x.points, 0);
        scores.push(earned / possible);
        if (run.some((x) => x.points < 0 && x.label === "yes")) penalised++;
      }
    const mean = scores.reduce((s, v) => s + v, 0) / scores.length;
    const arm = r.arms.find((a: { arm: string }) => a.arm === model);
    assert.ok(Math.abs(arm.unclipped - mean) < 1e-12, `${model}: ${arm.unclipped} vs ${mean}`);
    assert.ok(Math.abs(arm.score - Math.min(1, Math.max(0, mean))) < 1e-12);
    assert.equal(arm.penalised, penalised / 18);
    assert.equal(arm.trajectories, 18);
    assert.equal(arm.tasks, 6);
    assert.ok(arm.unclipped_ci[0] <= arm.unclipped && arm.unclipped <= arm.unclipped_ci[1], JSON.stringify(arm));
  }
  // Each penalty item's rate over both models' runs.
  for (const p of r.penalties) {
    const runs = rows.filter((x) => x.task === p.task_id && x.item === p.item_id);
    assert.equal(p.decided, runs.length);
    assert.equal(p.met, runs.filter((x) => x.label === "yes").length);
  }
  const md = gcpc(["points", store, "--by", "model", "--resamples", "200"]);
  assert.match(md.stdout, /\| model \| runs \| tasks \| score \(clipped mean\)/);
  assert.match(md.stdout, /## Penalty items/);
  const csvOut = gcpc(["points", store, "--by", "model", "--format", "csv", "--resamples", "200"]);
  assert.equal(csvOut.stdout.trim().split("\n").length, 1 + 2 + 6);
});

test("points: --points FILE joins like --weights; mixed points, a 0 and weights beside points are refused by row", () => {
  const dir = tempDir("gcpc-points-file-");
  writeFileSync(join(dir, "labels.csv"), "task,model,item,label\nt1,a,c1,yes\nt1,a,c2,no\nt1,b,c1,no\nt1,b,c2,yes\n");
  writeFileSync(join(dir, "points.csv"), "item,points\nc1,8\nc2,-4\n");
  const base = [
    "import",
    "table",
    join(dir, "labels.csv"),
    "--task",
    "task",
    "--model",
    "model",
    "--item",
    "item",
    "--label",
    "label",
  ];
  const ok = gcpc([...base, "--out", join(dir, "s1"), "--points", join(dir, "points.csv")]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout + ok.stderr, /points: 2 of 2 items given points/);
  const r = JSON.parse(gcpc(["points", join(dir, "s1"), "--by", "model", "--format", "json"]).stdout);
  // a: c1 met → 8/8 = 1; b: only the penalty met → −4/8 = −0.5, clipped to 0.
  assert.deepEqual(
    r.arms.map((a: { arm: string; unclipped: number; score: number }) => [a.arm, a.unclipped, a.score]),
    [
      ["a", 1, 1],
      ["b", -0.5, 0],
    ],
  );
  writeFileSync(join(dir, "zero.csv"), "item,points\nc1,8\nc2,0\n");
  const zero = gcpc([...base, "--out", join(dir, "s2"), "--points", join(dir, "zero.csv")]);
  assert.equal(zero.status, 2);
  assert.match(zero.stderr, /zero\.csv, row 2, field "points": must be a number other than 0 \(got "0"\)/);
  writeFileSync(join(dir, "half.csv"), "item,points\nc1,8\n");
  const half = gcpc([...base, "--out", join(dir, "s3"), "--points", join(dir, "half.csv")]);
  assert.equal(half.status, 2);
  assert.match(half.stderr, /field "points": no points, but item "c1" of task "t1" has points/);
  writeFileSync(join(dir, "both.csv"), "item,points,weight\nc1,8,2\nc2,-4,1\n");
  const both = gcpc([...base, "--out", join(dir, "s4"), "--checklist", join(dir, "both.csv")]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /field "weight": a weight, but item "c1" of task "t1" has points/);
});

test("docs/statistics.md says HealthBench's own bootstrap resamples repeats as if independent", () => {
  const text = readFileSync(join(repo, "docs", "statistics.md"), "utf8");
  assert.match(text, /HealthBench[^.]*resamples[^.]*as if (they were )?independent/);
});
