// Calibration aid for the demo generator: prints the pipeline's headline figures for a seed and
// parameter overrides, beside the paper's. Usage:
//   node --import tsx scripts/calibrate-demo.ts SEED '{"outcomeNoiseSd": 1.2}'
// Nothing here feeds the store: it only shows where a parameter set lands.
import { generateDemoStore } from "../store/generate/demo-store.js";
import { analyzeStore } from "../analysis/rq/report.js";

const seed = Number(process.argv[2] ?? 20260101);
const model = JSON.parse(process.argv[3] ?? "{}");
const r = analyzeStore(generateDemoStore({ seed, model }), {
  seed: 1,
  resamples: 200,
  headline_resamples: 200,
  level: 0.95,
  interval: "percentile",
});
const auc = (m: string) => r.rq1.auc.find((a) => a.method === m)?.auc?.toFixed(3);
const t = (g: string) => r.rq3.transitions.find((x) => x.group === g)!;
const f = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(3));
const paired: any = r.rq1.paired;
const sep = (r.rq4.outcome_step as any[]).map((x) => f(x.separation)).join("/");
const ab = (r.rq4.abstention as any[])
  .slice(0, 2)
  .map((x) => f(x.separation))
  .join("/");
const m2 = r.rq2.methods as any[];
const method = (name: string) => m2.find((m) => m.method === name);
const judge0 = (r.rq5.judge_substitution as any[])[0];
console.log(
  [
    `AUC gcpc ${auc("gcpc")} (0.689) holistic ${auc("holistic")} (0.619) generic ` +
      `${auc("generic")} (0.613) tick ${auc("tick")} (0.598) | paired Δ ${f(paired.delta)} ` +
      `[${f(paired.ci?.[0])}, ${f(paired.ci?.[1])}] (0.056 [-0.002, 0.118])`,
    `pairs ${r.rq3.pairs_total} (1946) | FF n ${t("FAIL→FAIL").n} (879) up ${f(t("FAIL→FAIL").improved_share)} ` +
      `(0.209) down ${f(t("FAIL→FAIL").regressed_share)} (0.187) | FP med ${f(t("FAIL→PASS").median_delta)} ` +
      `(0.227) | PF med ${f(t("PASS→FAIL").median_delta)} (-0.222)`,
    `sep none/endpoint/prop/both ${sep} (0.121/0.315/0.155/0.338) | abstention ${ab} (0.338/0.445)`,
    `rho gcpc ${f(m2.find((m) => m.method === "gcpc")?.rho)} (0.382) holistic ` +
      `${f(method("holistic")?.rho)} (0.218) | agr gcpc ${f(method("gcpc")?.agreement)} ` +
      `(0.730) holistic ${f(m2.find((m) => m.method === "holistic")?.agreement)} ` +
      `(0.613) | alpha q1 ${f((r.rq2.alpha_q1 as any).alpha)} (0.466)`,
    `reliability ${f((r.rq5.reliability as any).alpha)} (0.905) | judge rho ` +
      `${f(judge0?.rho_plain)} (0.615) / ${f(judge0?.rho_outcome)} ` +
      `(0.916) | binary ${r.counts.binary}`,
  ].join("\n"),
);
