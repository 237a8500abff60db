import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { bootstrapIntervals, DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { seKey, studentizedIntervals } from "../analysis/estimates/studentized.js";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";
import { aucDrawSe, DrawComponents } from "../analysis/stats/draw-components.js";
import { obuchowskiAuc } from "../analysis/stats/obuchowski.js";
import { aucWithCI } from "../analysis/rq/common.js";
import { materialiseDraw } from "./helpers/materialise-draw.js";

test("hand example: θ̂ = 0.7, SE = 0.05, t* = −2, −1, 0, 1, 3 → [0.7 − 2.6·0.05, 0.7 + 1.8·0.05] at 80%", () => {
  // t* sorted −2, −1, 0, 1, 3; type-7 quantiles at 0.1 and 0.9: h = 0.4 → −2 + 0.4·1 = −1.6; h = 3.6 → 1 + 0.6·2 = 2.2.
  // Interval [θ̂ − t*₀.₉·SE, θ̂ − t*₀.₁·SE] = [0.7 − 2.2·0.05, 0.7 + 1.6·0.05] = [0.59, 0.78].
  const se = new Float64Array([0.04, 0.05, 0.1, 0.02, 0.01]);
  const t = [-2, -1, 0, 1, 3];
  const theta = Float64Array.from(t, (x, r) => 0.7 + x * se[r]);
  const r = studentizedIntervals(["auc"], { auc: 0.7 }, { auc: 0.05 }, { auc: theta, [seKey("auc")]: se }, 0.8);
  const [lo, hi] = r.ci.auc!;
  assert.ok(Math.abs(lo - 0.59) < 1e-12 && Math.abs(hi - 0.78) < 1e-12, `${lo}, ${hi}`);
});

// A clustered tie-heavy sample (scores on the k/8 grid), 16 tasks.
function sample() {
  const rng = seedrandom("studentized");
  const scores: number[] = [];
  const pass: boolean[] = [];
  const task: number[] = [];
  for (let c = 0; c < 16; c++) {
    const u = rng() - 0.5;
    for (let k = 0; k < 12; k++) {
      const y = rng() < 0.5 + 0.4 * u;
      pass.push(y);
      task.push(c);
      scores.push(Math.round(8 * Math.min(1, Math.max(0, 0.35 + 0.3 * u + (y ? 0.2 : 0) + 0.3 * (rng() - 0.5)))) / 8);
    }
  }
  return { scores, pass, task };
}

test("end to end: the studentized AUC interval equals one rebuilt from each draw materialised and Obuchowski's SE", () => {
  const d = sample();
  const auc = new ClusteredAuc(d.scores, d.pass, d.task, 16);
  const seen: Float64Array[] = [];
  const settings = { ...DEFAULT_SETTINGS, resamples: 300, interval: "studentized" as const };
  const res = bootstrapIntervals({
    settings,
    figure: "studentized-test",
    clusters: 16,
    estimator: "AUC",
    statistics: {
      auc: (w) => {
        seen.push(Float64Array.from(w));
        return auc.evaluate(w);
      },
    },
    accept: (w) => auc.hasBothClasses(w),
    standardErrors: { auc: aucDrawSe(new DrawComponents(d.scores, d.pass, d.task, 16)) },
  });
  // Independent rebuild: materialise every accepted draw (copies become clusters of their own),
  // Obuchowski's estimator on it (checked against R in obuchowski.test.ts), t = (A* − Â)/SE*.
  const full = obuchowskiAuc(d.scores, d.pass, d.task);
  const t: number[] = [];
  // The last evaluation is the sample itself (every weight 1), made after the draws.
  assert.ok(seen[seen.length - 1].every((x) => x === 1));
  for (const w of seen.slice(0, -1)) {
    const m = materialiseDraw({ scores: d.scores, pass: d.pass, cluster: d.task }, w);
    const o = obuchowskiAuc(m.scores, m.pass, m.cluster);
    if (o.se > 0) t.push((o.auc - full.auc) / o.se);
  }
  assert.equal(t.length, 300, "every accepted draw has a defined SE on this sample");
  t.sort((a, b) => a - b);
  const q = (pr: number) => {
    const h = (t.length - 1) * pr;
    const lo = Math.floor(h);
    return t[lo] + (h - lo) * (t[Math.min(lo + 1, t.length - 1)] - t[lo]);
  };
  const expected = [full.auc - q(0.975) * full.se, full.auc - q(0.025) * full.se];
  assert.ok(Math.abs(res.ci.auc[0] - expected[0]) < 1e-12 && Math.abs(res.ci.auc[1] - expected[1]) < 1e-12);
  assert.equal(res.bootstrap.interval, "studentized");
  assert.match(res.bootstrap.interval_note ?? "", /studentized \(bootstrap-t\) for auc/);
});

test("a figure without a per-draw SE gets the expanded percentile interval under --interval studentized, and says so", () => {
  const d = sample();
  const rows = d.scores.map((score, i) => ({ score, pass: d.pass[i], task: `t${d.task[i]}` }));
  const settings = { ...DEFAULT_SETTINGS, resamples: 300, headline_resamples: 300 };
  const pct = aucWithCI("m", rows, settings, "x");
  const stu = aucWithCI("m", rows, { ...settings, interval: "studentized" }, "x");
  // Within-task AUC has no per-draw SE here: same draws, read as the expanded percentile interval.
  const exp = aucWithCI("m", rows, { ...settings, interval: "expanded" }, "x");
  assert.deepEqual(stu.within_task?.ci, exp.within_task?.ci);
  assert.notDeepEqual(stu.within_task?.ci, pct.within_task?.ci);
  assert.match(
    stu.within_task?.bootstrap?.interval_note ?? "",
    /expanded percentile for auc \(no per-draw standard error\)/,
  );
  assert.notDeepEqual(stu.ci, pct.ci);
});

test("draws with SE* = 0: t* = ±∞ beyond the estimate, 0/0 left out; an infinite t* quantile is unbounded", () => {
  // θ̂ = 0.7: three draws at 0.8 with SE* 0 (t* = +∞), one at 0.6 with SE* 0.1 (t* = −1), one at 0.7 with SE* 0
  // (0/0, left out). Sorted t* = −1, +∞, +∞, +∞: the 90% quantile is +∞, so the interval is unbounded.
  const theta = Float64Array.of(0.8, 0.8, 0.8, 0.6, 0.7);
  const se = Float64Array.of(0, 0, 0, 0.1, 0);
  const r = studentizedIntervals(["auc"], { auc: 0.7 }, { auc: 0.05 }, { auc: theta, [seKey("auc")]: se }, 0.8);
  assert.deepEqual(r.unbounded, ["auc"]);
  assert.equal(r.ci.auc, undefined);
  assert.equal(r.undefinedT.auc, 1);
  // One infinite draw among many finite ones leaves both 10%/90% quantiles finite: a bounded interval.
  const many = Float64Array.from({ length: 20 }, (_, i) => (i === 0 ? 0.9 : 0.7 + (i - 10) * 0.01));
  const seMany = Float64Array.from({ length: 20 }, (_, i) => (i === 0 ? 0 : 0.05));
  const b = studentizedIntervals(["auc"], { auc: 0.7 }, { auc: 0.05 }, { auc: many, [seKey("auc")]: seMany }, 0.8);
  assert.deepEqual(b.unbounded, []);
  assert.ok(b.ci.auc?.every(Number.isFinite));
});
