import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import seedrandom from "seedrandom";
import { gridScores } from "./helpers/grid-scores.js";
import { WithinTaskAuc } from "../analysis/stats/within-task-auc.js";
import { auc } from "../analysis/stats/auc.js";

const cases: { scores: number[]; outcomes: boolean[]; clusters: number[]; tasks: number; within_task_auc: number }[] =
  JSON.parse(readFileSync(new URL("./fixtures/within-task-auc-reference.json", import.meta.url), "utf8"));

test("within-task AUC equals scipy's per-task Mann–Whitney U pooled by pair counts (6 reference cases)", () => {
  for (const c of cases) {
    const w = WithinTaskAuc.of(c.scores, c.outcomes, c.clusters, c.tasks);
    assert.ok(Math.abs(w.estimate() - c.within_task_auc) < 1e-12, `${w.estimate()} vs ${c.within_task_auc}`);
  }
});

test("hand example: a score that only ranks tasks has pooled AUC > 0.5 and within-task AUC 0.5", () => {
  // Task 0 is easy (scores 0.9, both outcomes), task 1 hard (scores 0.1). Within a task the score
  // carries no information (ties → ½ per pair); pooled, PASS-rich task 0 ranks above task 1.
  const scores = [0.9, 0.9, 0.9, 0.1, 0.1, 0.1];
  const pass = [true, true, false, true, false, false];
  const w = WithinTaskAuc.of(scores, pass, [0, 0, 0, 1, 1, 1], 2);
  assert.equal(w.estimate(), 0.5); // (2·½ + 2·½) / (2 + 2)
  // Pooled: 3 PASS, 3 FAIL; PASS at 0.9 beats the two FAIL at 0.1 (4 pairs), ties ½: (4 + 0.5·4 + 0)/9 = 6/9.
  assert.ok(Math.abs(auc(scores, pass) - 6 / 9) < 1e-15);
});

test("a bootstrap weight of 2 equals duplicating the task; tasks with one class carry no pair", () => {
  const c = cases[2];
  const w = WithinTaskAuc.of(c.scores, c.outcomes, c.clusters, c.tasks);
  const weights = new Float64Array(c.tasks).fill(1);
  weights[0] = 2;
  const dup = c.clusters.flatMap((t, i) => (t === 0 ? [i, i] : [i]));
  const copy = WithinTaskAuc.of(
    dup.map((i) => c.scores[i]),
    dup.map((i) => c.outcomes[i]),
    dup.map((i, k) => (c.clusters[i] === 0 && dup.indexOf(i) !== k ? c.tasks : c.clusters[i])),
    c.tasks + 1,
  );
  assert.ok(Math.abs(w.evaluate(weights) - copy.estimate()) < 1e-12);
  const oneClass = WithinTaskAuc.of([0.1, 0.2], [true, true], [0, 0], 1);
  assert.equal(oneClass.informativeClusters, 0);
  assert.ok(Number.isNaN(oneClass.estimate()));
});

test("each task's U is its pair count by definition (PASS above FAIL + ½ tie), ties of −0 and +0 included", () => {
  const rng = seedrandom("within-task pairs");
  for (let rep = 0; rep < 300; rep++) {
    const n = 1 + Math.floor(rng() * 80);
    const grid = [2, 5, 0][rep % 3];
    const scores = gridScores(rng, n, grid);
    const pass = Array.from({ length: n }, () => rng() < 0.5);
    const clusters = 1 + Math.floor(rng() * 6);
    const cluster = Array.from({ length: n }, () => Math.floor(rng() * clusters));
    const w = WithinTaskAuc.of(scores, pass, cluster, clusters);
    for (let c = 0; c < clusters; c++) {
      let u = 0;
      let m = 0;
      let f = 0;
      for (let i = 0; i < n; i++) {
        if (cluster[i] !== c) continue;
        if (pass[i]) m++;
        else f++;
        if (!pass[i]) continue;
        for (let j = 0; j < n; j++)
          if (cluster[j] === c && !pass[j]) u += scores[i] > scores[j] ? 1 : scores[i] === scores[j] ? 0.5 : 0;
      }
      assert.equal(w.u[c], u, `rep ${rep}, task ${c}`);
      assert.equal(w.pairs[c], m * f, `rep ${rep}, task ${c}`);
    }
  }
  assert.throws(() => WithinTaskAuc.of([0.5], [true], [3], 2), /clusterOf\[0\]/);
});
