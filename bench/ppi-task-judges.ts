// `node --import tsx bench/ppi-task-judges.ts [replicates=1000] [resamples=1000] [sizes=5,8,10] [design]`:
// coverage of the judge-corrected
// mean (analysis/stats/ppi-mean.ts) with 5, 8 and 10 labelled tasks, under judges whose error depends on the task
// (issue 55.1). Designs (SYNTHETIC; "held out" and "fresh" were each added after a rule was fixed, below):
//
// - "audit": the design of the independent simulation that found 84.7–90.5% coverage with the λ of round 5: 40
//   tasks, 2 runs per task, credit = share of 8 items Yes, heavy-tailed task effects (Student t, 3 df).
// - "unseen": a design the fix was not tuned on: 25 tasks, 4 runs per task, 5 items, skewed task effects (a
//   log-normal difficulty), a run effect shared by the run's items.
//
// Three judges on each, every one wrong in a way that depends on the task:
// - "difficulty bias": on a true No, Yes with probability rising with the task's ease (lenient on easy tasks),
//   on a true Yes, No with probability rising with its difficulty;
// - "weak lenient": the truth with probability 0.35, else Yes with probability 0.75;
// - "broken tasks": 12% of tasks are broken (truth mostly No) and the judge says Yes on every item there; 5%
//   flips elsewhere.
//
// The target is the superpopulation mean of the reference credit (tasks are a sample), computed once per design
// from 400,000 simulated runs. A row gives the share of replicates whose 95% interval covers it, for the
// corrected and the reference-only interval, their mean widths and the mean λ.
import seedrandom from "seedrandom";
import { emptyPpiClusters, ppiMean, type PpiClusters } from "../analysis/stats/ppi-mean.js";
import { tally, type CoverageRow } from "./ppi-coverage.js";

type Rng = () => number;
const gauss = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
/** Student t with 3 degrees of freedom: Z / √(χ²₃ / 3). */
const t3 = (rng: Rng) => gauss(rng) / Math.sqrt((gauss(rng) ** 2 + gauss(rng) ** 2 + gauss(rng) ** 2) / 3);
const logistic = (x: number) => 1 / (1 + Math.exp(-x));

export interface Design {
  name: string;
  tasks: number;
  runs: number;
  items: number;
  /** A task's latent: its effect on the log-odds of Yes (higher = easier), and whether it is broken. */
  task(rng: Rng): { u: number; broken: boolean };
  /** The log-odds of Yes of one run's items, given the task. */
  run(rng: Rng, u: number): number;
}

export const DESIGNS: Design[] = [
  {
    name: "audit (40 tasks × 2 runs, 8 items, t₃ task effects)",
    tasks: 40,
    runs: 2,
    items: 8,
    task: (rng) => ({ u: 0.3 + 1.1 * t3(rng), broken: rng() < 0.12 }),
    run: (rng, u) => u + 0.5 * gauss(rng),
  },
  {
    name: "unseen (25 tasks × 4 runs, 5 items, log-normal difficulty)",
    tasks: 25,
    runs: 4,
    items: 5,
    task: (rng) => ({ u: 1.5 - Math.exp(0.2 + 0.7 * gauss(rng)), broken: rng() < 0.12 }),
    run: (rng, u) => u + 0.8 * gauss(rng),
  },
  {
    // Added after λ's rule was fixed on the two above, and not tuned on: one run per task, a bimodal difficulty.
    name: "held out (60 tasks × 1 run, 10 items, bimodal difficulty)",
    tasks: 60,
    runs: 1,
    items: 10,
    task: (rng) => ({ u: (rng() < 0.4 ? -1.5 : 1.2) + 0.6 * gauss(rng), broken: rng() < 0.12 }),
    run: (rng, u) => u + 0.4 * gauss(rng),
  },
  {
    // Added after the degrees-of-freedom and all-task-variance rules (issue 55.1, second round) were fixed on the
    // three above, and not tuned on: a half-normal tail of hard tasks.
    name: "fresh (50 tasks × 2 runs, 6 items, skewed difficulty)",
    tasks: 50,
    runs: 2,
    items: 6,
    task: (rng) => ({ u: 0.8 - 1.2 * Math.abs(gauss(rng)) + 0.5 * gauss(rng), broken: rng() < 0.12 }),
    run: (rng, u) => u + 0.7 * gauss(rng),
  },
];

export type Judge = (rng: Rng, truth: boolean, task: { u: number; broken: boolean }) => boolean;

export const JUDGES: Record<string, Judge> = {
  "difficulty bias": (rng, truth, { u }) =>
    truth ? rng() >= logistic(-2.2 - 1.2 * u) : rng() < logistic(-2.2 + 1.2 * u),
  "weak lenient": (rng, truth) => (rng() < 0.35 ? truth : rng() < 0.75),
  "broken tasks": (rng, truth, { broken }) => (broken ? true : rng() < 0.05 ? !truth : truth),
};

/** One run's reference credit h and judge credit f. */
function simulateRun(d: Design, judge: Judge, rng: Rng, task: { u: number; broken: boolean }) {
  // A broken task: the truth is mostly No whatever the agent did (its environment fails the run).
  const p = task.broken ? 0.1 : logistic(d.run(rng, task.u));
  let h = 0;
  let f = 0;
  for (let i = 0; i < d.items; i++) {
    const truth = rng() < p;
    h += truth ? 1 : 0;
    f += judge(rng, truth, task) ? 1 : 0;
  }
  return { h: h / d.items, f: f / d.items };
}

/** The design's superpopulation mean of h (the target), by simulation. */
export function targetMean(d: Design, seed: string, runs = 400_000): number {
  const rng = seedrandom(`${seed}:truth:${d.name}`);
  let s = 0;
  for (let r = 0; r < runs; r++) s += simulateRun(d, JUDGES["weak lenient"], rng, d.task(rng)).h;
  return s / runs;
}

/** One replicate's clusters: every task's runs carry f; the first `labelled` tasks also carry h. */
export function replicate(d: Design, judge: Judge, labelled: number, rng: Rng): PpiClusters {
  const c = emptyPpiClusters(d.tasks);
  for (let t = 0; t < d.tasks; t++) {
    const task = d.task(rng);
    for (let k = 0; k < d.runs; k++) {
      const { h, f } = simulateRun(d, judge, rng, task);
      c.fAll[t] += f;
      c.nAll[t]++;
      if (t < labelled) {
        c.hRef[t] += h;
        c.fRef[t] += f;
        c.nRef[t]++;
      }
    }
  }
  return c;
}

/** A row of the table: `source` the design, `arm` the judge (bench/ppi-coverage.ts's rows and tally). */
export type TaskJudgeRow = CoverageRow;

export function taskJudgeCoverage(o: {
  replicates: number;
  resamples: number;
  seed: string;
  sizes?: number[];
  designs?: Design[];
  judges?: string[];
}): TaskJudgeRow[] {
  const rows: TaskJudgeRow[] = [];
  for (const d of o.designs ?? DESIGNS) {
    const truth = targetMean(d, o.seed);
    for (const name of o.judges ?? Object.keys(JUDGES))
      for (const m of o.sizes ?? [5, 8, 10]) {
        const rng = seedrandom(`${o.seed}:${d.name}:${name}:${m}`);
        const row = tally(d.name, name, m);
        for (let r = 0; r < o.replicates; r++) {
          const e = ppiMean(replicate(d, JUDGES[name], m, rng), {
            seed: `${o.seed}:${r}`,
            resamples: o.resamples,
            level: 0.95,
          });
          if (e) row.add(e, truth);
        }
        rows.push(row.row());
      }
  }
  return rows;
}

export function taskJudgeTable(rows: TaskJudgeRow[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    "| design (SYNTHETIC) | judge | labelled tasks | replicates | corrected covers | reference-only covers | " +
      "difference (paired) ± SE | width corrected | width reference-only | mean λ |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.source} | ${r.arm} | ${r.labelled} | ${r.replicates} | ${pct(r.corrected)} | ${pct(r.classical)} | ` +
        `${(100 * r.difference).toFixed(1)} ± ${(100 * r.difference_se).toFixed(1)} | ` +
        `${r.width_corrected.toFixed(3)} | ${r.width_classical.toFixed(3)} | ${r.lambda.toFixed(2)} |`,
    ),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 1000);
  const resamples = Number(process.argv[3] ?? 1000);
  const sizes = process.argv[4] ? process.argv[4].split(",").map(Number) : undefined;
  const designs = process.argv[5] ? DESIGNS.filter((d) => d.name.startsWith(process.argv[5])) : undefined;
  const rows = taskJudgeCoverage({ replicates, resamples, seed: "20260101", sizes, designs });
  console.log(`${replicates} replicates per row, ${resamples} resamples per interval, seed 20260101 (SYNTHETIC)\n`);
  console.log(taskJudgeTable(rows));
}
