import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import jStat from "jstat";
import { simulateDesign } from "../analysis/rq/power.js";
import { cli } from "./helpers/run-cli.js";

/** 60 tasks with a task effect; method b = method a + `shift`·PASS + noise of the same law, so Δ ≈ 0 when shift = 0. */
function population(shift: number) {
  const rng = seedrandom(`power-${shift}`);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  return Array.from({ length: 60 }, () => {
    const u = gauss();
    return Array.from({ length: 20 }, () => {
      const pass = rng() < 0.5 + 0.2 * Math.tanh(u);
      const z = u + (pass ? 0.5 : 0);
      return { a: z + gauss() + (pass ? shift : 0), b: z + gauss(), pass };
    });
  });
}

/** The exact binomial band [lo, hi] holding `count` ~ Bin(n, p) with probability ≥ 1 − 2·tail. */
function binomialBand(n: number, p: number, tail: number): [number, number] {
  let lo = 0;
  while (jStat.binomial.cdf(lo, n, p) < tail) lo++;
  let hi = n;
  while (hi > 0 && 1 - jStat.binomial.cdf(hi - 1, n, p) < tail) hi--;
  return [lo, hi];
}

test("no true difference: the share of CIs excluding 0 lies in the binomial band of a 5% test (400 studies)", () => {
  // Each task also enters mirrored as a task of its own (a and b swapped), so the store's ΔAUC is 0 exactly and
  // a simulated study's Δ is symmetric about 0: the simulation's truth is "no difference".
  const base = population(0);
  const pop = [...base, ...base.map((rows) => rows.map((r) => ({ a: r.b, b: r.a, pass: r.pass })))];
  const n = 400;
  const r = simulateDesign(pop, { tasks: 40, per_task: null }, n, "t1");
  // 99.9% band of Bin(400, 0.05) by the exact CDF (jstat, not our code): [7, 36] rejections.
  const [lo, hi] = binomialBand(n, 0.05, 0.0005);
  assert.ok(r.power * n >= lo && r.power * n <= hi, `type I ${r.power} outside [${lo / n}, ${hi / n}]`);
  assert.ok(Math.abs(r.mc_se - Math.sqrt((r.power * (1 - r.power)) / n)) < 1e-12);
});

test("a real difference: power grows with the number of tasks, and the detectable Δ shrinks", () => {
  const pop = population(0.8);
  const small = simulateDesign(pop, { tasks: 10, per_task: 10 }, 300, "t2");
  const large = simulateDesign(pop, { tasks: 80, per_task: 20 }, 300, "t3");
  assert.ok(large.power > small.power + 4 * Math.max(small.mc_se, large.mc_se), `${small.power} → ${large.power}`);
  assert.ok(large.min_detectable_delta < small.min_detectable_delta);
});

test("gcpc power prints a design table for the demo; bad lists exit 2", async () => {
  const r = await cli(["power", "data/demo", "--tasks", "20,80", "--per-task", "10", "--simulations", "40"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\| 20 \| 10 \| [\d.]+% ± [\d.]+ \|/);
  assert.match(r.stdout, /\| 80 \| 10 \| /);
  const bad = await cli(["power", "data/demo", "--tasks", "1,x"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--tasks must be a comma-separated list of integers >= 2/);
});
