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
