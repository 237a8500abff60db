import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { studentTQuantile } from "../analysis/stats/student-t.js";
import { expandedPercentileLevel } from "../analysis/stats/expanded-percentile.js";
import { bootstrapIntervals, DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { percentileInterval } from "../analysis/stats/quantile.js";

// Expected values: base R (qt, pnorm, quantile type 7) in test/fixtures/expanded_percentile_reference.R.
const ref: {
  qt: { p: number; df: number; q: number }[];
  draws: number[];
  cases: { level: number; clusters: number; expanded_level: number; ci: [number, number] }[];
} = JSON.parse(readFileSync(new URL("./fixtures/expanded-percentile-reference.json", import.meta.url), "utf8"));

// jStat inverts the incomplete beta iteratively: relative error ≤ 2.2e-8 against R here, which moves
// a 95% interval's nominal tail by < 1e-9 — far below the Monte Carlo error of any endpoint.
test("Student t quantiles equal R's qt within 1e-7 relative (35 cases, df 1–869)", () => {
  for (const c of ref.qt) {
    const q = studentTQuantile(c.p, c.df);
    assert.ok(Math.abs(q - c.q) <= 1e-7 * Math.abs(c.q), `qt(${c.p}, ${c.df}) = ${c.q}, ours ${q}`);
  }
});

test("expanded percentile level and endpoints equal R's on 18 (level, clusters) cases", () => {
  const draws = Float64Array.from(ref.draws);
  for (const c of ref.cases) {
    const level = expandedPercentileLevel(c.level, c.clusters);
    assert.ok(Math.abs(level - c.expanded_level) < 1e-8, `${c.level}/${c.clusters}: ${level} vs ${c.expanded_level}`);
    const [lo, hi] = percentileInterval(draws, level);
    assert.ok(Math.abs(lo - c.ci[0]) < 1e-7 && Math.abs(hi - c.ci[1]) < 1e-7, `${[lo, hi]} vs ${c.ci}`);
  }
});

test("hand check at 30 tasks, 95%: t₀.₉₇₅,₂₉ = 2.04523, √(30/29)·t = 2.08021, tails 1.875%", () => {
  // Φ(−2.08021) = 0.018754 (normal table), so the nominal level becomes 1 − 2·0.018754 = 0.962492.
  assert.ok(Math.abs(expandedPercentileLevel(0.95, 30) - 0.962492) < 1e-6);
  // It widens less as tasks grow and is never narrower than the percentile interval.
  assert.ok(expandedPercentileLevel(0.95, 87) < expandedPercentileLevel(0.95, 30));
  assert.ok(expandedPercentileLevel(0.95, 100000) > 0.95);
  assert.throws(() => expandedPercentileLevel(0.95, 1), /clusters/);
});

test("--interval expanded: the interval contains the percentile one and the descriptor says how it was read", () => {
  const clusters = 12;
  const values = Array.from({ length: clusters }, (_, c) => (c * 7919) % 13);
  const mean = (w: Float64Array) => {
    let s = 0,
      n = 0;
    for (let c = 0; c < clusters; c++) {
      s += w[c] * values[c];
      n += w[c];
    }
    return s / n;
  };
  const run = (interval: "percentile" | "expanded") =>
    bootstrapIntervals({
      settings: { ...DEFAULT_SETTINGS, interval },
      figure: "t",
      clusters,
      estimator: "mean",
      statistics: { mean },
    });
  const p = run("percentile");
  const e = run("expanded");
  // Same seed → same draws; expanded reads them at the 1.08% / 98.92% quantiles (12 clusters).
  assert.deepEqual(e.draws.mean, p.draws.mean);
  assert.ok(e.ci.mean[0] < p.ci.mean[0] && e.ci.mean[1] > p.ci.mean[1], `${e.ci.mean} vs ${p.ci.mean}`);
  assert.deepEqual(e.ci.mean, percentileInterval(p.draws.mean, expandedPercentileLevel(0.95, 12)));
  assert.equal(e.bootstrap.interval, "expanded");
  assert.match(e.bootstrap.interval_note ?? "", /1\.08% and 98\.92% quantiles .* 12 clusters/);
});

// Expected values: SciPy's t and normal (test/fixtures/expanded_percentile_spent_reference.py), 108 cases.
test("expanded percentile with spent degrees of freedom (a tuned λ's) equals SciPy's: t with n − 1 − s df", () => {
  const spent: { cases: { level: number; clusters: number; spent: number; t: number; expanded_level: number }[] } =
    JSON.parse(readFileSync(new URL("./fixtures/expanded-percentile-spent.json", import.meta.url), "utf8"));
  for (const c of spent.cases) {
    const q = studentTQuantile(1 - (1 - c.level) / 2, c.clusters - 1 - c.spent);
    assert.ok(Math.abs(q - c.t) <= 1e-6 * c.t, `t(${c.level}, ${c.clusters - 1 - c.spent}) = ${c.t}, ours ${q}`);
    const level = expandedPercentileLevel(c.level, c.clusters, c.spent);
    assert.ok(Math.abs(level - c.expanded_level) < 1e-8, `${JSON.stringify(c)}: ours ${level}`);
  }
  // Spending a degree of freedom widens: at 8 tasks, 95%, s = 8/18 reads further out than s = 0.
  assert.ok(expandedPercentileLevel(0.95, 8, 8 / 18) > expandedPercentileLevel(0.95, 8));
  assert.throws(() => expandedPercentileLevel(0.95, 8, 1), /spent/);
});
