// Cohen's κ and the quadratic-weighted κ on bootstrap draws (issue 49.2: the κ interval was only checked for
// holding the estimate): each draw's weighted κ equals a reference computed on the expanded resample
// (test/fixtures/kappa_draws_reference.py, numpy), and the percentile interval over the draws equals numpy's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cohenKappa, quadraticKappa } from "../analysis/stats/two-coder-agreement.js";
import { percentileCI } from "../analysis/stats/bootstrap.js";

const ref: {
  k: number;
  task: number[];
  a: number[];
  b: number[];
  draws: { task_weights: number[]; kappa: number; quadratic: number }[];
  ci: { kappa: [number, number]; quadratic: [number, number] };
} = JSON.parse(readFileSync(new URL("fixtures/kappa-draws-reference.json", import.meta.url), "utf8"));

test("each draw's weighted κ (Cohen's and quadratic) equals the reference on the expanded resample", () => {
  // Grades as the workbench reads them: categories 0..k−1 mapped to [0, 1].
  const grade = (x: number) => x / (ref.k - 1);
  const ga = Float64Array.from(ref.a, grade);
  const gb = Float64Array.from(ref.b, grade);
  const kappas: number[] = [];
  const quadratics: number[] = [];
  for (const d of ref.draws) {
    const w = Float64Array.from(ref.task, (t) => d.task_weights[t]);
    const kappa = cohenKappa(ref.a, ref.b, w);
    const quadratic = quadraticKappa(ga, gb, w);
    assert.ok(Math.abs(kappa - d.kappa) < 1e-12, `κ ${kappa} vs ${d.kappa}`);
    assert.ok(Math.abs(quadratic - d.quadratic) < 1e-12, `quadratic κ ${quadratic} vs ${d.quadratic}`);
    kappas.push(kappa);
    quadratics.push(quadratic);
  }
  const close = (x: [number, number], y: [number, number]) =>
    assert.ok(Math.abs(x[0] - y[0]) < 1e-12 && Math.abs(x[1] - y[1]) < 1e-12, `${x} vs ${y}`);
  close(percentileCI(Float64Array.from(kappas), 0.95), ref.ci.kappa);
  close(percentileCI(Float64Array.from(quadratics), 0.95), ref.ci.quadratic);
});
