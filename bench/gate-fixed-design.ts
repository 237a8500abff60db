// `node --import tsx bench/gate-fixed-design.ts`: the fixed-sample gate (bench/gate-calibration.ts's model) at the
// sequential calibration's designs (300 tasks × 1 attempt, 150 × 5), 300 replicates, 500 resamples: what the
// fixed design decides with all N tasks, beside bench/sequential-calibration.ts (docs/statistics.md). SYNTHETIC.
import { gateCalibration, type GateScenario } from "./gate-calibration.js";

const scenarios: GateScenario[] = [];
for (const [tasks, attempts] of [
  [300, 1],
  [150, 5],
])
  for (const delta of [-0.1, -0.05, 0, 0.025, 0.05, 0.1]) scenarios.push({ tasks, attempts, delta });
const rows = gateCalibration(scenarios, {
  replicates: 300,
  resamples: 500,
  seed: "20260101",
  margin: 0.05,
  alpha: 0.05,
});
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log("| design | true Δ | worse | not worse | better | inconclusive |\n|---|---|---|---|---|---|");
for (const r of rows)
  console.log(
    `| ${r.tasks} × ${r.attempts} | ${r.delta} | ${pct(r.worse)} | ${pct(r.not_worse)} | ${pct(r.better)} | ` +
      `${pct(r.inconclusive)} |`,
  );
