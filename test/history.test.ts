// gcpc history (issue 56.2): the METR store's OpenAI lineage in release order, each step as gcpc compare measures
// it, α split over the steps; order files as CSV or NAME: VALUE lines; an order by a field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";
import { orderFile } from "../cli/history-command.js";

const repo = new URL("..", import.meta.url).pathname;
const metr = join(repo, "data/real/metr");
const raw = join(repo, "data/real/raw/metr-runs");

test("METR's OpenAI lineage: five versions in release order, four steps each equal to gcpc compare's Δ", async () => {
  const r = await cli([
    "history",
    metr,
    "--order",
    join(raw, "openai-lineage.csv"),
    "--resamples",
    "300",
    "--format",
    "json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const h = JSON.parse(r.stdout);
  assert.deepEqual(
    h.versions.map((v: { arm: string }) => v.arm),
    ["GPT-4 0314", "GPT-4 Turbo", "GPT-4o", "o1-preview", "o1"],
  );
  assert.equal(h.steps.length, 4);
  assert.match(h.familywise, /Bonferroni over the 4 steps: each step's interval at 98\.75%/);
  const step = h.steps.find((s: { to: string }) => s.to === "o1-preview");
  const compare = JSON.parse(
    (
      await cli([
        "compare",
        metr,
        "--a",
        "model=GPT-4o",
        "--b",
        "model=o1-preview",
        "--resamples",
        "300",
        "--format",
        "json",
      ])
    ).stdout,
  );
  assert.equal(step.check.estimate, compare.pass_rate_delta.estimate);
  assert.equal(step.check.p, compare.pass_rate_delta.p);
  assert.equal(step.check.verdict, "better");
  assert.ok(h.left_out.includes("Claude 3 Opus") && h.left_out.includes("human"));
  // Each version's value is its pass rate over its own runs, counted here from the store's JSON leaderboard.
  const board = JSON.parse(
    (await cli(["leaderboard", metr, "--by", "model", "--resamples", "50", "--format", "json"])).stdout,
  );
  for (const v of h.versions)
    assert.equal(v.value, board.rows.find((x: { arm: string }) => x.arm === v.arm).value, v.arm);
});

test("order files: CSV with a header, or NAME: VALUE lines under a section (METR's release_dates.yaml)", () => {
  const dir = tempDir("gcpc-order-");
  writeFileSync(join(dir, "o.yaml"), 'date:\n  "GPT-4o": 2024-05-13\n  o1: 2024-12-05\n');
  assert.deepEqual(
    [...orderFile(join(dir, "o.yaml"))],
    [
      ["GPT-4o", "2024-05-13"],
      ["o1", "2024-12-05"],
    ],
  );
  writeFileSync(join(dir, "o.csv"), "model,version\nb,2\na,1\n");
  assert.deepEqual(
    [...orderFile(join(dir, "o.csv"))],
    [
      ["b", "2"],
      ["a", "1"],
    ],
  );
  const all = orderFile(join(raw, "release_dates.yaml"));
  assert.equal(all.get("Claude 3.5 Sonnet (New)"), "2024-10-22");
});

test("an order by a field: each arm by its first run's start; an unknown order is a usage error", async () => {
  const r = await cli(["history", metr, "--order", "started_at", "--resamples", "100", "--format", "json"]);
  assert.equal(r.code, 0, r.stderr);
  const h = JSON.parse(r.stdout);
  const starts = h.versions.map((v: { order: string }) => v.order);
  assert.deepEqual(starts, [...starts].sort());
  const bad = await cli(["history", metr, "--order", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--order nope: no such file, and not a field/);
});
