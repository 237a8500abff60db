// `node --import tsx bench/consensus-coverage.ts [replicates=200] [resamples=200]`: coverage of `gcpc consensus`'s
// intervals for each judge's sensitivity and specificity (analysis/rq/judge-consensus.ts's bootstrap: tasks
// resampled, the Dawid–Skene model refitted per draw) on SYNTHETIC judges with known rates (issue 58.2).
//
// Design: 40 tasks × 10 items, one trajectory per task; each task's share of true Yes varies (a task effect, Beta
// spread around 0.5), so units are clustered by task; three judges with fixed rates; no human label. The target is
// each judge's true rate. A row gives the share of replicates whose 95% interval covers it.
import seedrandom from "seedrandom";
import { dawidSkene, type DsUnits } from "../analysis/stats/dawid-skene.js";
import { clusterDraws } from "../analysis/stats/cluster-draws.js";
import { rateInterval } from "../analysis/rq/judge-consensus.js";

const SENS = [0.9, 0.8, 0.7];
const SPEC = [0.85, 0.9, 0.75];
const TASKS = 40;
const ITEMS = 10;

function replicate(rng: () => number): { units: DsUnits; task: Int32Array } {
  const n = TASKS * ITEMS;
  const labels = new Int8Array(n * SENS.length);
  const task = new Int32Array(n);
  for (let t = 0; t < TASKS; t++) {
    const share = 0.2 + 0.6 * rng(); // the task's share of true Yes
    for (let i = 0; i < ITEMS; i++) {
      const u = t * ITEMS + i;
      task[u] = t;
      const truth = rng() < share;
      SENS.forEach((se, j) => {
        labels[u * SENS.length + j] = (truth ? rng() < se : rng() >= SPEC[j]) ? 1 : 0;
      });
    }
  }
  return {
    units: { labels, judges: SENS.length, stratum: new Int32Array(n), strata: 1, reference: new Int8Array(n).fill(-1) },
    task,
  };
}

export function consensusCoverage(replicates: number, resamples: number, seed = "20260101") {
  const rng = seedrandom(`${seed}:consensus coverage`);
  const covered = { se: SENS.map(() => 0), sp: SPEC.map(() => 0) };
  const width = { se: SENS.map(() => 0), sp: SPEC.map(() => 0) };
  for (let r = 0; r < replicates; r++) {
    const { units, task } = replicate(rng);
    const fit = dawidSkene(units);
    const draws = clusterDraws(`${seed}:${r}`, TASKS);
    const w = new Float64Array(TASKS);
    const uw = new Float64Array(task.length);
    const se = SENS.map(() => new Float64Array(resamples));
    const sp = SPEC.map(() => new Float64Array(resamples));
    for (let d = 0; d < resamples; d++) {
      draws.draw(w);
      for (let u = 0; u < task.length; u++) uw[u] = w[task[u]];
      const f = dawidSkene(units, uw, fit);
      SENS.forEach((_, j) => {
        se[j][d] = f.sensitivity[0][j];
        sp[j][d] = f.specificity[0][j];
      });
    }
    SENS.forEach((truth, j) => {
      // The product's interval (judge-consensus.ts rateInterval); every draw defines both rates in this design.
      const [a, b] = rateInterval(se[j], 0.95, TASKS) ?? [Number.NaN, Number.NaN];
      if (a <= truth && truth <= b) covered.se[j]++;
      width.se[j] += b - a;
      const [c, e] = rateInterval(sp[j], 0.95, TASKS) ?? [Number.NaN, Number.NaN];
      if (c <= SPEC[j] && SPEC[j] <= e) covered.sp[j]++;
      width.sp[j] += e - c;
    });
  }
  return SENS.map((_, j) => ({
    judge: j + 1,
    sensitivity: SENS[j],
    sensitivity_covered: covered.se[j] / replicates,
    sensitivity_width: width.se[j] / replicates,
    specificity: SPEC[j],
    specificity_covered: covered.sp[j] / replicates,
    specificity_width: width.sp[j] / replicates,
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 200);
  const resamples = Number(process.argv[3] ?? 200);
  const rows = consensusCoverage(replicates, resamples);
  console.log(`${replicates} replicates, ${resamples} resamples each, seed 20260101 (SYNTHETIC)\n`);
  console.log("| judge | sensitivity | covered | mean width | specificity | covered | mean width |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.judge} | ${r.sensitivity} | ${(100 * r.sensitivity_covered).toFixed(1)}% | ` +
        `${r.sensitivity_width.toFixed(3)} | ` +
        `${r.specificity} | ${(100 * r.specificity_covered).toFixed(1)}% | ${r.specificity_width.toFixed(3)} |`,
    );
}
