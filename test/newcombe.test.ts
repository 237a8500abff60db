// Newcombe's hybrid score interval (analysis/stats/newcombe.ts) against Newcombe (1998) Table II's method 10
// column and against intervals computed from scipy's Wilson intervals (test/fixtures/newcombe_reference.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { newcombeDifference } from "../analysis/stats/newcombe.js";

const reference = JSON.parse(readFileSync(new URL("./fixtures/newcombe-reference.json", import.meta.url), "utf8")) as {
  a: [number, number];
  b: [number, number];
  ci: [number, number];
}[];

test("Newcombe (1998) Table II, method 10 (four decimals; his difference is the first proportion minus the second)", () => {
  // [x1, n1, x2, n2, lower, upper] for p1 − p2, as printed; ours is p_b − p_a, so a = (x2, n2), b = (x1, n1).
  const table: [number, number, number, number, number, number][] = [
    [56, 70, 48, 80, 0.0524, 0.3339],
    [9, 10, 3, 10, 0.1705, 0.809],
    [5, 56, 0, 29, -0.0381, 0.1926],
    [0, 10, 0, 20, -0.1611, 0.2775],
    [0, 10, 0, 10, -0.2775, 0.2775],
  ];
  for (const [x1, n1, x2, n2, lo, hi] of table) {
    const ci = newcombeDifference(x2, n2, x1, n1)!;
    assert.deepEqual(
      ci.map((v) => Number(v.toFixed(4))),
      [lo, hi],
      `${x1}/${n1} − ${x2}/${n2}`,
    );
  }
});

test("Newcombe's interval equals the one built from scipy's Wilson intervals, to 1e-12", () => {
  for (const r of reference) {
    const ci = newcombeDifference(r.a[0], r.a[1], r.b[0], r.b[1])!;
    for (const k of [0, 1])
      assert.ok(Math.abs(ci[k] - r.ci[k]) < 1e-12, `${JSON.stringify(r)}: ${ci[k]} against ${r.ci[k]}`);
  }
});

test("Newcombe's interval: null without trials on a side, inside [−1, 1], and antisymmetric in the sides", () => {
  assert.equal(newcombeDifference(0, 0, 3, 5), null);
  assert.equal(newcombeDifference(3, 5, 0, 0), null);
  for (const r of reference) {
    const ab = newcombeDifference(r.a[0], r.a[1], r.b[0], r.b[1])!;
    const ba = newcombeDifference(r.b[0], r.b[1], r.a[0], r.a[1])!;
    assert.ok(ab[0] >= -1 - 1e-12 && ab[1] <= 1 + 1e-12);
    assert.ok(Math.abs(ab[0] + ba[1]) < 1e-12 && Math.abs(ab[1] + ba[0]) < 1e-12);
  }
});

test("the registry's per-task uplift rows: the interval of curated − none, recomputed here by the formula (issue 55.5)", async () => {
  const { cli } = await import("./helpers/run-cli.js");
  const { join } = await import("node:path");
  const repo = new URL("..", import.meta.url).pathname;
  const r = await cli([
    "report",
    join(repo, "data/real/skillsbench-registry"),
    "--format",
    "json",
    "--resamples",
    "50",
  ]);
  assert.equal(r.code, 0, r.stderr);
  // Wilson's score interval and Newcombe's hybrid (1998, method 10), written out here, not imported.
  const z = 1.959963984540054;
  const wilson = (x: number, n: number): [number, number] => {
    const p = x / n;
    const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
    return [mid - half, mid + half];
  };
  let checked = 0;
  for (const u of JSON.parse(r.stdout).outcomes.by_task) {
    if (!u.interval || u.uplift_ci === null) continue;
    const [a, b] = [u.rate_none, u.rate_curated];
    const [la, ua] = wilson(a * u.trials_none, u.trials_none);
    const [lb, ub] = wilson(b * u.trials_curated, u.trials_curated);
    const d = b - a;
    const lower = d - Math.sqrt((b - lb) ** 2 + (ua - a) ** 2);
    const upper = d + Math.sqrt((ub - b) ** 2 + (a - la) ** 2);
    assert.ok(
      Math.abs(u.uplift_ci[0] - lower) < 1e-9 && Math.abs(u.uplift_ci[1] - upper) < 1e-9,
      `${u.group}: ${u.uplift_ci} vs [${lower}, ${upper}]`,
    );
    checked++;
  }
  assert.ok(checked > 50, `${checked} rows`);
});
