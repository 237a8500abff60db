// What leaves the tool as a file keeps store text inert and every column a value: CSV written with --out has
// no terminal escape codes; the site's downloads spread nested values into columns (no "[object Object]").
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { flatRow } from "../report/site/site-files.js";
import { writeStore } from "../store/write-store.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

test("a CSV written with --out keeps no terminal escape code from store text", async () => {
  const dir = tempDir("gcpc-escape-");
  const rows: SmallTrajectory[] = [];
  for (let t = 0; t < 4; t++)
    for (const condition of ["none", "curated"] as const)
      rows.push({
        task: `t${t}`,
        outcome: t % 2 ? "PASS" : "FAIL",
        labels: ["Yes"],
        condition,
        model: "\u001b[31mred\u001b[0m",
        trial: 1,
      });
  await writeStore(join(dir, "s"), smallStore("escapes \u001b]0;title\u0007 (synthetic)", rows), "jsonl");
  const out = join(dir, "r.csv");
  const r = await cli(["report", join(dir, "s"), "--format", "csv", "--resamples", "50", "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const text = readFileSync(out, "utf8");
  assert.match(text, /model: h \/ \[31mred\[0m/, "the model's text is kept, its control characters dropped");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
});

test("a download row spreads intervals into _low/_high and objects into prefixed columns", () => {
  const row = flatRow({
    group: "FAIL→FAIL",
    median_delta_ci: [0.1, 0.3],
    bootstrap: { resamples: 2000, seed: "s", mc_se: [0.001, 0.002], degenerate: ["median"] },
  });
  assert.deepEqual(row, {
    group: "FAIL→FAIL",
    median_delta_ci_low: 0.1,
    median_delta_ci_high: 0.3,
    bootstrap_resamples: 2000,
    bootstrap_seed: "s",
    bootstrap_mc_se_low: 0.001,
    bootstrap_mc_se_high: 0.002,
    bootstrap_degenerate: '["median"]',
  });
  assert.ok(Object.values(row).every((v) => String(v) !== "[object Object]"));
});
