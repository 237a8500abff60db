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
