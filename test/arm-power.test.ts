// gcpc power --a --b (analysis/rq/arms/arm-power.ts) against power computed by hand from the binomial law.
import { test } from "node:test";
import assert from "node:assert/strict";
import { armPower, normalFlipP } from "../analysis/rq/arms/arm-power.js";
import { armTable, type ArmTable } from "../analysis/rq/arms/compare-arms.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";
import { cli } from "./helpers/run-cli.js";
import { writeStore } from "../store/write-store.js";
import { tempDir } from "./helpers/temp-dir.js";
import { join } from "node:path";

/** 12 tasks; arm A fails every attempt; arm B's two attempts per task are one PASS and one FAIL. */
function halfStore() {
  const rows: SmallTrajectory[] = [];
  for (let t = 0; t < 12; t++)
    for (let k = 1; k <= 2; k++) {
      rows.push({ task: `t${t}`, outcome: "FAIL", labels: ["No", "No"], model: "A", trial: k });
      rows.push({
        task: `t${t}`,
        outcome: k === 1 ? "PASS" : "FAIL",
        labels: ["Yes", k === 1 ? "Yes" : "No"],
        model: "B",
        trial: k,
      });
    }
  return smallStore("half (synthetic)", rows);
}

const table = (): ArmTable => {
  const t = armTable(prepareStore(halfStore()));
  assert.ok(!("available" in t));
  return t as ArmTable;
};

test("one attempt per arm: d_t is 1 with probability ½, else 0; power = P(Bin(T, ½) ≥ 6) by hand", () => {
  // The exact sign-flip p of n₁ ones (zeros do not flip) is 2·2^−n₁: below 0.05 exactly when n₁ ≥ 6.
  const r = armPower(table(), {
    a: { model: "A" },
    b: { model: "B" },
    tasks: [5, 10],
    attempts: [1],
    effects: [],
    simulations: 4000,
    seed: "hand",
  });
  assert.ok(!("available" in r));
  const choose = (n: number, k: number) => {
    let c = 1;
    for (let j = 1; j <= k; j++) c = (c * (n - k + j)) / j;
    return c;
  };
  const atLeast6 = (n: number) => {
    let s = 0;
    for (let k = 6; k <= n; k++) s += choose(n, k);
    return s / 2 ** n;
  };
  const row = (tasks: number) => r.rows.find((x) => x.metric === "pass_rate" && x.tasks === tasks)!;
  assert.equal(row(5).power, 0, "five tasks can never reach p < 0.05");
  const want = atLeast6(10); // 386/1024
  assert.ok(Math.abs(want - 386 / 1024) < 1e-12);
  assert.ok(Math.abs(row(10).power - want) < 4 * Math.sqrt((want * (1 - want)) / 4000), `${row(10).power} vs ${want}`);
  assert.equal(r.store_effect.pass_rate, 0.5);
});

test("a given δ of 0 keeps the false-positive rate at or below α (pass rate exact; score by its normal limit)", () => {
  const r = armPower(table(), {
    a: { model: "A" },
    b: { model: "B" },
    tasks: [40],
    attempts: [3],
    effects: [0],
    simulations: 2000,
    seed: "null",
  });
  assert.ok(!("available" in r));
  for (const x of r.rows.filter((y) => y.effect === 0)) {
    assert.equal(x.realized_effect, 0);
    assert.ok(x.power <= 0.05 + 3 * Math.sqrt((0.05 * 0.95) / 2000), `${x.metric}: ${x.power}`);
  }
});

test("normalFlipP: z = Σd/√Σd² (d = 1, 1, 1, −1: z = 1, p = 2(1 − Φ(1)) = 0.3173)", () => {
  assert.ok(Math.abs(normalFlipP([1, 1, 1, -1]) - 0.31731050786291415) < 1e-7);
  assert.ok(Number.isNaN(normalFlipP([0, 0])));
});

test("gcpc power --a --b runs from the CLI; --per-task is refused with the two-arm design", async () => {
  const dir = join(tempDir("gcpc-arm-power-"), "store");
  await writeStore(dir, halfStore(), "jsonl");
  const ok = await cli([
    "power",
    dir,
    "--a",
    "model=A",
    "--b",
    "model=B",
    "--tasks",
    "10",
    "--attempts",
    "1,2",
    "--simulations",
    "50",
    "--format",
    "json",
  ]);
  assert.equal(ok.code, 0, ok.stderr);
  const out = JSON.parse(ok.stdout);
  assert.equal(out.matched_tasks, 12);
  assert.equal(out.rows.length, 2 * 2 * 4);
  const bad = await cli(["power", dir, "--a", "model=A", "--b", "model=B", "--per-task", "10"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--per-task/);
  const stray = await cli(["power", dir, "--attempts", "3"]);
  assert.equal(stray.code, 2);
});
