// `npm run coverage`: measured coverage of every 95% interval the report prints, on simulated stores with
// known truth, under two data-generating models (a coverage claim that holds under one model only is not a
// claim about the method). A script, not a test: it takes minutes and prints a table per model, each
// coverage ± its binomial Monte Carlo SE (committed to the README).
// Usage: node --import tsx bench/coverage.ts [replicates=1000] [models=demo,dirichlet]
import seedrandom from "seedrandom";
import {
  bootstrapIntervals,
  DEFAULT_SETTINGS,
  type BootstrapSettings,
  INTERVAL_METHODS,
} from "../analysis/estimates/bootstrap-interval.js";
import { aucWithCI } from "../analysis/rq/common.js";
import { pairedAucComparison } from "../analysis/rq/rq1-discrimination.js";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";
import { ClusteredQuantile } from "../analysis/stats/clustered-quantile.js";
import { normalCdf } from "../analysis/stats/obuchowski.js";
import { WithinTaskAuc } from "../analysis/stats/within-task-auc.js";

const REPLICATES = Number(process.argv[2] ?? 1000);
const MODELS = (process.argv[3] ?? "demo,dirichlet").split(",") as Model[];
const RESAMPLES = 1000;
const PER_TASK = 20;

type Model = "demo" | "dirichlet";

/**
 * Task sizes and heterogeneity per model. "demo": 20 trajectories per task, task effects of SD 1. "dirichlet":
 * unequal task sizes, 2 + a size proportional to Dirichlet(1, …, 1) (drawn as independent exponentials of
 * mean 18, the same law up to the fixed total), and between-task heterogeneity that varies by task: the task
 * effect's SD is U(0.3, 1.7) per task and the skill effect's SD U(0.1, 0.6).
 */
function design(rng: () => number, model: Model) {
  if (model === "demo") return { size: PER_TASK, taskSd: 1, skillSd: 0.3 };
  return { size: 2 + Math.round(-18 * Math.log(1 - rng())), taskSd: 0.3 + 1.4 * rng(), skillSd: 0.1 + 0.5 * rng() };
}

/**
 * The data-generating process: task effect u_t ~ N(0, 1) on both outcome and score. P(PASS) =
 * Φ(0.5·u_t); latent progress z = 0.8·u_t + 0.6·PASS + N(0, 1); GCPC-like score on the k/8 grid
 * (ties) = round(8·Φ(z))/8; a holistic-like score on the k/10 grid from a noisier view of z.
 * Matched pairs: Δ = (k_with − k_without)/8, k ~ Bin(8, Φ(0.5·u_t + s)) with a task skill effect
 * s_t ~ N(0.15, 0.3) for the with-skill side (0 without).
 */
function simulate(rng: () => number, tasks: number, model: Model) {
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const binom = (n: number, p: number) => Array.from({ length: n }, rng).filter((u) => u < p).length;
  const gcpc: number[] = [];
  const holistic: number[] = [];
  const pass: boolean[] = [];
  const task: number[] = [];
  const delta: number[] = [];
  const pairTask: number[] = [];
  for (let t = 0; t < tasks; t++) {
    const m = design(rng, model);
    const u = m.taskSd * gauss();
    const s = 0.15 + m.skillSd * gauss();
    for (let k = 0; k < m.size; k++) {
      const y = rng() < normalCdf(0.5 * u);
      const z = 0.8 * u + (y ? 0.6 : 0) + gauss();
      gcpc.push(Math.round(8 * normalCdf(z)) / 8);
      holistic.push(Math.round(10 * normalCdf(0.6 * z + 0.8 * gauss())) / 10);
      pass.push(y);
      task.push(t);
      delta.push((binom(8, normalCdf(0.5 * u + s)) - binom(8, normalCdf(0.5 * u))) / 8);
      pairTask.push(t);
    }
  }
  return { gcpc, holistic, pass, task, delta, pairTask };
}

type Sample = ReturnType<typeof simulate>;
type Estimates = Record<string, number>;

/** Population values: the same estimators on 20,000 simulated tasks. */
function truth(model: Model): Estimates {
  const d = simulate(seedrandom("coverage-truth"), 20000, model);
  const a = new ClusteredAuc(d.gcpc, d.pass, d.task, 20000).estimate();
  const b = new ClusteredAuc(d.holistic, d.pass, d.task, 20000).estimate();
  const within = WithinTaskAuc.of(d.gcpc, d.pass, d.task, 20000).estimate();
  const improved = d.delta.filter((x) => x > 0.1).length / d.delta.length;
  const median = new ClusteredQuantile(d.delta, d.pairTask, 0.5).estimate();
  return { auc: a, delta: a - b, within, improved, median };
}

/** Every interval of one replicate: name → [low, high] (null when the method gave none). */
function intervals(d: Sample, tasks: number, settings: BootstrapSettings): Record<string, [number, number] | null> {
  const rows = d.gcpc.map((score, i) => ({ score, pass: d.pass[i], task: `t${d.task[i]}` }));
  const est = aucWithCI("gcpc", rows, settings, "cov:auc");
  // The paired ΔAUC as the report computes it (bootstrap and Obuchowski test in one call).
  const pairRows = d.gcpc.map((a, i) => ({ a, b: d.holistic[i], pass: d.pass[i], task: `t${d.task[i]}` }));
  const paired = pairedAucComparison(pairRows, ["gcpc", "holistic"], settings);
  if (!paired.available) throw new Error(paired.reason);
  const q = new ClusteredQuantile(d.delta, d.pairTask, 0.5);
  const rq3 = bootstrapIntervals({
    settings,
    figure: "cov:rq3",
    clusters: tasks,
    estimator: "RQ3",
    statistics: {
      median: (w) => q.evaluate(w),
      improved: (w) => {
        let hit = 0;
        let all = 0;
        for (let i = 0; i < d.delta.length; i++) {
          all += w[d.pairTask[i]];
          if (d.delta[i] > 0.1) hit += w[d.pairTask[i]];
        }
        return hit / all;
      },
    },
  });
  const method = settings.interval;
  const out: Record<string, [number, number] | null> = {
    [`pooled AUC, ${method}`]: est.ci,
    [`within-task AUC, ${method}`]: est.within_task?.ci ?? null,
    [`paired ΔAUC, ${method}`]: paired.ci,
    [`RQ3 improved share, ${method}`]: rq3.ci.improved,
    [`RQ3 median Δ, ${method}`]: rq3.ci.median,
  };
  if (method === "percentile") {
    out["pooled AUC, Obuchowski Wald"] = est.obuchowski?.ci ?? null;
    out["paired ΔAUC, Obuchowski Wald"] = paired.test.ci;
  }
  return out;
}

const TRUTH_OF: Record<string, string> = {
  "pooled AUC": "auc",
  "within-task AUC": "within",
  "paired ΔAUC": "delta",
  "RQ3 improved share": "improved",
  "RQ3 median Δ": "median",
};

for (const model of MODELS) run(model);

function run(model: Model): void {
  const t = truth(model);
  console.log(
    `\nmodel ${model}; truth: ${Object.entries(t)
      .map(([k, v]) => `${k} ${v.toFixed(4)}`)
      .join(", ")}`,
  );
  const results = measure(model, t);
  const cellText = (c: { hit: number; n: number } | undefined) => {
    if (!c || c.n === 0) return "n/a";
    const p = c.hit / c.n;
    const se = 100 * Math.sqrt((p * (1 - p)) / c.n);
    return `${(100 * p).toFixed(1)} ± ${se.toFixed(1)}${c.n < REPLICATES ? ` (${c.n})` : ""}`;
  };
  const sizes = model === "demo" ? `${PER_TASK} trajectories per task` : "Dirichlet task sizes, varied heterogeneity";
  console.log(
    `\n| 95% interval, model ${model} (${REPLICATES} replicates, ${RESAMPLES} resamples, ${sizes}) ` +
      "| 12 tasks | 30 tasks | 87 tasks |",
  );
  console.log("|---|---|---|---|");
  for (const [name, cell] of [...results].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`| ${name} | ${cellText(cell.get(12))} | ${cellText(cell.get(30))} | ${cellText(cell.get(87))} |`);
}

function measure(model: Model, t: Estimates) {
  const results = new Map<string, Map<number, { hit: number; n: number }>>();
  for (const tasks of [12, 30, 87]) {
    const rng = seedrandom(`coverage-${model === "demo" ? "" : `${model}-`}${tasks}`);
    for (let r = 0; r < REPLICATES; r++) {
      const d = simulate(rng, tasks, model);
      for (const interval of INTERVAL_METHODS) {
        const settings = {
          ...DEFAULT_SETTINGS,
          seed: r,
          resamples: RESAMPLES,
          headline_resamples: RESAMPLES,
          interval,
        };
        for (const [name, ci] of Object.entries(intervals(d, tasks, settings))) {
          const cell = results.get(name) ?? new Map();
          results.set(name, cell);
          const c = cell.get(tasks) ?? { hit: 0, n: 0 };
          cell.set(tasks, c);
          if (!ci) continue;
          const truthValue = t[TRUTH_OF[name.split(",")[0]]];
          c.n++;
          if (ci[0] <= truthValue && truthValue <= ci[1]) c.hit++;
        }
      }
    }
    process.stderr.write(`${model}: ${tasks} tasks done\n`);
  }
  return results;
}
