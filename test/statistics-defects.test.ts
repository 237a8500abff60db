// The six defects of the statistics audit, each on a small store built for it, checked against values
// our code did not produce: hand counts, a rerun over many seeds, R's boot package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import seedrandom from "seedrandom";
import { analyzeStore } from "../analysis/rq/report.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { pairedDeltaPower } from "../analysis/rq/power.js";
import { transitionTests } from "../analysis/rq/rq3-skill-effects.js";
import { bootstrapIntervals, DEFAULT_SETTINGS, type IntervalMethod } from "../analysis/estimates/bootstrap-interval.js";
import { bcaInterval } from "../analysis/stats/bca.js";
import { normalQuantile } from "../analysis/stats/obuchowski.js";
import { percentileCI } from "../analysis/stats/bootstrap.js";
import { writeStore } from "../store/write-store.js";
import { cli } from "./helpers/run-cli.js";
import { perfectSeparationStore, smallStore, type SmallTrajectory } from "./helpers/small-store.js";
import { tempDir } from "./helpers/temp-dir.js";

const METHODS: IntervalMethod[] = ["percentile", "bca", "expanded", "studentized"];
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Defect 1: 12 tasks × (2 PASS all Yes, 2 FAIL all No): AUC = 1 by hand, every draw's AUC = 1 and SE* = 0.
for (const interval of METHODS) {
  test(`defect 1: --interval ${interval} on a perfectly separating store exits 0 with a degenerate AUC interval`, async () => {
    const dir = join(tempDir("gcpc-perfect-"), "store");
    await writeStore(dir, perfectSeparationStore(), "jsonl");
    const r = await cli(["report", dir, "--interval", interval, "--format", "json", "--resamples", "300"]);
    assert.equal(r.code, 0, r.stderr);
    const gcpc = JSON.parse(r.stdout).rq1.auc.find((a: { method: string }) => a.method === "gcpc");
    assert.equal(gcpc.auc, 1);
    assert.deepEqual(gcpc.ci, [1, 1]);
    assert.equal(gcpc.degenerate, true);
    assert.deepEqual(gcpc.bootstrap.degenerate, ["auc"]);
    assert.equal(gcpc.obuchowski.degenerate, true, "Obuchowski's SE is 0 at AUC 1");
    assert.doesNotMatch(JSON.stringify(gcpc), /no acceptable draw|internal error/);
    if (interval === "studentized") assert.match(gcpc.bootstrap.interval_note, /standard error 0 on the sample/);
    const md = await cli(["report", dir, "--interval", interval, "--resamples", "300"]);
    assert.equal(md.code, 0, md.stderr);
    assert.match(
      md.stdout,
      /\| gcpc \| 48 \| 24 \| 24 \| 12 \| 1\.000 \| degenerate: every draw equals the estimate \|/,
    );
    // The same AUC by skill condition (every trajectory here is "none"): the same text, not "[1.000, 1.000]".
    assert.match(md.stdout, /\| gcpc \(none\) \| 48 \| 1\.000 \| degenerate: every draw equals the estimate \|/);
    assert.match(md.stdout, /Every interval endpoint here is the same on any seed \(Monte Carlo SE 0\)/);
    const csv = await cli(["report", dir, "--interval", interval, "--format", "csv", "--resamples", "300"]);
    assert.match(csv.stdout, /^rq1_auc,auc,gcpc,1,1,1,48,12,300,[^,]+,0,0,true,,$/m);
  });
}

// Defect 2: BCa's reported MC SE is BCa's own; predicted against observed spread over 45 seeds.
test("defect 2: under BCa the endpoints' MC SE predicts their spread over 45 seeds (median ratio 0.75–1.33)", () => {
  const rng = seedrandom("bca-mc");
  // A skewed clustered ratio (pass rate near 1 over 25 tasks of unequal size): BCa moves away from percentile.
  const trials = Array.from({ length: 25 }, () => 2 + Math.floor(rng() * 10));
  const passes = trials.map((n) => Math.round(n * Math.min(1, 0.6 + 0.5 * rng() ** 2)));
  const ratio = (w: Float64Array) => {
    let s = 0;
    let n = 0;
    for (let c = 0; c < 25; c++) {
      s += w[c] * passes[c];
      n += w[c] * trials[c];
    }
    return s / n;
  };
  const ends: number[][] = [[], []];
  const predicted: number[][] = [[], []];
  for (let seed = 1; seed <= 45; seed++) {
    const res = bootstrapIntervals({
      settings: { ...DEFAULT_SETTINGS, seed, interval: "bca" },
      figure: "bca-mc",
      clusters: 25,
      estimator: "ratio; task-clustered percentile bootstrap (type-7)",
      statistics: { r: ratio },
    });
    assert.match(res.bootstrap.estimator, /BCa/);
    assert.doesNotMatch(res.bootstrap.estimator, /percentile/);
    const p = percentileCI(res.draws.r, 0.95);
    assert.notDeepEqual(res.ci.r, p, "BCa differs from percentile here");
    for (const e of [0, 1]) {
      ends[e].push(res.ci.r[e]);
      predicted[e].push(res.mcSe.r![e]);
    }
  }
  for (const e of [0, 1]) {
    const ratioToObserved = medianOf(predicted[e]) / sd(ends[e]);
    assert.ok(ratioToObserved > 0.75 && ratioToObserved < 1.33, `endpoint ${e}: ratio ${ratioToObserved}`);
  }
});

test("BCa against R's boot.ci(type = 'bca') with jackknife influence values, on R's own draws", () => {
  const cases: {
    clusters: number;
    below: number;
    estimate: number;
    draws: number[];
    jackknife: number[];
    z0: number;
    acceleration: number;
    ci: [number, number];
  }[] = JSON.parse(readFileSync(new URL("./fixtures/bca-boot-reference.json", import.meta.url), "utf8"));
  for (const c of cases) {
    const draws = Float64Array.from(c.draws);
    const r = bcaInterval(draws, c.estimate, c.jackknife);
    assert.ok(r);
    assert.ok(Math.abs(r.acceleration - c.acceleration) < 1e-12, `a ${r.acceleration} vs R ${c.acceleration}`);
    // R counts draws below θ̂ only; ours counts ties ½ (Efron & Tibshirani 1993, §14.3): the same z₀ once the
    // ties are added to R's count. R's qnorm of R's own share checks our normal quantile too.
    const ties = c.draws.filter((d) => d === c.estimate).length;
    assert.ok(Math.abs(normalQuantile(c.below / c.draws.length) - c.z0) < 1e-8, "qnorm vs normalQuantile");
    const expectedZ0 = normalQuantile((c.below + 0.5 * ties) / c.draws.length);
    assert.ok(Math.abs(r.z0 - expectedZ0) < 1e-12, `z0 ${r.z0} vs ${expectedZ0}`);
    // R interpolates on the normal scale between order statistics, ours is type 7: both within the same few ranks.
    const sorted = [...c.draws].sort((a, b) => a - b);
    for (const e of [0, 1]) {
      const rank = sorted.findIndex((x) => x >= c.ci[e]);
      const lo = sorted[Math.max(0, rank - 3)];
      const hi = sorted[Math.min(sorted.length - 1, rank + 3)];
      assert.ok(r.ci[e] >= lo && r.ci[e] <= hi, `${c.clusters} clusters, endpoint ${e}: ${r.ci[e]} vs R ${c.ci[e]}`);
      assert.ok(Math.abs(r.ci[e] - c.ci[e]) < 0.01, `${r.ci[e]} vs R ${c.ci[e]}`);
    }
  }
});

// Defect 3: RQ3's three statistics each carry their own MC SE, and each predicts its own spread over seeds, on a
// smooth data model and on a lumpy one (Δ on a 1/6 grid, one or two pairs per task: the median's draws take few
// values). Batch means understated the lumpy median's spread 2.7× (predicted/observed 0.51–0.64 here); the
// Maritz–Jarrett estimator reads the draws' atoms (analysis/stats/monte-carlo-error.ts). Ratio = root mean square
// of the predicted SE over 400 seeds ÷ the SD of the endpoints over the same seeds.
for (const model of ["smooth", "lumpy"] as const)
  test(`defect 3: RQ3's median Δ and shares carry their own MC SE, each within [0.8, 1.5] of its spread over 400 seeds (${model})`, () => {
    const rng = seedrandom(`m${model}`);
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    const deltas: number[] = [];
    const task: number[] = [];
    const tasks = model === "lumpy" ? 20 : 30;
    for (let t = 0; t < tasks; t++) {
      const u = 0.1 * normal();
      const per = model === "lumpy" ? 1 + Math.floor(rng() * 2) : 6;
      for (let k = 0; k < per; k++) {
        const d = 0.05 + u + 0.2 * normal();
        deltas.push(model === "lumpy" ? Math.round(d * 6) / 6 : d);
        task.push(t);
      }
    }
    const columns = { deltas: Float64Array.from(deltas), clusterOf: Int32Array.from(task), clusters: tasks };
    const keys = ["median_delta", "improved_share", "regressed_share"] as const;
    const ends: Record<string, number[][]> = {};
    const own: Record<string, number[][]> = {};
    for (const k of keys) {
      ends[k] = [[], []];
      own[k] = [[], []];
    }
    for (let seed = 1; seed <= 400; seed++) {
      const t = transitionTests({ columns, settings: { ...DEFAULT_SETTINGS, seed }, figure: "x" });
      const largest = t.bootstrap!.mc_se!;
      for (const k of keys)
        for (const e of [0, 1]) {
          ends[k][e].push(t[`${k}_ci`]![e]);
          own[k][e].push(t[`${k}_ci_mc_se`]![e]);
          assert.ok(t[`${k}_ci_mc_se`]![e] <= largest[e], "the caption's '≤' bound holds for every statistic");
        }
    }
    assert.notDeepEqual(own.median_delta, own.improved_share, "the median's MC SE is its own");
    const rms = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length);
    for (const k of keys)
      for (const e of [0, 1]) {
        const ratio = rms(own[k][e]) / sd(ends[k][e]);
        assert.ok(ratio > 0.8 && ratio < 1.5, `${k} endpoint ${e}: predicted/observed ${ratio}`);
      }
  });

// Defect 4: at the store's own design the simulated spread of ΔAUC is the store's clustered SE.
test("defect 4: gcpc power at the store's own design reproduces its clustered SE; few tasks warn", () => {
  const rng = seedrandom("power-own");
  const rows: SmallTrajectory[] = [];
  for (let t = 0; t < 30; t++) {
    const u = rng() - 0.5;
    for (let k = 0; k < 12; k++) {
      const pass = rng() < 0.5 + 0.6 * u;
      const labels = Array.from(
        { length: 6 },
        () => (rng() < 0.45 + 0.4 * u + (pass ? 0.2 : 0) ? "Yes" : "No") as "Yes" | "No",
      );
      rows.push({
        task: `t${t}`,
        outcome: pass ? "PASS" : "FAIL",
        labels,
        holistic: Math.min(1, Math.max(0, 0.5 + u + (pass ? 0.1 : 0) + 0.3 * (rng() - 0.5))),
      });
    }
  }
  const p = prepareStore(smallStore("power own design (synthetic)", rows));
  const r = pairedDeltaPower(p, [{ tasks: 6, per_task: 5 }], { simulations: 600, seed: 1 });
  assert.ok(!("available" in r));
  assert.equal(r.sided, "two-sided");
  const own = r.own_design;
  assert.equal(own.tasks, 30);
  assert.equal(own.per_task, null);
  // The SD of 600 draws has a relative MC error of about 1/√(2·599) ≈ 2.9%; allow 4 of them.
  assert.ok(Math.abs(own.delta_sd / r.store_se - 1) < 4 / Math.sqrt(2 * 599), `${own.delta_sd} vs SE ${r.store_se}`);
  assert.match(r.designs[0].warning ?? "", /6 tasks \(< 10\)/);
});

// Defect 5: nothing changes within any cell, but the two conditions ran different tasks and trial counts.
test("defect 5: a store where nothing changes within any task gives uplift 0 in every row", () => {
  const rows: SmallTrajectory[] = [];
  const harnesses = ["h1", "h2"];
  for (let t = 0; t < 14; t++)
    for (const harness of harnesses) {
      const outcome = (t + harness.length * (harness === "h1" ? 0 : 1)) % 3 === 0 ? "PASS" : "FAIL";
      // Every task ran without skills, only tasks 0–6 with them, and with other trial counts per arm.
      const none = 1 + (t % 3);
      const curated = t < 7 ? 1 + ((t + 1) % 2) : 0;
      for (let k = 0; k < none; k++)
        rows.push({ task: `t${t}`, harness, outcome, labels: ["Yes"], trial: k, condition: "none" });
      for (let k = 0; k < curated; k++)
        rows.push({ task: `t${t}`, harness, outcome, labels: ["Yes"], trial: k, condition: "curated" });
    }
  // The unmatched view the audit found: pooled rates over different task sets do differ here.
  const pooled = (c: string) => {
    const xs = rows.filter((r) => r.condition === c);
    return xs.filter((r) => r.outcome === "PASS").length / xs.length;
  };
  assert.notEqual(pooled("none"), pooled("curated"));
  const report = analyzeStore(smallStore("no change within any task (synthetic)", rows), {
    ...DEFAULT_SETTINGS,
    resamples: 200,
    headline_resamples: 200,
  });
  const o = report.outcomes;
  assert.ok("overall" in o, JSON.stringify(o));
  assert.equal(o.matched.cells, 14);
  assert.ok(o.matched.unmatched_trials_none > 0 && o.matched.unbalanced_cells > 0);
  for (const u of [o.overall, ...o.by_domain, ...o.by_model, ...o.by_task]) {
    assert.ok(Math.abs(u.uplift!) < 1e-12, `${u.group}: uplift ${u.uplift}`);
    // A bootstrapped row's draws are all 0; a task's score interval (Newcombe's, no draws) still states the
    // sampling error of equal rates over few trials: it holds 0 strictly inside.
    const ci = JSON.stringify(u.uplift_ci);
    if (u.uplift_ci && !u.interval)
      assert.ok(Math.abs(u.uplift_ci[0]) < 1e-12 && Math.abs(u.uplift_ci[1]) < 1e-12, `${u.group}: ${ci}`);
    if (u.interval) assert.ok(u.uplift_ci && u.uplift_ci[0] < 0 && u.uplift_ci[1] > 0, `${u.group}: ${ci}`);
  }
  assert.equal(o.overall.cells, 14);
  // Pass-rate rows carry few_clusters too: 7 matched tasks overall (< 10), 2 configurations within each task.
  assert.equal(o.overall.clusters, 7);
  assert.equal(o.overall.few_clusters, true);
  assert.ok(o.by_task.every((u) => u.few_clusters && u.clusters === 2));
});

// Defect 6: a paper value says whether it is an input, calibrated, another population or reproduced.
test("defect 6: the CSV's paper_mark tells demo input, calibrated, other population and reproduced apart", async () => {
  const all = await cli(["report", "data/demo", "--format", "csv", "--resamples", "100"]);
  assert.equal(all.code, 0, all.stderr);
  const mark = (csv: string, prefix: string) => {
    const line = csv.split("\n").find((l) => l.startsWith(prefix));
    assert.ok(line, prefix);
    return line.slice(line.lastIndexOf(",") + 1);
  };
  assert.equal(mark(all.stdout, "rq1_auc,auc,gcpc,"), "calibrated; other population");
  assert.equal(mark(all.stdout, "rq4_evidence_replacement,strict_share,"), "demo input");
  assert.equal(mark(all.stdout, "rq5_pair_check,higher,terminal-bench-2.0,"), "reproduced");
  const sb = await cli([
    "report",
    "data/demo",
    "--format",
    "csv",
    "--resamples",
    "100",
    "--benchmark",
    "skillsbench-1.1",
  ]);
  assert.equal(sb.code, 0, sb.stderr);
  assert.equal(mark(sb.stdout, "rq1_auc,auc,gcpc,"), "calibrated", "SkillsBench alone is the paper's population");
});

test("few_clusters: ρ from 4 trajectories in 3 tasks is flagged and called uninformative; separations too", () => {
  const rows: SmallTrajectory[] = [
    { task: "a", outcome: "PASS", labels: ["Yes", "Yes", "No"], holistic: 0.9 },
    { task: "a", outcome: "FAIL", labels: ["No", "Yes", "No"], holistic: 0.2 },
    { task: "b", outcome: "PASS", labels: ["Yes", "No", "No"], holistic: 0.6 },
    { task: "c", outcome: "FAIL", labels: ["No", "No", "No"], holistic: 0.4 },
  ];
  const store = smallStore("four trajectories (synthetic)", rows);
  store.human_ratings = [7, 3, 6, 1].map((rating, i) => ({ annotator: "h1", trajectory_id: `t${i}`, rating }));
  const report = analyzeStore(store, { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 });
  const methods = report.rq2.methods;
  assert.ok(Array.isArray(methods));
  const gcpc = methods.find((m) => m.method === "gcpc")!;
  assert.equal(gcpc.rho_n, 4);
  assert.equal(gcpc.rho_tasks, 3);
  assert.equal(gcpc.few_clusters, true);
  assert.match(gcpc.note ?? "", /few_clusters: 4 trajectories in 3 task\(s\) \(< 10\): the interval is uninformative/);
  const steps = report.rq4.outcome_step;
  assert.ok(Array.isArray(steps));
  assert.ok(steps.every((s) => s.few_clusters && s.tasks === 3));
});
