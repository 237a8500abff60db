// `node --import tsx bench/sequential-calibration.ts [replicates=1000]`: `gcpc gate --sequential`'s confidence
// sequence (analysis/stats/betting-cs.ts) measured on simulated per-task paired differences (SYNTHETIC; the model
// of bench/gate-calibration.ts: logit-normal task difficulty, the candidate shifted by δ, A attempts per arm and
// task averaged): coverage over all looks (the chance that the sequence ever misses the true mean Δ, checked after
// every task) and the tasks used to a decision at δ = 0, D/2, D and 2D (margin D = 0.05), against the fixed
// design's N tasks.
import seedrandom from "seedrandom";
import { bettingConfidenceSequence } from "../analysis/stats/betting-cs.js";
import { sequentialDecision } from "../analysis/rq/arms/sequential-gate.js";

/** One task's difference: mean over A candidate attempts − mean over A baseline attempts. */
function taskDifference(rng: () => number, delta: number, attempts: number): number {
  const gauss = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const p = 1 / (1 + Math.exp(-(-0.2 + 1.5 * gauss)));
  const q = Math.min(0.99, Math.max(0.01, p + delta));
  let d = 0;
  for (let k = 0; k < attempts; k++) d += (rng() < q ? 1 : 0) - (rng() < p ? 1 : 0);
  return d / attempts;
}

/** The true mean difference (clipping makes it differ slightly from δ), by a large simulation. */
function trueMean(delta: number, seed: string): number {
  const rng = seedrandom(`${seed}:truth:${delta}`);
  let s = 0;
  const n = 400_000;
  for (let i = 0; i < n; i++) {
    const gauss = Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    const p = 1 / (1 + Math.exp(-(-0.2 + 1.5 * gauss)));
    s += Math.min(0.99, Math.max(0.01, p + delta)) - p;
  }
  return s / n;
}

export function sequentialCalibration(o: {
  replicates: number;
  tasks: number;
  attempts: number;
  deltas: number[];
  margin: number;
  alpha: number;
  seed: string;
}) {
  return o.deltas.map((delta) => {
    const truth = trueMean(delta, o.seed);
    const rng = seedrandom(`${o.seed}:${o.tasks}:${o.attempts}:${delta}`);
    let missed = 0;
    let used = 0;
    let decided = 0;
    const decisions = new Map<string, number>();
    for (let r = 0; r < o.replicates; r++) {
      const d = Array.from({ length: o.tasks }, () => taskDifference(rng, delta, o.attempts));
      const cs = bettingConfidenceSequence(
        d.map((x) => (x + 1) / 2),
        { alpha: o.alpha, grid: 500 },
      );
      let stop = o.tasks;
      let decision = "continue";
      let ever = false;
      for (let t = 0; t < o.tasks; t++) {
        const lo = 2 * cs.lower[t] - 1;
        const hi = 2 * cs.upper[t] - 1;
        if (lo > truth || hi < truth) ever = true;
        const x = sequentialDecision(lo, hi, o.margin);
        if (decision === "continue" && x !== "continue") {
          decision = x;
          stop = t + 1;
        }
      }
      if (ever) missed++;
      used += stop;
      if (decision !== "continue") decided++;
      decisions.set(decision, (decisions.get(decision) ?? 0) + 1);
    }
    return {
      delta,
      truth,
      tasks: o.tasks,
      attempts: o.attempts,
      coverage: 1 - missed / o.replicates,
      mean_tasks: used / o.replicates,
      decided: decided / o.replicates,
      decisions: Object.fromEntries([...decisions].map(([k, v]) => [k, v / o.replicates])),
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 1000);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`${replicates} replicates per row, α 0.05, margin D 0.05, seed 20260101 (SYNTHETIC)\n`);
  console.log(
    "| tasks × attempts | true Δ | coverage over all looks | mean tasks to a decision (fixed: N) | " +
      "decided by N | decisions |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const [tasks, attempts] of [
    [300, 1],
    [150, 5],
  ])
    for (const r of sequentialCalibration({
      replicates,
      tasks,
      attempts,
      deltas: [-0.1, -0.05, 0, 0.025, 0.05, 0.1],
      margin: 0.05,
      alpha: 0.05,
      seed: "20260101",
    }))
      console.log(
        `| ${r.tasks} × ${r.attempts} | ${r.truth.toFixed(3)} | ${pct(r.coverage)} | ` +
          `${r.mean_tasks.toFixed(1)} (${r.tasks}) | ` +
          `${pct(r.decided)} | ${Object.entries(r.decisions)
            .sort((a, b) => b[1] - a[1])
            .map(([k, v]) => `${k} ${pct(v)}`)
            .join(", ")} |`,
      );
}
