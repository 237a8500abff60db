// How well each printed Monte Carlo SE predicts how far its endpoint moves with another seed: reruns RQ3 on the
// demo, and `gcpc compare` on the τ² base vs fine-tuned store (lumpy: few pairs per transition, Δ on coarse
// grids), under seeds 1..N, and prints per endpoint the SD over seeds, the root mean square of the printed MC SE,
// and their ratio. Usage: node --import tsx scripts/mc-se-spread.ts [N=40]. Its table is in docs/compare.md.
import { DEFAULT_SETTINGS, type BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import { compareArms } from "../analysis/rq/arms/compare-arms.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { rq3SkillEffects } from "../analysis/rq/rq3-skill-effects.js";
import { readStore } from "../store/read-store.js";

const N = Number(process.argv[2] ?? 40);
type Ends = { ci: [number, number] | null; se: [number, number] | null };
const rows = new Map<string, { ends: number[][]; se: number[][] }>();
const add = (name: string, x: Ends) => {
  if (!x.ci || !x.se) return;
  const r = rows.get(name) ?? { ends: [[], []], se: [[], []] };
  for (const e of [0, 1]) {
    r.ends[e].push(x.ci[e]);
    r.se[e].push(x.se[e]);
  }
  rows.set(name, r);
};
const KEYS = ["median_delta", "improved_share", "regressed_share"] as const;
const MC = { median_delta: "median", improved_share: "improved", regressed_share: "regressed" } as const;

const demo = prepareStore((await readStore("data/demo")).store);
const tau = prepareStore((await readStore("data/real/tau2-sft")).store);
for (let seed = 1; seed <= N; seed++) {
  const settings: BootstrapSettings = { ...DEFAULT_SETTINGS, seed };
  for (const t of rq3SkillEffects(demo, settings).transitions)
    for (const k of KEYS)
      add(`demo RQ3 ${t.from}→${t.to} ${k}`, { ci: t[`${k}_ci`], se: t.bootstrap?.mc_se_by?.[MC[k]] ?? null });
  const c = compareArms(tau, {
    a: { model: "gpt-4.1" },
    b: { model: "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm" },
    settings,
  });
  if ("available" in c || "unpaired" in c || "available" in c.transitions) throw new Error("τ² compare not available");
  for (const [cell, t] of Object.entries(c.transitions))
    for (const k of KEYS)
      add(`τ² compare ${cell} ${k}`, { ci: t[`${k}_ci`], se: t.bootstrap?.mc_se_by?.[MC[k]] ?? null });
}
const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const rms = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0) / xs.length);
const f = (x: number) => x.toFixed(4);
console.log(`| figure (${N} seeds) | endpoint | SD over seeds | printed MC SE (rms) | ratio |`);
console.log("|---|---|---|---|---|");
for (const [name, r] of rows)
  for (const e of [0, 1]) {
    const spread = sd(r.ends[e]);
    const printed = rms(r.se[e]);
    const ratio = spread === 0 && printed === 0 ? "both 0" : spread === 0 ? "∞" : (printed / spread).toFixed(2);
    console.log(`| ${name} | ${e === 0 ? "lower" : "upper"} | ${f(spread)} | ${f(printed)} | ${ratio} |`);
  }
