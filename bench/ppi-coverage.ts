// `node --import tsx bench/ppi-coverage.ts [replicates=400] [resamples=1000] [simulation replicates=1500]`:
// coverage and width of the
// judge-corrected means (`gcpc leaderboard --judge-corrected`, analysis/stats/ppi-mean.ts), measured, not assumed
// (issue 47). A script, not a test: it takes a minute or more; its table is in docs/statistics.md, and
// test/ppi-coverage.test.ts runs a small fixed-seed version with an asserted band.
//
// - DevAI and LLM-Rubric (stores fully labelled by their reference judge): per arm, many random subsets of m tasks
//   keep their reference labels (`--reference-tasks`); the target is the arm's reference mean over all its tasks.
// - A simulation with a known truth: 60 tasks × 3 trajectories per arm, reference credit h = μ_arm + u_t + e, the
//   judge's f = h + β_arm + ε (a bias that differs by arm: β = 0, +0.10, −0.15), the target μ_arm exactly.
import seedrandom from "seedrandom";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { judgeCorrectedMean, referenceJudgeOf } from "../analysis/rq/arms/judge-corrected.js";
import { methodScoreMaps } from "../analysis/rq/method-scores.js";
import { prepareStore, type PreparedStore } from "../analysis/rq/prepared.js";
import { taskClusters } from "../analysis/rq/common.js";
import { emptyPpiClusters, ppiMean, type PpiEstimate } from "../analysis/stats/ppi-mean.js";
import { PLAIN } from "../analysis/scoring/official-outcome.js";
import { readStore } from "../store/read-store.js";

const repo = new URL("../", import.meta.url).pathname;

export interface CoverageRow {
  source: string;
  arm: string;
  labelled: number;
  replicates: number;
  corrected: number;
  classical: number;
  width_corrected: number;
  width_classical: number;
  lambda: number;
  /** Corrected minus reference-only coverage, paired on the replicates, and its standard error. */
  difference: number;
  difference_se: number;
}

/** Running sums of one row of the table. */
export function tally(source: string, arm: string, labelled: number) {
  const t = { n: 0, hit: 0, hitC: 0, w: 0, wC: 0, lambda: 0, onlyCorrected: 0, onlyClassical: 0 };
  return {
    add(e: PpiEstimate, truth: number) {
      const hit = e.ci[0] <= truth && truth <= e.ci[1];
      const hitC = e.classical.ci[0] <= truth && truth <= e.classical.ci[1];
      t.n++;
      t.hit += hit ? 1 : 0;
      t.hitC += hitC ? 1 : 0;
      t.onlyCorrected += hit && !hitC ? 1 : 0;
      t.onlyClassical += hitC && !hit ? 1 : 0;
      t.w += e.ci[1] - e.ci[0];
      t.wC += e.classical.ci[1] - e.classical.ci[0];
      t.lambda += e.lambda;
    },
    row: (): CoverageRow => ({
      source,
      arm,
      labelled,
      replicates: t.n,
      corrected: t.hit / t.n,
      classical: t.hitC / t.n,
      width_corrected: t.w / t.n,
      width_classical: t.wC / t.n,
      lambda: t.lambda / t.n,
      // The paired difference of the two coverages and its SE: Var = ((b + c) − (b − c)²/n) / n².
      difference: (t.onlyCorrected - t.onlyClassical) / t.n,
      difference_se:
        Math.sqrt(t.onlyCorrected + t.onlyClassical - (t.onlyCorrected - t.onlyClassical) ** 2 / t.n) / t.n,
    }),
  };
}

/** A fully labelled real store: per arm (by `field`) and subset size, random task subsets keep their labels. */
export function storeCoverage(
  p: PreparedStore,
  source: string,
  field: "harness" | "model",
  sizes: number[],
  o: { replicates: number; resamples: number; seed: string },
): CoverageRow[] {
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") throw new Error(`${source}: ${reference.reason}`);
  const gcpc = methodScoreMaps(p).get("gcpc")!;
  const f = (k: number) => gcpc.get(p.trajectories[k].trajectory_id) ?? NaN;
  const settings = { ...DEFAULT_SETTINGS, resamples: o.resamples };
  const rows: CoverageRow[] = [];
  const arms = [...new Set(p.trajectories.map((t) => t[field]))].sort();
  for (const name of arms) {
    const slots = p.trajectories.flatMap((t, k) => (t[field] === name && Number.isFinite(f(k)) ? [k] : []));
    const { clusterOf, clusters, ids } = taskClusters(slots.map((k) => p.trajectories[k].task_id));
    const arm = { name, slots, slotClusters: clusterOf, clusters };
    const hs = slots.map((k) => p.scoreAt(k, PLAIN, "exclude", reference)).filter(Number.isFinite);
    const truth = hs.reduce((a, b) => a + b, 0) / hs.length;
    for (const m of sizes) {
      if (m >= ids.length) continue;
      const rng = seedrandom(`${o.seed}:${source}:${name}:${m}`);
      const row = tally(source, name, m);
      for (let r = 0; r < o.replicates; r++) {
        const chosen = new Set(shuffled(ids, rng).slice(0, m));
        const e = judgeCorrectedMean(p, arm, f, reference, { ...settings, seed: r }, { referenceTasks: chosen });
        if ("estimate" in e) row.add(e, truth);
      }
      rows.push(row.row());
    }
  }
  return rows;
}

function shuffled<T>(xs: T[], rng: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The simulation with a known truth (module comment): per arm and labelled size, coverage of μ_arm. */
export function simulatedCoverage(sizes: number[], o: { replicates: number; resamples: number; seed: string }) {
  const TASKS = 60;
  const PER_TASK = 3;
  const arms = [
    { name: "unbiased judge", mu: 0.6, beta: 0 },
    { name: "judge +0.10", mu: 0.5, beta: 0.1 },
    { name: "judge -0.15", mu: 0.7, beta: -0.15 },
  ];
  const rows: CoverageRow[] = [];
  for (const a of arms)
    for (const m of sizes) {
      const rng = seedrandom(`${o.seed}:sim:${a.name}:${m}`);
      const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
      const row = tally("simulation", a.name, m);
      for (let r = 0; r < o.replicates; r++) {
        const c = emptyPpiClusters(TASKS);
        for (let t = 0; t < TASKS; t++) {
          const u = 0.15 * gauss();
          for (let k = 0; k < PER_TASK; k++) {
            const h = a.mu + u + 0.1 * gauss();
            const f = h + a.beta + 0.08 * gauss();
            c.fAll[t] += f;
            c.nAll[t]++;
            if (t < m) {
              c.hRef[t] += h;
              c.fRef[t] += f;
              c.nRef[t]++;
            }
          }
        }
        const e = ppiMean(c, { seed: `${o.seed}:sim:${r}`, resamples: o.resamples, level: 0.95 });
        if (e) row.add(e, a.mu);
      }
      rows.push(row.row());
    }
  return rows;
}

export async function ppiCoverage(o: { replicates: number; resamples: number; seed: string; simulated: number }) {
  const devai = prepareStore((await readStore(`${repo}data/real/devai`)).store!);
  const rubric = prepareStore((await readStore(`${repo}data/real/llm-rubric`)).store!);
  return [
    ...storeCoverage(devai, "DevAI (55 tasks)", "harness", [10, 20, 30], o),
    ...storeCoverage(rubric, "LLM-Rubric", "model", [10, 20, 40], o),
    ...simulatedCoverage([10, 20, 30], { ...o, replicates: o.simulated }),
  ];
}

export function coverageTable(rows: CoverageRow[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    "| data | arm | labelled tasks | replicates | corrected covers | classical covers | width corrected | " +
      "width classical | mean λ |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.source} | ${r.arm} | ${r.labelled} | ${r.replicates} | ${pct(r.corrected)} | ${pct(r.classical)} | ` +
        `${r.width_corrected.toFixed(3)} | ${r.width_classical.toFixed(3)} | ${r.lambda.toFixed(2)} |`,
    ),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 400);
  const resamples = Number(process.argv[3] ?? 1000);
  const simulated = Number(process.argv[4] ?? 1500);
  const rows = await ppiCoverage({ replicates, resamples, seed: "20260101", simulated });
  console.log(
    `${replicates} replicates per row of a store (${simulated} of the simulation), ${resamples} resamples per ` +
      "interval, seed 20260101\n",
  );
  console.log(coverageTable(rows));
}
