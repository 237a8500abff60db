// gcpc import table's refusals that name their cause and its likely fix (issue 45.4).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

test("--pass VALUE that no outcome cell equals is refused, listing the values seen and the case hint; no store", async () => {
  const dir = tempDir("gcpc-pass-");
  const file = join(dir, "runs.csv");
  writeFileSync(
    file,
    "task,model,item,verdict,result\nt1,a,q1,yes,pass\nt1,a,q2,no,pass\nt2,a,q1,no,fail\nt2,a,q2,no,fail\nt3,a,q1,no,fail\n",
  );
  const out = join(dir, "store");
  const args = ["import", "table", file, "--task", "task", "--item", "item", "--label", "verdict", "--out", out];
  const r = await cli([...args, "--outcome", "result", "--pass", "PASS"]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /--pass "PASS" matches no value of the outcome column "result", so every run would be a FAIL; its values: "fail" \(3 rows\), "pass" \(2 rows\); did you mean --pass pass\?/,
  );
  assert.equal(existsSync(out), false, "no store written");
  const ok = await cli([...args, "--outcome", "result", "--pass", "pass"]);
  assert.equal(ok.code, 0, ok.stderr);
});

test("a header-only table says so, as an input table (not a store); nothing written", async () => {
  const dir = tempDir("gcpc-empty-table-");
  writeFileSync(join(dir, "empty.csv"), "task,model,item,verdict\n");
  const out = join(dir, "store");
  const r = await cli([
    "import",
    "table",
    join(dir, "empty.csv"),
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "verdict",
    "--out",
    out,
  ]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^gcpc: invalid input table .*empty\.csv: 1 problem\(s\)\n {2}.*empty\.csv: the table has a header but no data rows/,
  );
  assert.doesNotMatch(r.stderr, /invalid store/);
  assert.equal(existsSync(out), false);
});

test("forgetting --model: one line names the column the clashing rows differ in and the likely flag", async () => {
  const dir = tempDir("gcpc-clash-");
  // Two models' labels for the same task and item; without --model both rows are one trajectory.
  const rows = ["task,model,item,verdict", ...Array.from({ length: 40 }, (_, i) => `t${i >> 1},m${i % 2},q1,yes`)];
  writeFileSync(join(dir, "runs.csv"), `${rows.join("\n")}\n`);
  const r = await cli([
    "import",
    "table",
    join(dir, "runs.csv"),
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "verdict",
    "--out",
    join(dir, "s"),
  ]);
  assert.equal(r.code, 2);
  const lines = r.stderr.split("\n");
  assert.match(lines[0], /^gcpc: invalid input table .*runs\.csv: 20 problem\(s\)$/);
  assert.equal(
    lines[1],
    "  rows that label the same trajectory and item differ in column(s) model (row 1 and row 2): did you mean --model model, or --trial COL for repeated attempts?",
  );
  const ok = await cli([
    "import",
    "table",
    join(dir, "runs.csv"),
    "--task",
    "task",
    "--item",
    "item",
    "--label",
    "verdict",
    "--model",
    "model",
    "--out",
    join(dir, "s"),
  ]);
  assert.equal(ok.code, 0, ok.stderr);
});

test("--determines-outcome ITEM,…|all marks the items the outcome is computed from: GCPC is then not outcome-free", async () => {
  const dir = tempDir("gcpc-determines-");
  writeFileSync(
    join(dir, "runs.csv"),
    "task,model,item,verdict,result\nt1,a,q1,yes,pass\nt1,a,q2,no,pass\nt2,a,q1,no,fail\nt2,a,q2,no,fail\n" +
      "t1,b,q1,yes,fail\nt1,b,q2,yes,fail\nt2,b,q1,yes,pass\nt2,b,q2,no,pass\n",
  );
  const base = ["--task", "task", "--item", "item", "--label", "verdict", "--model", "model"];
  const outcome = ["--outcome", "result", "--pass", "pass"];
  const methods = async (determines: string) => {
    const out = join(dir, `store-${determines}`);
    const r = await cli([
      "import",
      "table",
      join(dir, "runs.csv"),
      ...base,
      ...outcome,
      "--determines-outcome",
      determines,
      "--out",
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse((await cli(["report", out, "--format", "json", "--resamples", "50"])).stdout);
    return report.rq1.auc.map((a: { method: string; outcome_free: boolean }) => [a.method, a.outcome_free]);
  };
  // One item decides: GCPC counts the other (outcome-free) and the all-items score is flagged.
  assert.deepEqual(await methods("q1"), [
    ["gcpc", true],
    ["gcpc (all items)", false],
  ]);
  // Every item decides: GCPC itself is not outcome-free.
  assert.deepEqual(await methods("all"), [["gcpc", false]]);
  const r = await cli([
    "import",
    "table",
    join(dir, "runs.csv"),
    ...base,
    ...outcome,
    "--determines-outcome",
    "zz",
    "--out",
    join(dir, "x"),
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--determines-outcome names item\(s\) no row has: zz; nothing was written/);
  assert.equal(existsSync(join(dir, "x")), false);
});
