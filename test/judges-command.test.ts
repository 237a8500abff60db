// gcpc judges (issue 55.3): one store's judges in one place. DevAI's figures are those test/rubric.test.ts pins
// from test/fixtures/rubric_reference.py's exact recomputation from the raw files (89.6% agreement, κ 0.778).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;

test("gcpc judges on DevAI: the agent judge against the human consensus, and the corrected means", async () => {
  const r = await cli(["judges", join(repo, "data/real/devai"), "--resamples", "200", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.reference_judge, "human consensus");
  assert.equal(j.primary_judge, "agent-as-a-judge (gray box)");
  const overall = j.agreement[0].overall;
  assert.equal(overall.units, 1098);
  assert.equal(overall.percent.toFixed(3), "0.896");
  assert.equal(overall.kappa.toFixed(3), "0.778");
  assert.equal(j.corrected.rows.length, 3);
  for (const row of j.corrected.rows) assert.equal(row.corrected.advice.use, "reference-only");
  const md = await cli(["judges", join(repo, "data/real/devai"), "--resamples", "200"]);
  assert.match(md.stdout, /^# Judges: DevAI/);
  assert.match(md.stdout, /## Judges against the reference judge, item by item/);
  assert.match(md.stdout, /## Judge-corrected means \(towards human consensus\)/);
  assert.doesNotMatch(md.stdout, /^## RQ|^## Counts|^## Outcomes/m, "no paper sections");
});

test("gcpc judges on a store with no reference judge says so and exits 0", async () => {
  const r = await cli(["judges", join(repo, "data/real/tau2-sft"), "--resamples", "100"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /the reference judge is not named/);
  assert.match(r.stdout, /## Judge-corrected means\n\nNot available: store\.json names no reference\\_judge/);
});

test("sensitivity and specificity intervals are the judge's against the reference, not the other way (issue 55.5)", async () => {
  const { writeFileSync } = await import("node:fs");
  const { tempDir } = await import("./helpers/temp-dir.js");
  const dir = tempDir("gcpc-sens-spec-");
  // The judge says Yes to everything; the reference says Yes to 3 of every 10 items: sensitivity 1, specificity 0
  // (swapped coders would give P(reference Yes | judge Yes) = 0.3 and no specificity at all).
  const rows = ["task,item,judge,label"];
  for (let t = 1; t <= 15; t++)
    for (let i = 1; i <= 10; i++) rows.push(`t${t},q${i},llm,yes`, `t${t},q${i},human,${i <= 3 ? "yes" : "no"}`);
  writeFileSync(join(dir, "labels.csv"), `${rows.join("\n")}\n`);
  const store = join(dir, "store");
  const cols = ["--task", "task", "--item", "item", "--label", "label", "--judge-column", "judge"];
  const imported = await cli([
    "import",
    "table",
    join(dir, "labels.csv"),
    "--out",
    store,
    ...cols,
    "--reference-judge",
    "human",
  ]);
  assert.equal(imported.code, 0, imported.stderr);
  const j = JSON.parse((await cli(["judges", store, "--resamples", "200", "--format", "json"])).stdout);
  const o = j.agreement[0].overall;
  assert.equal(j.agreement[0].judge, "llm");
  assert.equal(o.sensitivity, 1);
  assert.equal(o.specificity, 0);
  assert.deepEqual(o.sensitivity_ci, [1, 1]);
  assert.deepEqual(o.specificity_ci, [0, 0]);
});
