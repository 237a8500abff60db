// Random search (then local refinement) of the demo generator's parameters against the paper's
// reported figures. A development aid: the chosen values are written into MODEL by hand and
// documented in data/README.md. Usage: node --import tsx scripts/search-demo-params.ts N SEED
import seedrandom from "seedrandom";
import { generateDemoStore, MODEL, type DemoModel } from "../store/generate/demo-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { CALIBRATED_FIGURES, calibrationTolerance } from "../store/generate/demo-inputs.js";
import { loadPaperFigures } from "../report/paper.js";
import { tidyFigures } from "../report/tidy.js";

const RANGES: Record<string, [number, number]> = {
  itemTaskOffsetSd: [0, 1.5],
  itemDifficultySd: [0.3, 1.6],
  itemDifficultyMean: [-3, 0.5],
  evidenceHighShare: [0.5, 0.95],
  evidenceLow: [0, 0.15],
  evidenceHigh: [0.9, 1],
  trajectoryNoiseSd: [0.05, 0.35],
  itemNoiseSd: [0.05, 0.3],
  skillEffectShare: [0.1, 0.7],
  skillEffectLargeSd: [0.3, 2.5],
  skillEffectCellSd: [0, 0.15],
  taskDifficultySd: [0.5, 1.5],
  baselineTaskBiasSd: [0, 2],
  holisticNoiseSd: [0.8, 2.5],
  outcomeNoiseSd: [0.2, 1.5],
  passThreshold: [-0.5, 1],
  logStyleSd: [0, 2],
  cellItemNoiseSd: [0, 3],
  humanSharedNoiseSd: [0.5, 2],
  humanRatingNoiseSd: [0.5, 2],
  directedRerunFlip: [0.005, 0.1],
  secondJudgeFlip: [0.05, 0.3],
  hiddenFailureShare: [0, 0.5],
  hiddenFailureCellShare: [0, 0.5],
  // the log-only baselines' noise, per method (a dotted key names a field of a record in MODEL)
  "baselineNoiseSd.generic": [1, 3],
  "baselineNoiseSd.tick": [1, 3],
  "baselineNoiseSd.tick_adapted": [1, 3],
  cellOutcomeShiftSd: [0, 2],
  skillOutcomeCoupling: [0.2, 1],
  judgeFlip: [0, 0.02],
  skillEffectMean: [0, 0.4],
  // the within-pair coupling (demo-populations.ts, pairCoupling): 0 in MODEL until a search places it
  skillLogDamping: [0, 1],
  transitionLogShiftUp: [0, 4],
  transitionLogShiftDown: [0, 4],
  transitionLogShiftSd: [0, 1],
  // the verifier coupling (demo-populations.ts, labelTrajectory): 0 in MODEL until a search places it
  passAssertionYes: [0, 1],
};
/** The generator's overrides of a flat parameter set: "record.field" keys set one field of MODEL's record. */
function overrides(flat: Record<string, number>): Partial<DemoModel> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(flat)) {
    const [record, field] = k.split(".");
    if (field === undefined) out[k] = v;
    else out[record] = { ...(MODEL as any)[record], ...(out[record] as object), [field]: v };
  }
  return out as Partial<DemoModel>;
}

// The figures searched for are the calibrated ones (store/generate/demo-inputs.ts), read from the report as the
// report's paper column reads them (report/tidy.ts) and held to the paper's values (paper/reported.json).
const paper = loadPaperFigures();

/** The demo's value of every calibrated figure for a parameter set (NaN where the report has none). */
function evaluate(model: Partial<DemoModel>, seed: number): Record<string, number> {
  const report = analyzeStore(generateDemoStore({ seed, model: overrides(model as Record<string, number>) }), {
    seed: 1,
    resamples: 20,
    headline_resamples: 20,
    level: 0.95,
    interval: "percentile",
  });
  const seen = new Map<string, number | null>();
  tidyFigures(report, paper, (id, estimate) => seen.set(id, estimate));
  return Object.fromEntries([...CALIBRATED_FIGURES].map((id) => [id, seen.get(id) ?? NaN]));
}

/**
 * Each figure's distance in units of its calibration tolerance, squared, plus a steep term past 90% of it: the
 * report marks a figure "calibrated" only within its tolerance, so every figure counts alike and a miss
 * costs more than a near one.
 */
const loss = (v: Record<string, number>) =>
  [...CALIBRATED_FIGURES].reduce((s, id) => {
    if (!Number.isFinite(v[id])) return s + 100;
    const d = Math.abs(v[id] - paper.figures[id].value) / calibrationTolerance(id);
    return s + d ** 2 + 10 * Math.max(0, d - 0.9) ** 2;
  }, 0);

const n = Number(process.argv[2] ?? 100),
  seed = Number(process.argv[3] ?? 20260101);
// A second search from the same start explores elsewhere with another stream: GCPC_SEARCH_STREAM=name.
const rng = seedrandom(process.env.GCPC_SEARCH_STREAM ?? "search");
let best: { model: Partial<DemoModel>; loss: number; values: Record<string, number> } | undefined;
// Optional start point (JSON of parameters): then every step is a local refinement around the best.
const start = process.argv[4] ? JSON.parse(process.argv[4]) : undefined;
if (start) {
  const values = evaluate(start, seed);
  best = { model: start, loss: loss(values), values };
  console.error(`start loss ${best.loss.toFixed(4)}`);
}
// GCPC_SEARCH_KEYS=a,b,c: only these parameters move (the others keep the start's values), and from a start the
// first half of the steps draws them anywhere in their ranges before the local refinement.
const keys = process.env.GCPC_SEARCH_KEYS?.split(",") ?? Object.keys(RANGES);
for (const k of keys) if (!RANGES[k]) throw new Error(`GCPC_SEARCH_KEYS: no range for ${k}`);
const global = (i: number) => (!start && (!best || i < n / 2)) || (start && process.env.GCPC_SEARCH_KEYS && i < n / 2);
for (let i = 0; i < n; i++) {
  const model: Record<string, number> = { ...start };
  if (global(i))
    for (const k of keys) {
      const [lo, hi] = RANGES[k];
      model[k] = lo + rng() * (hi - lo);
    }
  else {
    // Every other step moves a few parameters only (each with a chance of m / keys, m drawn from 1–6 per key:
    // about 3.5 of them): in 30-odd dimensions a step that moves all of them rarely improves once the start is near.
    const few = i % 2 === 1 ? new Set(keys.filter(() => rng() < (1 + Math.floor(rng() * 6)) / keys.length)) : null;
    for (const k of keys) {
      const [lo, hi] = RANGES[k];
      const b = (best!.model as Record<string, number>)[k];
      const step = few && !few.has(k) ? 0 : (rng() - 0.5) * (start ? 0.1 : 0.2) * (hi - lo);
      model[k] = Math.min(hi, Math.max(lo, b + step));
    }
  }
  for (const k of keys) model[k] = Math.round(model[k] * 1000) / 1000; // the values MODEL will hold
  const values = evaluate(model as Partial<DemoModel>, seed);
  const l = loss(values);
  if (!best || l < best.loss) {
    best = { model: model as Partial<DemoModel>, loss: l, values };
    console.error(`#${i} loss ${l.toFixed(4)}`);
  }
}
const round = (o: Record<string, number>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
console.log(
  JSON.stringify(
    { loss: best!.loss, model: round(best!.model as Record<string, number>), values: round(best!.values) },
    null,
    1,
  ),
);
