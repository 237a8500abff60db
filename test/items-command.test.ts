// gcpc items (issue 58.1): each checklist item's difficulty, discrimination against the outcome, negative control,
// redundancy and judge quality, on a store whose every figure is computed here by hand (Newcombe 1998's Table II
// for the interval, the 2 × 2 φ for the point-biserial r, the hypergeometric law for the shuffle control), and on
// DevAI against the figures test/rubric.test.ts pins from the raw files.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

/**
 * One task, 20 trajectories: 10 PASS, 10 FAIL. q_good says Yes on 9 of the PASS runs and 3 of the FAIL runs;
 * q_wrong the other way round; q_dup repeats q_good; q_const says Yes everywhere; q_never is Abstain everywhere.
 */
async function handStore(): Promise<string> {
  const dir = tempDir("gcpc-items-");
  const rows = ["task,run,model,item,label,outcome,text"];
  for (let r = 0; r < 20; r++) {
    const pass = r < 10;
    const k = pass ? r : r - 10; // 0–9 within its group
    const good = pass ? k < 9 : k < 3;
    const wrong = pass ? k < 3 : k < 9;
    const label = (yes: boolean) => (yes ? "yes" : "no");
    const o = pass ? "PASS" : "FAIL";
    const m = r % 2 === 0 ? "m1" : "m2";
    rows.push(
      `t1,r${r},${m},q_good,${label(good)},${o},=HYPERLINK("http://x")`,
      `t1,r${r},${m},q_wrong,${label(wrong)},${o},wrong way`,
      `t1,r${r},${m},q_dup,${label(good)},${o},a repeat`,
      `t1,r${r},${m},q_const,yes,${o},always`,
      `t1,r${r},${m},q_never,abstain,${o},never`,
    );
  }
  writeFileSync(join(dir, "labels.csv"), `${rows.join("\n")}\n`);
  const store = join(dir, "store");
  const r = await cli([
    "import",
    "table",
    join(dir, "labels.csv"),
    "--out",
    store,
    ...["--task", "task", "--trajectory", "run", "--model", "model", "--item", "item", "--label", "label"],
    ...["--outcome", "outcome", "--pass", "PASS", "--item-text", "text", "--abstain", "abstain"],
  ]);
  assert.equal(r.code, 0, r.stderr);
  return store;
}

/** C(n, k), exactly for the small n here. */
const choose = (n: number, k: number): number => {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
};

test("gcpc items on a hand-made store: every figure as computed by hand", async () => {
  const store = await handStore();
  const r = await cli(["items", store, "--format", "json", "--shuffles", "4999"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const item = (id: string) => j.by_item.find((d: { item_id: string }) => d.item_id === id);
  const good = item("q_good");
  assert.equal(good.decided, 20);
  assert.equal(good.difficulty, 12 / 20);
  assert.equal(good.difference.toFixed(12), (0.6).toFixed(12));
  // Newcombe (1998) Table II, method 10: 9/10 − 3/10 → 0.1705 to 0.8090.
  assert.deepEqual(
    good.difference_ci.map((v: number) => Number(v.toFixed(4))),
    [0.1705, 0.809],
  );
  // P(PASS item > FAIL item) + ½ P(tie) = 0.9·0.7 + ½(0.9·0.3 + 0.1·0.7) = 0.63 + 0.17.
  assert.equal(good.auc.toFixed(12), (0.8).toFixed(12));
  // The point-biserial r of a Yes/No item is the 2 × 2 φ: (9·7 − 1·3) / √(10·10·12·8).
  assert.ok(Math.abs(good.point_biserial - 60 / Math.sqrt(9600)) < 1e-12, good.point_biserial);
  // Shuffling the outcomes: the item's Yes count among the PASS runs is hypergeometric (20 runs, 12 Yes, 10 drawn);
  // |difference| ≥ 0.6 when it is ≥ 9 or ≤ 3: p = 2·(C(12,9)C(8,1) + C(12,10)C(8,0)) / C(20,10) = 0.01977.
  const exact = (2 * (choose(12, 9) * choose(8, 1) + choose(12, 10) * choose(8, 0))) / choose(20, 10);
  assert.equal(exact.toFixed(5), "0.01977");
  const se = Math.sqrt((exact * (1 - exact)) / 5000);
  assert.ok(Math.abs(good.control_p - exact) < 4 * se, `control p ${good.control_p} against exact ${exact}`);
  assert.equal(good.informative, true);
  assert.equal(good.wrong_sign, false);
  const wrong = item("q_wrong");
  assert.deepEqual(
    wrong.difference_ci.map((v: number) => Number(v.toFixed(4))),
    [-0.809, -0.1705],
  );
  assert.equal(wrong.wrong_sign, true);
  assert.equal(wrong.auc.toFixed(12), (0.2).toFixed(12));
  assert.equal(item("q_const").constant, true);
  assert.equal(item("q_const").control_p, null);
  assert.equal(item("q_never").decided, 0);
  assert.deepEqual(good.redundant_with, ["q_dup"]);
  assert.deepEqual(
    j.redundant_pairs.map((p: { a: string; b: string; shared: number }) => [p.a, p.b, p.shared]),
    [["q_dup", "q_good", 20]],
  );
  assert.deepEqual([j.items, j.constant, j.undecided, j.wrong_sign, j.single], [5, 1, 1, 1, 0]);
  // Ranked: the wrong way first, then no information, then the repeats (each kind in checklist order).
  assert.deepEqual(
    j.to_fix.map((f: { item_id: string; why: string }) => `${f.item_id}: ${f.why.split(":")[0]}`),
    ["q_wrong: wrong sign", "q_const: constant", "q_never: never decided", "q_dup: redundant", "q_good: redundant"],
  );
});

test("gcpc items: the same seed gives the same bytes, CSV cells are formula-guarded, Markdown says what is flagged", async () => {
  const store = await handStore();
  const a = await cli(["items", store, "--format", "json", "--seed", "7"]);
  const b = await cli(["items", store, "--format", "json", "--seed", "7"]);
  assert.equal(a.stdout, b.stdout);
  const csv = await cli(["items", store, "--format", "csv"]);
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stdout, /,"'=HYPERLINK\(""http:\/\/x""\)"\n/);
  assert.doesNotMatch(csv.stdout, /,=HYPERLINK/);
  const md = await cli(["items", store]);
  assert.match(md.stdout, /\*\*1 constant\*\* \(20\.0% of the checklist\)/);
  assert.match(
    md.stdout,
    /\| t1 \| q\\_wrong \| wrong way \| wrong sign: Yes more often on failing runs: −60\.0 pp \[−80\.9 pp, −17\.1 pp\] \|/,
  );
  const few = await cli(["items", store, "--shuffles", "5"]);
  assert.equal(few.code, 2);
  assert.match(few.stderr, /--shuffles must be an integer >= 19/);
});

test("gcpc items on DevAI: the judge's agreement per item adds up to the judges command's 1,098 units at 89.6%", async () => {
  const r = await cli(["items", join(repo, "data/real/devai"), "--format", "json", "--shuffles", "19"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.reference_judge, "human consensus");
  let units = 0;
  let agreed = 0;
  for (const d of j.by_item)
    if (d.judge) {
      units += d.judge.units;
      agreed += d.judge.agreement * d.judge.units;
    }
  assert.equal(units, 1098);
  assert.equal((agreed / units).toFixed(3), "0.896");
  // Three trajectories per task: no shuffle of three outcomes reaches p < 0.05, and the summary says so by its count.
  assert.equal(j.informative, 0);
});

test("gcpc items per category: the items pooled (checked here from the per-item rows), intervals resampling tasks", async () => {
  const r = await cli(["items", join(repo, "data/demo"), "--format", "json", "--shuffles", "19", "--resamples", "200"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.by_category.length, 5);
  for (const c of j.by_category) {
    const of = j.by_item.filter((d: { category: string }) => d.category === c.category);
    let yes = 0;
    let decided = 0;
    const s = { passYes: 0, pass: 0, failYes: 0, fail: 0 };
    for (const d of of) {
      if (d.decided) {
        yes += d.difficulty * d.decided;
        decided += d.decided;
      }
      if (d.pass_n && d.fail_n) {
        s.passYes += d.pass_yes;
        s.pass += d.pass_n;
        s.failYes += d.fail_yes;
        s.fail += d.fail_n;
      }
    }
    assert.equal(c.items, of.length);
    assert.equal(c.tasks, new Set(of.map((d: { task_id: string }) => d.task_id)).size);
    assert.ok(Math.abs(c.difficulty - yes / decided) < 1e-12, c.category);
    assert.ok(Math.abs(c.difference - (s.passYes / s.pass - s.failYes / s.fail)) < 1e-12, c.category);
    assert.ok(c.difficulty_ci[0] <= c.difficulty && c.difficulty <= c.difficulty_ci[1], c.category);
    assert.ok(c.difference_ci[0] <= c.difference && c.difference <= c.difference_ci[1], c.category);
    assert.equal(c.bootstrap.resamples, 200);
    assert.equal(c.bootstrap.clusters, c.tasks);
    assert.equal(c.bootstrap.seed, `20260101:items:category:${c.category}`);
  }
});

test("gcpc items --by model: each item's Yes rate per model, counted here, and the items the same in every model", async () => {
  const store = await handStore();
  const r = await cli(["items", store, "--by", "model", "--format", "json", "--shuffles", "19"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const item = (id: string) => j.by_item.find((d: { item_id: string }) => d.item_id === id);
  // q_good is Yes on runs 0–8 (PASS) and 10–12 (FAIL); m1 holds the even runs: 0,2,4,6,8 and 10,12 → 7 of 10;
  // m2 the odd ones: 1,3,5,7 and 11 → 5 of 10.
  assert.deepEqual(item("q_good").by_arm, [
    { arm: "m1", decided: 10, yes_rate: 0.7 },
    { arm: "m2", decided: 10, yes_rate: 0.5 },
  ]);
  assert.equal(item("q_good").arm_constant, false);
  assert.equal(item("q_const").arm_constant, true);
  assert.equal(j.by, "model");
  assert.equal(j.arm_constant, 1);
  const md = await cli(["items", store, "--by", "model", "--shuffles", "19"]);
  assert.match(md.stdout, /\*\*1 with the same Yes rate in every model\*\* \(20\.0% of the checklist\)/);
});

test("LLM-Rubric (one run per dialogue): every item is decided on one trajectory, and the summary says why none is tested", async () => {
  // 223 dialogues, each its own task with one trajectory and its questions Q1–Q8 as items (scripts/
  // import-rubric-stores.sh): one verdict per item, so no item has a spread to measure.
  const r = await cli(["items", "data/real/llm-rubric", "--format", "json", "--shuffles", "19"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual([j.items, j.single, j.tested, j.constant], [1784, 1784, 0, 0]);
  const md = await cli(["items", "data/real/llm-rubric", "--shuffles", "19"]);
  assert.match(md.stdout, /\*\*1784 decided on one trajectory only\*\*: one verdict has no spread/);
});
