// Newcombe's hybrid score interval (analysis/stats/newcombe.ts) against Newcombe (1998) Table II's method 10
// column and against intervals computed from scipy's Wilson intervals (test/fixtures/newcombe_reference.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { newcombeDifference, newcombePairedDifference } from "../analysis/stats/newcombe.js";

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

// Newcombe's paired interval written out here, not imported (Altman et al. 2000 ch. 6; Fagerland et al. 2014
// §8.5.4): p_b − p_a from [both, only_b, only_a, neither], ψ corrected by n/2 as Newcombe does.
function pairedByHand([both, onlyB, onlyA, neither]: number[]): [number, number] {
  const z = 1.959963984540054;
  const wilson = (x: number, n: number): [number, number] => {
    const p = x / n;
    const mid = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
    const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
    return [Math.max(0, mid - half), Math.min(1, mid + half)];
  };
  const n = both + onlyB + onlyA + neither;
  const [xb, xa] = [both + onlyB, both + onlyA];
  const [lb, ub] = wilson(xb, n);
  const [la, ua] = wilson(xa, n);
  const [pb, pa] = [xb / n, xa / n];
  const margins = xb * (n - xb) * xa * (n - xa);
  const cross = both * neither - onlyB * onlyA;
  const psi =
    margins === 0
      ? 0
      : cross > n / 2
        ? (cross - n / 2) / Math.sqrt(margins)
        : cross >= 0
          ? 0
          : cross / Math.sqrt(margins);
  const d = pb - pa;
  return [
    d - Math.sqrt(Math.max(0, (pb - lb) ** 2 + (ua - pa) ** 2 - 2 * psi * (pb - lb) * (ua - pa))),
    d + Math.sqrt(Math.max(0, (pa - la) ** 2 + (ub - pb) ** 2 - 2 * psi * (pa - la) * (ub - pb))),
  ];
}

const table = (t: number[]) => ({ both: t[0], onlyB: t[1], onlyA: t[2], neither: t[3] });

test("Newcombe's paired interval: Fagerland, Lydersen & Laake (2014) §8.5.4's worked example (Cavo et al.)", () => {
  // Their Table 8.x: 59 both, 6 first only, 16 second only, 80 neither; −0.0621 (95% CI −0.1186 to −0.0046).
  const ci = newcombePairedDifference(table([59, 6, 16, 80]))!;
  assert.deepEqual(
    ci.map((v) => Number(v.toFixed(4))),
    [-0.1186, -0.0046],
  );
});

test("Newcombe's paired interval equals the scipy-based reference, integer and fractional tables, to 1e-12", () => {
  const paired = JSON.parse(
    readFileSync(new URL("./fixtures/newcombe-paired-reference.json", import.meta.url), "utf8"),
  ) as { table: number[]; ci: [number, number] }[];
  assert.ok(paired.length >= 15);
  for (const r of paired) {
    const ci = newcombePairedDifference(table(r.table))!;
    for (const k of [0, 1]) assert.ok(Math.abs(ci[k] - r.ci[k]) < 1e-12, `${r.table}: ${ci[k]} against ${r.ci[k]}`);
  }
});

test("Newcombe's paired interval: no wider than the independent one when the pairs agree, null without pairs", () => {
  assert.equal(newcombePairedDifference(table([0, 0, 0, 0])), null);
  // Strongly concordant pairs: the correlation narrows the interval (Newcombe 1998b's point).
  const paired = newcombePairedDifference(table([40, 1, 9, 50]))!;
  const independent = newcombeDifference(49, 100, 41, 100)!;
  assert.ok(paired[1] - paired[0] < 0.8 * (independent[1] - independent[0]), `${paired} vs ${independent}`);
  // No correlation (ad − bc within n/2): exactly the independent-samples interval on the margins.
  const none = newcombePairedDifference(table([3, 2, 2, 3]))!;
  const indep = newcombeDifference(5, 10, 5, 10)!;
  assert.ok(Math.abs(none[0] - indep[0]) < 1e-12 && Math.abs(none[1] - indep[1]) < 1e-12);
});

test("the demo's per-task uplift: each task's configurations paired across the conditions, counted here by SQL (issue 55.4)", async () => {
  const { cli } = await import("./helpers/run-cli.js");
  const { join } = await import("node:path");
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const repo = new URL("..", import.meta.url).pathname;
  const r = await cli(["report", join(repo, "data/demo"), "--format", "json", "--resamples", "50"]);
  assert.equal(r.code, 0, r.stderr);
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  const file = join(repo, "data/demo/trajectories.parquet").replaceAll("'", "''");
  // One trial a side per configuration in the demo: the plain table of pairs, after the paper's deduplication
  // (§4.1: by log_hash, the first trajectory_id of each kept).
  const rows = (
    await conn.runAndReadAll(`
      with kept as (
        select * from '${file}'
        qualify log_hash is null or row_number() over (partition by log_hash order by trajectory_id) = 1),
      t as (select * from kept where outcome in ('PASS', 'FAIL'))
      select n.task_id,
        count(*) filter (where n.outcome = 'PASS' and c.outcome = 'PASS')::int as both,
        count(*) filter (where n.outcome = 'FAIL' and c.outcome = 'PASS')::int as only_curated,
        count(*) filter (where n.outcome = 'PASS' and c.outcome = 'FAIL')::int as only_none,
        count(*) filter (where n.outcome = 'FAIL' and c.outcome = 'FAIL')::int as neither
      from t n join t c using (task_id, harness, model, source, trial)
      where n.condition = 'none' and c.condition = 'curated'
      group by n.task_id`)
  ).getRowObjectsJson() as Record<string, string | number>[];
  const byTask = new Map(rows.map((x) => [x.task_id, x]));
  let checked = 0;
  for (const u of JSON.parse(r.stdout).outcomes.by_task) {
    if (u.uplift_ci === null) continue;
    const sql = byTask.get(u.group)!;
    assert.deepEqual(
      u.pairs,
      { both: sql.both, only_curated: sql.only_curated, only_none: sql.only_none, neither: sql.neither },
      u.group,
    );
    const hand = pairedByHand([u.pairs.both, u.pairs.only_curated, u.pairs.only_none, u.pairs.neither]);
    assert.ok(Math.abs(u.uplift_ci[0] - hand[0]) < 1e-12 && Math.abs(u.uplift_ci[1] - hand[1]) < 1e-12, u.group);
    checked++;
  }
  assert.ok(checked > 50, `${checked} rows`);
  const sb1 = JSON.parse(r.stdout).outcomes.by_task.find((u: { group: string }) => u.group === "sb-0001");
  // 17 pass both ways, 4 only without skills, 4 fail both: −0.160, [−0.3275, +0.0074] (the independent form's was
  // [−0.3781, +0.0781]).
  assert.deepEqual(
    sb1.uplift_ci.map((v: number) => Number(v.toFixed(4))),
    [-0.3275, 0.0074],
  );
});

test("the registry's per-task uplift rows (three trials a side): pairs whose margins are the rates, and the paired interval (issue 55.4)", async () => {
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
  let checked = 0;
  for (const u of JSON.parse(r.stdout).outcomes.by_task) {
    if (!u.interval || u.uplift_ci === null) continue;
    const p = u.pairs;
    const n = p.both + p.only_curated + p.only_none + p.neither;
    // Balanced cells: (n₀ + n₁)/2 pairs each, and the table's margins are the two pass rates.
    assert.ok(Math.abs(n - (u.trials_none + u.trials_curated) / 2) < 1e-9, u.group);
    assert.ok(Math.abs((p.both + p.only_curated) / n - u.rate_curated) < 1e-12, u.group);
    assert.ok(Math.abs((p.both + p.only_none) / n - u.rate_none) < 1e-12, u.group);
    const hand = pairedByHand([p.both, p.only_curated, p.only_none, p.neither]);
    assert.ok(
      Math.abs(u.uplift_ci[0] - hand[0]) < 1e-9 && Math.abs(u.uplift_ci[1] - hand[1]) < 1e-9,
      `${u.group}: ${u.uplift_ci} vs ${hand}`,
    );
    checked++;
  }
  assert.ok(checked > 50, `${checked} rows`);
});

test("the demo's sb-0001 (17/0/4/4): [−0.328, +0.007] with ψ corrected by N/2; the audit's [−0.314, −0.013] is ψ uncorrected", () => {
  // By hand: Wilson 95% for 17/25 and 21/25, ψ = (17·4 − 0·4 − 25/2)/√(17·8·21·4) = 55.5/106.88 = 0.519 (0.636
  // uncorrected); square-and-add gives −0.16 − 0.1675 and −0.16 + 0.1674 (uncorrected: −0.3138, −0.0131).
  const ci = newcombePairedDifference(table([17, 0, 4, 4]))!;
  assert.deepEqual(
    ci.map((v) => Number(v.toFixed(4))),
    [-0.3275, 0.0074],
  );
});
