// `node --import tsx bench/gate-calibration.ts [replicates=400] [resamples=500]`: how often `gcpc gate` says each
// verdict (issue 56.1), by simulation of stores of the bundled stores' kind (SYNTHETIC): T tasks, A attempts per
// arm and task paired by trial index, task difficulty spread as a logit-normal (SD 1.5 on the log-odds, mean
// pass rate about 0.45), the candidate's pass probability the baseline's shifted by δ on the probability scale
// (clipped to [0.01, 0.99]). Rows: δ = 0 (no change), δ = −D (a drop equal to the margin), and stated drops and
// gains; a row gives the share of replicates with each verdict, at α = 0.05, margin D = 0.05.
import seedrandom from "seedrandom";
import { prepareStore } from "../analysis/rq/prepared.js";
import { gate, type GateVerdict } from "../analysis/rq/arms/gate.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import type { Store } from "../analysis/schema/store.js";

export interface GateScenario {
  tasks: number;
  attempts: number;
  delta: number;
}

/** One simulated store: arms "baseline" and "candidate" as two models, outcomes only. */
export function simulatedStore(s: GateScenario, rng: () => number): Store {
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const store: Store = {
    manifest: { name: "gate calibration (SYNTHETIC)", synthetic: true },
    tasks: [],
    items: [],
    trajectories: [],
    judgments: [],
  };
  for (let t = 0; t < s.tasks; t++) {
    const task_id = `t${t}`;
    store.tasks.push({ task_id, benchmark: "sim" });
    const p = 1 / (1 + Math.exp(-(-0.2 + 1.5 * gauss())));
    const q = Math.min(0.99, Math.max(0.01, p + s.delta));
    for (let k = 1; k <= s.attempts; k++)
      for (const [model, prob] of [
        ["baseline", p],
        ["candidate", q],
      ] as const)
        store.trajectories.push({
          trajectory_id: `${task_id}/${model}/${k}`,
          task_id,
          harness: "sim",
          model,
          condition: "none",
          trial: k,
          outcome: rng() < prob ? "PASS" : "FAIL",
        });
  }
  return store;
}

export function gateCalibration(
  scenarios: GateScenario[],
  o: { replicates: number; resamples: number; seed: string; margin: number; alpha: number },
) {
  return scenarios.map((s) => {
    const rng = seedrandom(`${o.seed}:${s.tasks}:${s.attempts}:${s.delta}`);
    const counts = new Map<GateVerdict, number>();
    for (let r = 0; r < o.replicates; r++) {
      const result = gate(prepareStore(simulatedStore(s, rng)), {
        baseline: { model: "baseline" },
        candidate: { model: "candidate" },
        metrics: ["pass_rate"],
        margin: o.margin,
        alpha: o.alpha,
        regression: "zero",
        settings: { ...DEFAULT_SETTINGS, seed: r, resamples: o.resamples, headline_resamples: o.resamples },
      });
      if ("available" in result) throw new Error(result.reason);
      counts.set(result.verdict, (counts.get(result.verdict) ?? 0) + 1);
    }
    const share = (v: GateVerdict) => (counts.get(v) ?? 0) / o.replicates;
    return {
      ...s,
      replicates: o.replicates,
      worse: share("worse"),
      not_worse: share("not worse"),
      better: share("better"),
      inconclusive: share("inconclusive") + share("insufficient data"),
    };
  });
}

export const SCENARIOS: GateScenario[] = [
  ...[-0.1, -0.05, -0.025, 0, 0.05].map((delta) => ({ tasks: 80, attempts: 1, delta })),
  ...[-0.1, -0.05, -0.025, 0, 0.05].map((delta) => ({ tasks: 40, attempts: 5, delta })),
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const replicates = Number(process.argv[2] ?? 400);
  const resamples = Number(process.argv[3] ?? 500);
  const rows = gateCalibration(SCENARIOS, { replicates, resamples, seed: "20260101", margin: 0.05, alpha: 0.05 });
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(
    `${replicates} replicates per row, ${resamples} resamples, margin 0.05, α 0.05, seed 20260101 (SYNTHETIC)\n`,
  );
  console.log("| tasks × attempts | true Δ | worse | not worse | better | inconclusive |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.tasks} × ${r.attempts} | ${r.delta >= 0 ? "+" : ""}${r.delta} | ${pct(r.worse)} | ${pct(r.not_worse)} | ` +
        `${pct(r.better)} | ${pct(r.inconclusive)} |`,
    );
}
