// `node --import tsx bench/gate-fixed-design.ts`: the fixed-sample gate (bench/gate-calibration.ts's model) at the
// sequential calibration's designs (300 tasks × 1 attempt, 150 × 5), 300 replicates, 500 resamples: what the
// fixed design decides with all N tasks, beside bench/sequential-calibration.ts (docs/statistics.md). SYNTHETIC.
import { gateCalibration } from "./gate-calibration.js";
const sc = [];
for (const [tasks, attempts] of [
  [300, 1],
  [150, 5],
])
  for (const delta of [-0.1, -0.05, 0, 0.025, 0.05, 0.1]) sc.push({ tasks, attempts, delta });
const rows = gateCalibration(sc, { replicates: 300, resamples: 500, seed: "20260101", margin: 0.05, alpha: 0.05 });
for (const r of rows)
  console.log(
    `| ${r.tasks} × ${r.attempts} | ${r.delta} | worse ${(100 * r.worse).toFixed(1)}% | not worse ${(100 * r.not_worse).toFixed(1)}% | better ${(100 * r.better).toFixed(1)}% | inconclusive ${(100 * r.inconclusive).toFixed(1)}% |`,
  );
