// Graded, weighted and hierarchical checklists (contract schema_version 2): grades, weights and gating by hand;
// κ and α against textbook values and the project's independently tested α; the two vendored real stores
// against figures computed from their raw files by test/fixtures/rubric_reference.py (which does not call the
// project's code); the table and DevAI importers, their errors, and re-import of the committed stores.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { displayLabelAt, gradeAt, gradeChar, gradeTableOf, NOT_APPLICABLE_CHAR } from "../analysis/schema/grades.js";
import { readableLabels } from "../analysis/schema/label-vectors.js";
import {
  countAfterOutcomeStep,
  PLAIN,
  routeCounts,
  countsOfVariant,
  gcpcOf,
} from "../analysis/scoring/official-outcome.js";
import { gatedLabels, prerequisiteClosure } from "../analysis/scoring/gated-credit.js";
import { cohenKappa, percentAgreement, twoCoderAlpha } from "../analysis/stats/two-coder-agreement.js";
import { alphaFromUnits } from "../analysis/stats/krippendorff-alpha.js";
import { readStore } from "../store/read-store.js";
import { writeStore } from "../store/write-store.js";
import { storeRows } from "../store/import/merge-store.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { rubricAnalysis } from "../analysis/rq/rubric.js";
import { methodScoreMaps } from "../analysis/rq/method-scores.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import type { Store } from "../analysis/schema/store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const reference = JSON.parse(readFileSync(join(repo, "test/fixtures/rubric-reference.json"), "utf8"));
const settings = { ...DEFAULT_SETTINGS, resamples: 200, headline_resamples: 200 };
const close = (a: number | null, b: number, what: string) =>
  assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${what}: ${a} vs reference ${b}`);

test("grades ride in the label string: exact values, Y/N for 1/0, '-' for not applicable", () => {
  const labels = `Y${gradeChar(2 / 3)}${NOT_APPLICABLE_CHAR}A.${gradeChar(0)}`;
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((k) => gradeAt(labels, k)),
    [1, 2 / 3, -1, NaN, NaN, 0],
  );
  assert.equal(gradeChar(2 / 3), gradeChar(2 / 3), "one character per value");
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((k) => displayLabelAt(labels, k)),
    ["Yes", "0.667", "NotApplicable", "Abstain", "Abstain", "No"],
  );
  assert.throws(() => gradeChar(1.5), /outside \[0, 1\]/);
  // Read in another process (the site's browser) through the table of the grades the strings use.
  const table = gradeTableOf([labels]);
  assert.deepEqual(table, { [gradeChar(2 / 3)]: 2 / 3 });
  const browser = JSON.parse(JSON.stringify({ labels, table }));
  assert.deepEqual(readableLabels(browser.labels, browser.table), [
    "Yes",
    "0.667",
    "NotApplicable",
    "Abstain",
    undefined,
    "No",
  ]);
  assert.equal(gradeTableOf(["YNA.-"]), undefined);
});

test("weighted graded GCPC = Σ w·grade / Σ w over applicable decided items (by hand)", () => {
  // weights 1, 2, 1, 4: grades 1, 1/2, not applicable, Abstain → (1·1 + 2·0.5) / (1 + 2) = 2/3.
  const items = [1, 2, 1, 4].map((weight) => ({ route: "judge" as const, weight }));
  const labels = `Y${gradeChar(0.5)}-A`;
  const direct = countAfterOutcomeStep(items, labels, "FAIL", PLAIN);
  assert.equal(gcpcOf(direct), 2 / 3);
  assert.equal(direct.items, 7, "the not-applicable item leaves the checklist");
  assert.equal(gcpcOf(countsOfVariant(routeCounts(items, labels), "FAIL", PLAIN)), 2 / 3);
  // Abstain forced to No adds its weight to the decided: (1 + 1) / (1 + 2 + 4).
  assert.equal(gcpcOf(countAfterOutcomeStep(items, labels, "FAIL", PLAIN, "forced_no")), 2 / 7);
  // With official outcome on a PASS: the endpoint item weighs the mean weight, 2, and is Yes: (2 + 2) / (3 + 2).
  const withOutcome = { propagation: true, endpoint: true };
  assert.equal(gcpcOf(countAfterOutcomeStep(items, labels, "PASS", withOutcome)), 4 / 5);
  assert.equal(gcpcOf(countsOfVariant(routeCounts(items, labels), "PASS", withOutcome)), 4 / 5);
});

test("gated credit: an item counts only when its prerequisites hold, transitively", () => {
  const items = [{ item_id: "A" }, { item_id: "B", prerequisites: ["A"] }, { item_id: "C", prerequisites: ["B"] }];
  const closure = prerequisiteClosure(items);
  assert.deepEqual(closure, [[], [0], [0, 1]]);
  assert.equal(gatedLabels("NYY", closure), "NNN", "A fails, so B and C (through B) get no credit");
  assert.equal(gatedLabels("YAY", closure), "YAN", "an Abstain prerequisite does not hold; an Abstain item stays");
  // An Abstain item whose prerequisite fails stays Abstain (undecided, outside the denominator), not No.
  assert.equal(gatedLabels("NAY", closure), "NAN", "a failed prerequisite leaves an Abstain item Abstain");
  assert.equal(gatedLabels("-YY", closure), "-YY", "a not-applicable prerequisite is not required");
  assert.equal(gatedLabels(`Y${gradeChar(0.5)}Y`, closure), `Y${gradeChar(0.5)}N`, "partial credit does not hold");
  assert.throws(
    () =>
      prerequisiteClosure([
        { item_id: "A", prerequisites: ["B"] },
        { item_id: "B", prerequisites: ["A"] },
      ]),
    /cycle/,
  );
});

test("Cohen's κ on the textbook table (Wikipedia: 20 / 5 / 10 / 15) is 0.4; percent agreement 0.7", () => {
  const a = [...Array(20).fill(1), ...Array(5).fill(1), ...Array(10).fill(0), ...Array(15).fill(0)];
  const b = [...Array(20).fill(1), ...Array(5).fill(0), ...Array(10).fill(1), ...Array(15).fill(0)];
  const w = a.map(() => 1);
  assert.ok(Math.abs(cohenKappa(a, b, w) - 0.4) < 1e-12);
  assert.ok(Math.abs(percentAgreement(a, b, w) - 0.7) < 1e-12);
});

test("two-coder α equals the general α (alphaFromUnits) for nominal and interval data, and weights replicate units", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const a = Array.from({ length: 60 }, () => Math.floor(rnd() * 4));
  const b = a.map((x) => (rnd() < 0.6 ? x : Math.floor(rnd() * 4)));
  for (const metric of ["nominal", "interval"] as const) {
    const units = a.map((x, i) => [x, b[i]]);
    const general = alphaFromUnits(units, metric);
    assert.ok(
      Math.abs(
        twoCoderAlpha(
          a,
          b,
          a.map(() => 1),
          metric,
        ) - general,
      ) < 1e-12,
      metric,
    );
    // Weight 2 on unit 0 equals listing it twice.
    const twice = alphaFromUnits([units[0], ...units], metric);
    const w = a.map((_, i) => (i === 0 ? 2 : 1));
    assert.ok(Math.abs(twoCoderAlpha(a, b, w, metric) - twice) < 1e-12, `${metric} weighted`);
  }
});

test("DevAI: credits' AUCs and the agent judge's agreement with the human consensus equal the raw-file reference", async () => {
  const p = prepareStore((await readStore(join(repo, "data/real/devai"))).store);
  const ref = reference.devai;
  const maps = methodScoreMaps(p);
  assert.equal(p.trajectories.length, ref.trajectories);
  const r = rubricAnalysis(p, settings);
  assert.ok("credits" in r.credit);
  const auc = new Map<string, number>();
  for (const pair of r.credit.pairs)
    if ("delta" in pair) {
      auc.set(pair.methods[0], pair.auc_a);
      auc.set(pair.methods[1], pair.auc_b);
    }
  close(auc.get("gcpc (unweighted)")!, ref.auc_plain, "plain");
  close(auc.get("gcpc")!, ref.auc_weighted, "weighted");
  close(auc.get("gcpc (gated)")!, ref.auc_gated, "gated");
  assert.ok(maps.has("gcpc (gated)") && maps.has("gcpc (unweighted)"));
  assert.ok(Array.isArray(r.judges));
  const j = r.judges[0];
  assert.equal(j.overall.units, ref.units);
  close(j.overall.percent, ref.percent, "percent");
  close(j.overall.kappa, ref.kappa, "kappa");
  close(j.overall.alpha, ref.alpha, "alpha");
  // Yes/No labels: the quadratic-weighted κ is the plain κ; sensitivity and specificity of the agent's Yes.
  close(j.overall.kappa_quadratic, ref.kappa_quadratic, "quadratic κ");
  close(j.overall.sensitivity, ref.sensitivity, "sensitivity");
  close(j.overall.specificity, ref.specificity, "specificity");
  for (const g of j.by_group) {
    assert.equal(g.units, ref.by_group[g.group].units, g.group);
    close(g.percent, ref.by_group[g.group].percent, g.group);
  }
  assert.ok(j.overall.kappa_ci && j.overall.kappa_ci[0] < j.overall.kappa! && j.overall.kappa! < j.overall.kappa_ci[1]);
  assert.ok("delta" in j.auc);
  close(j.auc.auc_b, ref.auc_weighted, "agent judge's weighted credit");
  close(j.auc.auc_a, ref.auc_human_weighted, "human consensus's weighted credit");
});

test("LLM-Rubric: 1–4 grades with 0 not applicable; AUCs and agreement equal the raw-file reference", async () => {
  const p = prepareStore((await readStore(join(repo, "data/real/llm-rubric"))).store);
  const ref = reference.llm_rubric;
  assert.equal(p.trajectories.filter((t) => t.outcome === "PASS").length, ref.pass);
  const r = rubricAnalysis(p, settings);
  assert.ok(!("credits" in r.credit), "no weights, no prerequisites: plain credit only");
  assert.ok(Array.isArray(r.judges));
  const j = r.judges[0];
  assert.equal(j.alpha_metric, "interval");
  assert.equal(j.overall.units, ref.units);
  close(j.overall.percent, ref.percent, "percent");
  close(j.overall.kappa, ref.kappa, "kappa");
  close(j.overall.alpha, ref.alpha_interval, "alpha");
  // Ordinal grades: quadratic-weighted κ 0.0859 against plain κ 0.010 (issue 45.7); the top grade as Yes.
  close(j.overall.kappa_quadratic, ref.kappa_quadratic, "quadratic κ");
  close(j.overall.sensitivity, ref.sensitivity, "sensitivity");
  close(j.overall.specificity, ref.specificity, "specificity");
  for (const [x, c] of [
    [j.overall.kappa_quadratic, j.overall.kappa_quadratic_ci],
    [j.overall.sensitivity, j.overall.sensitivity_ci],
    [j.overall.specificity, j.overall.specificity_ci],
  ] as const)
    assert.ok(c && c[0] < x! && x! < c[1], `${x} in ${c}`);
  assert.ok("delta" in j.auc);
  close(j.auc.auc_a, ref.auc_human, "human credit");
  close(j.auc.auc_b, ref.auc_llm, "LLM credit");
});

test("DevAI task 52: each verdict sits on the requirement its judgment file judged (issue 45.4), weights follow it", async () => {
  // The raw files, read here: task 52's instance defines R0–R3, its judgment files R0–R4 ("datasets downloaded"
  // inserted at R2). Every verdict of the committed store must sit on an item whose text is the criteria its
  // file judged under that number, and carry that file's category and prerequisites.
  const raw = join(repo, "data/real/raw/devai/benchmark");
  const task = "52_Devin_AI_Trains_an_AI";
  const judged = JSON.parse(readFileSync(join(raw, "judgment/OpenHands/human_as_a_judge", `${task}.json`), "utf8"))
    .requirements as { requirement_id: number; criteria: string; category: string; prerequisites: number[] }[];
  const instance = JSON.parse(readFileSync(join(raw, "devai/instances", `${task}.json`), "utf8")).requirements;
  assert.deepEqual([instance.length, judged.length], [4, 5], "the snapshot's mismatch is still there");
  const { store } = await storeRows(join(repo, "data/real/devai"));
  const items = store.items.filter((it) => it.task_id === task);
  assert.deepEqual(
    items.map((it) => [it.item_id, it.text, it.group, it.prerequisites]),
    judged.map((r) => [`R${r.requirement_id}`, r.criteria, r.category, r.prerequisites.map((p) => `R${p}`)]),
  );
  assert.match(items[2].text, /datasets required for finetuning the model are downloaded/);
  // 1 + the requirements depending on it, transitively: a chain of five.
  assert.deepEqual(
    items.map((it) => it.weight),
    [5, 4, 3, 2, 1],
  );
  const onTask = store.judgments.filter((j) => j.trajectory_id.endsWith(`/${task}`));
  assert.ok(
    onTask.some((j) => j.item_id === "R4"),
    "the fifth requirement's verdicts are kept",
  );
  for (const agent of ["GPT-Pilot", "MetaGPT", "OpenHands"]) {
    const human = JSON.parse(readFileSync(join(raw, "judgment", agent, "human_as_a_judge", `${task}.json`), "utf8"));
    for (const r of human.requirements as { requirement_id: number; satisfied: boolean | null }[]) {
      const j = onTask.find(
        (x) =>
          x.trajectory_id === `${agent}/${task}` &&
          x.item_id === `R${r.requirement_id}` &&
          x.judge === "human consensus",
      );
      assert.equal(
        j?.label ?? null,
        r.satisfied === null ? null : r.satisfied ? "Yes" : "No",
        `${agent} R${r.requirement_id}`,
      );
    }
  }
});

test("the committed DevAI and LLM-Rubric stores are what their import commands make, file for file", async () => {
  const dir = tempDir("gcpc-rubric-");
  const devai = join(dir, "devai");
  const weights = join(repo, "data/real/raw/devai/weights.csv");
  const res = await cli(["import", "devai", join(repo, "data/real/raw/devai"), "--weights", weights, "--out", devai]);
  assert.equal(res.code, 0, res.stderr);
  const raw = join(repo, "data/real/raw/llm-rubric");
  const llm = join(dir, "llm");
  const common = ["--task", "text_id", "--trajectory", "text_id", "--scale", "1:4", "--model", "dialogue_system"];
  const first = await cli([
    "import",
    "table",
    join(raw, "gpt-3.5-turbo-16k_real_evaluations_FIXED.tsv"),
    "--out",
    llm,
    ...common,
    "--item",
    "criterion",
    "--label",
    "sample_llm",
    "--skip-items",
    "Q0",
    "--judge",
    "gpt-3.5-turbo-16k",
    "--reference-judge",
    "human",
    "--outcomes",
    join(raw, "human_judges_real_convs_FIXED_ANON.tsv"),
    "--outcome",
    "Q0",
    "--threshold",
    "3",
    "--benchmark",
    "llm-rubric",
    "--name",
    "LLM-Rubric: rubric answers of humans and gpt-3.5-turbo-16k on 223 real dialogues",
  ]);
  assert.equal(first.code, 0, first.stderr);
  const second = await cli([
    "import",
    "table",
    join(raw, "human_judges_real_convs_FIXED_ANON.tsv"),
    "--into",
    llm,
    ...common,
    "--items",
    "Q1,Q2,Q3,Q4,Q5,Q6,Q7,Q8",
    "--not-applicable",
    "0",
    "--judge",
    "human",
    "--outcome",
    "Q0",
    "--threshold",
    "3",
    "--benchmark",
    "llm-rubric",
  ]);
  assert.equal(second.code, 0, second.stderr);
  for (const [made, committed] of [
    [devai, "data/real/devai"],
    [llm, "data/real/llm-rubric"],
  ])
    for (const t of ["tasks", "items", "trajectories", "judgments"]) {
      const a = (await readStore(made)).store as unknown as Record<string, unknown>;
      const b = (await readStore(join(repo, committed))).store as unknown as Record<string, unknown>;
      assert.deepEqual(a[t], b[t], `${committed} ${t}`);
    }
});

/** A small long table in every format the table importer reads. */
const LONG = [
  ["run", "task", "item", "grade", "passed"],
  ["r1", "t1", "q1", "4", "yes"],
  ["r1", "t1", "q2", "0", "yes"],
  ["r2", "t1", "q1", "2", "no"],
  ["r2", "t1", "q2", "3", "no"],
  ["r3", "t2", "q1", "1", "no"],
];

function writeFormats(dir: string): string[] {
  const csv = LONG.map((r) => r.join(",")).join("\n");
  const tsv = LONG.map((r) => r.join("\t")).join("\n");
  const jsonl = LONG.slice(1)
    .map((r) => JSON.stringify(Object.fromEntries(r.map((v, i) => [LONG[0][i], i === 3 ? Number(v) : v]))))
    .join("\n");
  const files = { "t.csv": csv, "t.tsv.gz": gzipSync(tsv), "t.jsonl": jsonl, "t.csv.gz": gzipSync(csv) };
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return Object.keys(files).map((f) => join(dir, f));
}

const TABLE_ARGS = [
  "--task",
  "task",
  "--trajectory",
  "run",
  "--item",
  "item",
  "--label",
  "grade",
  "--scale",
  "1:4",
  "--not-applicable",
  "0",
  "--outcome",
  "passed",
  "--pass",
  "yes",
  "--judge",
  "j",
];

test("import table: CSV, TSV.gz, JSONL and CSV.gz give the same store; grades mapped linearly, 0 not applicable", async () => {
  const dir = tempDir("gcpc-table-");
  const stores: Store[] = [];
  for (const [i, file] of writeFormats(dir).entries()) {
    const out = join(dir, `s${i}`);
    const res = await cli(["import", "table", file, "--out", out, "--format", "jsonl", ...TABLE_ARGS]);
    assert.equal(res.code, 0, `${file}: ${res.stderr}`);
    stores.push((await readStore(out)).store as unknown as Store);
  }
  for (const s of stores.slice(1)) assert.deepEqual((s as Store).trajectories, stores[0].trajectories);
  const p = prepareStore(stores[0]);
  // r1: q1 = 4 → 1, q2 not applicable → 1; r2: (1/3 + 2/3) / 2 = 0.5; r3: 1 → 0.
  assert.deepEqual(
    ["r1", "r2", "r3"].map((id) => p.metrics.get(id)!.gcpc),
    [1, 0.5, 0],
  );
  assert.deepEqual(
    p.trajectories.map((t) => t.outcome),
    ["PASS", "FAIL", "FAIL"],
  );
  // Parquet: the same table written by DuckDB-free means is not at hand here; the store's own Parquet
  // judgments (graded, with a NotApplicable) read back to the same scores through the SQL path.
  const pq = join(dir, "pq");
  await writeStore(pq, (await storeRows(join(dir, "s0"))).store, "parquet");
  const back = prepareStore((await readStore(pq)).store);
  assert.deepEqual(
    ["r1", "r2", "r3"].map((id) => back.metrics.get(id)!.gcpc),
    [1, 0.5, 0],
  );
  const wide = join(dir, "wide.csv");
  writeFileSync(wide, "run,task,q1,q2,passed\nr1,t1,4,0,yes\nr2,t1,2,3,no\nr3,t2,1,,no\n");
  const out = join(dir, "w");
  const args = TABLE_ARGS.filter((_, i) => !["--item", "item", "--label", "grade"].includes(TABLE_ARGS[i]));
  const res = await cli(["import", "table", wide, "--out", out, "--format", "jsonl", ...args, "--items", "q1,q2"]);
  assert.equal(res.code, 0, res.stderr);
  const w = prepareStore((await readStore(out)).store);
  assert.deepEqual(
    ["r1", "r2", "r3"].map((id) => w.metrics.get(id)!.gcpc),
    [1, 0.5, 0],
  );
});

test("import table: a bad cell names file, row and column, exits non-zero and writes nothing", async () => {
  const dir = tempDir("gcpc-table-bad-");
  const file = join(dir, "bad.csv");
  writeFileSync(file, "run,task,item,grade,passed\nr1,t1,q1,4,yes\nr1,t1,q2,7,yes\n");
  const out = join(dir, "out");
  const res = await cli(["import", "table", file, "--out", out, ...TABLE_ARGS]);
  assert.notEqual(res.code, 0);
  assert.match(res.stderr, /bad\.csv, row 2, field "grade": 7 is outside the scale 1:4/);
  assert.ok(!existsSync(out));
  const missing = await cli(["import", "table", file, "--out", out, ...TABLE_ARGS, "--model", "nope"]);
  assert.match(missing.stderr, /column "nope" is in neither this file nor --outcomes/);
  assert.ok(!existsSync(out));
});

test("the contract refuses a grade outside [0, 1], a grade that contradicts its label, and prerequisite cycles", async () => {
  const dir = tempDir("gcpc-v2-bad-");
  const base: Store = {
    manifest: { name: "v2", schema_version: 2, synthetic: true },
    tasks: [{ task_id: "t", benchmark: "b" }],
    items: [
      { task_id: "t", item_id: "a", text: "a", route: "judge", prerequisites: ["b"] },
      { task_id: "t", item_id: "b", text: "b", route: "judge", prerequisites: ["a"], weight: 2 },
    ],
    trajectories: [{ trajectory_id: "x", task_id: "t", harness: "h", model: "m", condition: "none" }],
    judgments: [
      { trajectory_id: "x", item_id: "a", grade: 1.5 },
      { trajectory_id: "x", item_id: "b", label: "Yes", grade: 0.5 },
    ],
  };
  for (const format of ["jsonl", "parquet"] as const) {
    const store = join(dir, format);
    await writeStore(store, base, format);
    await assert.rejects(readStore(store), (e: Error) => {
      const text = String((e as { problems?: unknown }).problems ? JSON.stringify(e) : e.message) + e.message;
      assert.match(text, /grade/);
      assert.match(text, /must be in \[0, 1\]/);
      assert.match(text, /contradicts label Yes/);
      assert.match(text, /prerequisites form a cycle/);
      return true;
    });
  }
});

test("a store naming schema_version 1 (or none) that uses version 2's fields is refused, naming each row", async () => {
  const dir = tempDir("gcpc-v1-v2-");
  const store: Store = {
    manifest: { name: "v1", synthetic: true },
    tasks: [{ task_id: "t", benchmark: "b" }],
    items: [{ task_id: "t", item_id: "a", text: "a", route: "judge", weight: 2 }],
    trajectories: [{ trajectory_id: "x", task_id: "t", harness: "h", model: "m", condition: "none" }],
    judgments: [{ trajectory_id: "x", item_id: "a", grade: 0.5 }],
  };
  await writeStore(join(dir, "s"), store, "jsonl");
  await assert.rejects(readStore(join(dir, "s")), (e: Error) => {
    assert.match(
      e.message + JSON.stringify(e),
      /items\.jsonl, line 1, field \\?"weight\\?": weight needs \\?"schema_version\\?": 2/,
    );
    assert.match(
      e.message + JSON.stringify(e),
      /judgments\.jsonl, field \\?"grade\\?": grades or NotApplicable labels need/,
    );
    return true;
  });
});

test("--weights: one reader for both importers; DevAI's needs task_id; a bad weight names its row, nothing written", async () => {
  const dir = tempDir("gcpc-weights-");
  const noTask = join(dir, "w.csv");
  writeFileSync(noTask, "item_id,weight\nR0,2\n");
  const devai = join(repo, "data/real/raw/devai");
  const a = await cli(["import", "devai", devai, "--weights", noTask, "--out", join(dir, "a")]);
  assert.notEqual(a.code, 0);
  assert.match(a.stderr, /w\.csv, field "task_id": column "task_id" is missing/);
  const zero = join(dir, "z.csv");
  writeFileSync(zero, "task_id,item_id,weight\n01_Image_Classification_ResNet18_Fashion_MNIST_DL,R0,0\n");
  const b = await cli(["import", "devai", devai, "--weights", zero, "--out", join(dir, "b")]);
  assert.match(b.stderr, /z\.csv, row 1, field "weight": must be a number > 0 \(got "0"\)/);
  const unknown = join(dir, "u.csv");
  writeFileSync(unknown, "task_id,item_id,weight\nnope,R0,2\n");
  const c = await cli(["import", "devai", devai, "--weights", unknown, "--out", join(dir, "c")]);
  assert.match(c.stderr, /u\.csv, row 1, field "item_id": no item "R0" of task "nope"/);
  for (const out of ["a", "b", "c"]) assert.ok(!existsSync(join(dir, out)));
});

test("DevAI: two judgment files of one task that number their requirements differently are refused, even at equal length (issue 55.5)", async () => {
  // A copy of the raw benchmark with one human file's last requirement renumbered (R4 → R9): as many requirements
  // as the other files of the task, but R9's verdict would have no requirement of the others to sit on.
  const dir = tempDir("gcpc-devai-ids-");
  const copy = join(dir, "devai");
  cpSync(join(repo, "data/real/raw/devai"), copy, { recursive: true });
  const task = "01_Image_Classification_ResNet18_Fashion_MNIST_DL";
  const file = join(copy, "benchmark/judgment/OpenHands/human_as_a_judge", `${task}.json`);
  const judged = JSON.parse(readFileSync(file, "utf8"));
  assert.deepEqual(
    judged.requirements.map((r: { requirement_id: number }) => r.requirement_id),
    [0, 1, 2, 3, 4],
  );
  judged.requirements[4].requirement_id = 9;
  writeFileSync(file, JSON.stringify(judged));
  const res = await cli(["import", "devai", copy, "--out", join(dir, "out")]);
  assert.equal(res.code, 2, res.stderr);
  assert.match(res.stderr, /human_as_a_judge\/01_Image_Classification_ResNet18_Fashion_MNIST_DL\.json.*requirements/);
  assert.match(res.stderr, /R0,R1,R2,R3,R9/);
  assert.ok(!existsSync(join(dir, "out")));
});
