// How much the demo's headline figures depend on the generator seed (state the spread,
// do not guess it). Generates the demo at seeds 1..N in memory and prints min / mean / max / sd of
// each figure's point estimate. Usage: node --import tsx scripts/seed-spread.ts [N=20]
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { generateDemoStore } from "../store/generate/demo-store.js";

const n = Number(process.argv[2] ?? 20);
const figures: Record<string, number[]> = {};
const add = (name: string, x: number | null | undefined) => {
  if (typeof x === "number") (figures[name] ??= []).push(x);
};
for (let seed = 1; seed <= n; seed++) {
  // Point estimates only: 50 resamples keep the run short; no interval is reported here.
  const r = analyzeStore(generateDemoStore({ seed }), { ...DEFAULT_SETTINGS, resamples: 50, headline_resamples: 50 });
  for (const a of r.rq1.auc) add(`AUC ${a.method}`, a.auc);
  if ("delta" in r.rq1.paired) add("paired ΔAUC (gcpc − holistic)", r.rq1.paired.delta);
  const ff = r.rq3.transitions.find((t) => t.group === "FAIL→FAIL");
  add("FAIL→FAIL improve > 0.10", ff?.improved_share);
  add("FAIL→FAIL regress < −0.10", ff?.regressed_share);
  process.stderr.write(`seed ${seed} done\n`);
}
const f = (x: number) => x.toFixed(3);
console.log(`| figure (${n} seeds: 1–${n}) | min | mean | max | sd |`);
console.log("|---|---|---|---|---|");
for (const [name, xs] of Object.entries(figures)) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  console.log(`| ${name} | ${f(Math.min(...xs))} | ${f(mean)} | ${f(Math.max(...xs))} | ${f(sd)} |`);
}
