// Dawid–Skene (analysis/stats/dawid-skene.ts, issue 58.2) against a NumPy implementation of the same updates
// written from the paper (test/fixtures/dawid_skene_reference.py, its fits in dawid-skene-reference.json), and its
// recovery of known error rates on simulated judges.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { dawidSkene, type DsUnits } from "../analysis/stats/dawid-skene.js";

interface Case {
  labels: number[][];
  stratum: number[];
  strata: number;
  reference: number[];
  weights: number[];
}

const unitsOf = (c: Case): DsUnits => ({
  labels: Int8Array.from(c.labels.flat()),
  judges: c.labels[0].length,
  stratum: Int32Array.from(c.stratum),
  strata: c.strata,
  reference: Int8Array.from(c.reference),
});

const close = (a: number | null, b: number | null, what: string) => {
  if (a === null || b === null || Number.isNaN(a)) {
    assert.ok((a === null || Number.isNaN(a)) && b === null, `${what}: ${a} vs ${b}`);
    return;
  }
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
};

test("equal to the NumPy reference on four cases: strata, missing labels, anchors, bootstrap weights, a judge always Yes", () => {
  const ref = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "dawid-skene-reference.json"), "utf8"));
  for (const [k, { input, fit }] of (ref.cases as { input: Case; fit: Record<string, unknown> }[]).entries()) {
    const got = dawidSkene(unitsOf(input), Float64Array.from(input.weights));
    assert.equal(got.rounds, fit.rounds, `case ${k}: rounds`);
    assert.equal(got.converged, fit.converged);
    (fit.prior as (number | null)[]).forEach((p, s) => {
      close(got.prior[s], p, `case ${k} prior ${s}`);
    });
    for (const key of ["sensitivity", "specificity"] as const)
      for (const [s, row] of (fit[key] as (number | null)[][]).entries())
        for (const [j, x] of row.entries()) close(got[key][s][j], x, `case ${k} ${key}[${s}][${j}]`);
    (fit.posterior as (number | null)[]).forEach((x, i) => {
      close(got.posterior[i], x, `case ${k} posterior ${i}`);
    });
  }
});

test("recovers known error rates from simulated judges (3 judges, 4,000 units, no human label)", () => {
  const rng = seedrandom("dawid-skene recovery");
  const sens = [0.9, 0.75, 0.6];
  const spec = [0.85, 0.9, 0.7];
  const n = 4000;
  const labels = new Int8Array(n * 3);
  let trueYes = 0;
  for (let i = 0; i < n; i++) {
    const truth = rng() < 0.35;
    if (truth) trueYes++;
    for (let j = 0; j < 3; j++) labels[i * 3 + j] = (truth ? rng() < sens[j] : rng() >= spec[j]) ? 1 : 0;
  }
  const fit = dawidSkene({
    labels,
    judges: 3,
    stratum: new Int32Array(n),
    strata: 1,
    reference: new Int8Array(n).fill(-1),
  });
  assert.ok(fit.converged);
  // Each rate within 0.04 of the truth (its standard error at this size is about 0.01-0.02).
  for (const [j, x] of sens.entries())
    assert.ok(Math.abs(fit.sensitivity[0][j] - x) < 0.04, `sensitivity ${j}: ${fit.sensitivity[0][j]}`);
  for (const [j, x] of spec.entries())
    assert.ok(Math.abs(fit.specificity[0][j] - x) < 0.04, `specificity ${j}: ${fit.specificity[0][j]}`);
  assert.ok(Math.abs(fit.prior[0] - trueYes / n) < 0.03, `prior ${fit.prior[0]}`);
});

test("a unit with a reference label keeps it; a unit nobody decided carries no posterior", () => {
  const fit = dawidSkene({
    labels: Int8Array.from([1, 1, 0, 0, -1, -1, 1, 0]),
    judges: 2,
    stratum: new Int32Array(4),
    strata: 1,
    reference: Int8Array.from([0, -1, -1, -1]),
  });
  assert.equal(fit.posterior[0], 0);
  assert.ok(Number.isNaN(fit.posterior[2]));
});

test("on the demo (two judges, no human) and LLM-Rubric (a judge anchored by humans): the NumPy reference's fit", async () => {
  const { openStore } = await import("../store/open-store.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { buildUnits, consensusJudges } = await import("../analysis/rq/judge-consensus.js");
  for (const [dir, file] of [
    ["data/demo", "dawid-skene-demo-reference.json"],
    ["data/real/llm-rubric", "dawid-skene-llm-rubric-reference.json"],
  ]) {
    const ref = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", file), "utf8"));
    const { store } = await openStore(join(import.meta.dirname, "..", dir));
    const p = prepareStore(store);
    const { judges, reference } = consensusJudges(p);
    const fit = dawidSkene(buildUnits(p, judges, reference).units);
    assert.equal(fit.posterior.length, ref.units, dir);
    assert.equal(fit.rounds, ref.rounds, `${dir}: rounds`);
    (ref.prior as number[]).forEach((x, s) => {
      close(fit.prior[s], x, `${dir} prior ${s}`);
    });
    for (const key of ["sensitivity", "specificity"] as const)
      for (const [s, row] of (ref[key] as (number | null)[][]).entries())
        for (const [j, x] of row.entries()) close(fit[key][s][j], x, `${dir} ${key}[${s}][${j}]`);
    const post = Array.from(fit.posterior).filter((x) => !Number.isNaN(x));
    close(post.reduce((a, b) => a + b, 0) / post.length, ref.posterior_mean, `${dir} mean posterior`);
    close(
      post.reduce((a, b) => a + b * b, 0),
      ref.posterior_sum_of_squares,
      `${dir} Σ posterior²`,
    );
  }
});

test("DevAI, every unit anchored by the human consensus: the agent judge's rates are its plain rates against the humans", async () => {
  const { openStore } = await import("../store/open-store.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { consensusReport } = await import("../analysis/rq/judge-consensus.js");
  const { gradeAt } = await import("../analysis/schema/grades.js");
  const { store } = await openStore(join(import.meta.dirname, "..", "data/real/devai"));
  const p = prepareStore(store);
  const r = consensusReport(p, { seed: 1, resamples: 50, headline_resamples: 50, level: 0.95, interval: "percentile" });
  assert.ok(r);
  assert.equal(r.anchored, r.units);
  // Counted by hand: per group, the judge's Yes among the human's Yes, and its No among the human's No.
  const counts = new Map<string, [number, number, number, number]>();
  p.trajectories.forEach((t, k) => {
    const judge = p.labelsAt(k, "agent-as-a-judge (gray box)");
    const human = p.labelsAt(k, "human consensus");
    (p.checklist.get(t.task_id) ?? []).forEach((it, i) => {
      const [j, h] = [judge === undefined ? NaN : gradeAt(judge, i), human === undefined ? NaN : gradeAt(human, i)];
      if (!(j === 0 || j === 1) || !(h === 0 || h === 1)) return;
      const c = counts.get(it.group ?? it.category ?? "all") ?? [0, 0, 0, 0];
      if (h === 1) {
        c[0] += j;
        c[1]++;
      } else {
        c[2] += 1 - j;
        c[3]++;
      }
      counts.set(it.group ?? it.category ?? "all", c);
    });
  });
  for (const row of r.rates) {
    const [yy, y, nn, n] = counts.get(row.category)!;
    close(row.sensitivity, y ? yy / y : null, `${row.category} sensitivity`);
    close(row.specificity, n ? nn / n : null, `${row.category} specificity`);
  }
});

test("--judge consensus: on DevAI (every unit anchored) the leaderboard is the human consensus judge's; on the demo each trajectory's GCPC is its consensus credit", async () => {
  const { spawnSync } = await import("node:child_process");
  const repo = join(import.meta.dirname, "..");
  const run = (judge: string) =>
    spawnSync(
      process.execPath,
      [
        join(repo, "bin/gcpc.js"),
        "leaderboard",
        join(repo, "data/real/devai"),
        "--metric",
        "gcpc",
        "--judge",
        judge,
        "--format",
        "json",
        "--resamples",
        "200",
      ],
      { encoding: "utf8" },
    );
  const [a, b] = [run("consensus"), run("human consensus")];
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout.replaceAll("judge consensus", "judge human consensus"), b.stdout);
  const tb = spawnSync(
    process.execPath,
    [
      join(repo, "bin/gcpc.js"),
      "leaderboard",
      join(repo, "data/real/terminal-bench"),
      "--metric",
      "gcpc",
      "--judge",
      "consensus",
    ],
    { encoding: "utf8" },
  );
  assert.equal(tb.status, 2);
  assert.match(tb.stderr, /--judge consensus needs two judges, or one and a reference judge/);
  const { openStore } = await import("../store/open-store.js");
  const { consensusReport, preparedWithConsensus } = await import("../analysis/rq/judge-consensus.js");
  const { prepareStore } = await import("../analysis/rq/prepared.js");
  const { PLAIN } = await import("../analysis/scoring/official-outcome.js");
  const { store } = await openStore(join(repo, "data/demo"));
  const report = consensusReport(prepareStore(store), {
    seed: 1,
    resamples: 2,
    headline_resamples: 2,
    level: 0.95,
    interval: "percentile",
  });
  const p = preparedWithConsensus(store);
  const slot = new Map(p.trajectories.map((t, k) => [t.trajectory_id, k]));
  assert.ok(report && report.trajectories.length > 1000);
  for (const t of report.trajectories) {
    const gcpc = p.scoreAt(slot.get(t.trajectory_id)!, PLAIN, "exclude", "consensus");
    close(gcpc, t.consensus_credit, t.trajectory_id);
  }
});

test("--judge consensus --judge-corrected: the consensus is fitted without the reference's labels and corrected towards them", async () => {
  // SYNTHETIC: the demo's generator at scale 0.1 (two judges, no human), with a reference judge "human" added on the
  // runs of 12 tasks: the primary judge's Yes/No, and in a second store every one of them flipped.
  const { spawnSync } = await import("node:child_process");
  const { generateDemoStore } = await import("../store/generate/demo-store.js");
  const { writeStore } = await import("../store/write-store.js");
  const { tempDir } = await import("./helpers/temp-dir.js");
  const repo = join(import.meta.dirname, "..");
  const dir = tempDir("ds-ppi");
  const base = generateDemoStore({ seed: 3, scale: 0.1 });
  const taskOf = new Map(base.trajectories.map((t) => [t.trajectory_id, t.task_id]));
  const labelledTasks = new Set([...new Set(base.tasks.map((t) => t.task_id))].sort().slice(0, 12));
  const primary = base.judgments.filter(
    (j) => j.judge === undefined && j.run === 1 && labelledTasks.has(taskOf.get(j.trajectory_id)!),
  );
  const storeWith = async (name: string, flip: boolean) => {
    const human = primary
      .filter((j) => j.label === "Yes" || j.label === "No")
      .map((j) => ({ ...j, judge: "human", evidence: undefined, label: flip === (j.label === "Yes") ? "No" : "Yes" }));
    const s = { ...base, judgments: [...base.judgments, ...human] };
    s.manifest = { ...base.manifest, reference_judge: "human" };
    await writeStore(join(dir, name), s as typeof base, "jsonl");
    return { path: join(dir, name), human };
  };
  const [same, flipped] = [await storeWith("same", false), await storeWith("flipped", true)];
  const gcpc = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), ...args, "--format", "json"], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  };
  const board = (store: string) =>
    gcpc(
      "leaderboard",
      store,
      "--by",
      "harness",
      "--metric",
      "gcpc",
      "--judge",
      "consensus",
      "--judge-corrected",
      "--lambda",
      "0.5",
      "--resamples",
      "50",
    );
  const [a, b] = [board(same.path), board(flipped.path)];
  const rows = a.rows.filter((r: any) => r.corrected && !("available" in r.corrected));
  assert.ok(rows.length >= 1, JSON.stringify(a.rows.map((r: any) => r.corrected)));
  // The prediction does not see the reference: flipping every reference label leaves the judge-only means alone.
  assert.deepEqual(
    a.rows.map((r: any) => r.corrected?.judge_only?.estimate),
    b.rows.map((r: any) => r.corrected?.judge_only?.estimate),
  );
  // f: each trajectory's consensus credit with no reference at all (gcpc consensus on the store before "human");
  // h: the share of Yes of the reference's labels; θ = mean_ref(h) + ½ (mean_all(f) − mean_ref(f)), by hand.
  await writeStore(join(dir, "none"), base, "jsonl");
  const f = new Map<string, number>(
    gcpc("consensus", join(dir, "none"), "--resamples", "2").consensus.trajectories.map((t: any) => [
      t.trajectory_id,
      t.consensus_credit,
    ]),
  );
  const h = new Map<string, { yes: number; n: number }>();
  for (const j of same.human) {
    const c = h.get(j.trajectory_id) ?? { yes: 0, n: 0 };
    c.yes += j.label === "Yes" ? 1 : 0;
    c.n++;
    h.set(j.trajectory_id, c);
  }
  const harnessOf = new Map(base.trajectories.map((t) => [t.trajectory_id, t.harness]));
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  for (const r of rows) {
    const ids = [...f.keys()].filter((id) => harnessOf.get(id) === r.arm);
    const labelled = ids.filter((id) => h.has(id));
    const hand =
      mean(labelled.map((id) => h.get(id)!.yes / h.get(id)!.n)) +
      0.5 * (mean(ids.map((id) => f.get(id)!)) - mean(labelled.map((id) => f.get(id)!)));
    assert.equal(r.corrected.n_reference, labelled.length, r.arm);
    assert.ok(Math.abs(r.corrected.estimate - hand) < 1e-12, `${r.arm}: ${r.corrected.estimate} vs ${hand}`);
  }
});

test("units judged alike share one computed posterior per round, and the fit is the unit-by-unit fit bit for bit", () => {
  // The same units twice: with 3 strata (the memo's patterns: 3 × 3^3 slots) and declared with 3,000 strata, of
  // which only the first 3 hold units (3,000 × 27 slots is past the memo's size: every unit computed on its own).
  const rng = seedrandom("memo");
  const n = 3000;
  const labels = new Int8Array(n * 3).map(() => Math.floor(rng() * 3) - 1);
  const stratum = Int32Array.from({ length: n }, () => Math.floor(rng() * 3));
  const reference = Int8Array.from({ length: n }, () => (rng() < 0.1 ? Math.floor(rng() * 2) : -1));
  const weights = Float64Array.from({ length: n }, () => Math.floor(rng() * 3));
  for (const w of [undefined, weights]) {
    const memo = dawidSkene({ labels, judges: 3, stratum, strata: 3, reference }, w);
    const plain = dawidSkene({ labels, judges: 3, stratum, strata: 3000, reference }, w);
    assert.equal(memo.rounds, plain.rounds);
    assert.ok(memo.rounds > 2, "EM ran several rounds");
    assert.ok(
      memo.posterior.every((p, i) => Object.is(p, plain.posterior[i])),
      "each unit's posterior, bit for bit",
    );
    assert.deepEqual(memo.sensitivity, plain.sensitivity.slice(0, 3));
    assert.deepEqual(memo.specificity, plain.specificity.slice(0, 3));
    assert.deepEqual(memo.prior, plain.prior.slice(0, 3));
  }
});
