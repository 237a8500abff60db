// A difference of equal figures is 0, not rounding residue (issue 55.3): a CI endpoint printed as 2.7e-18 tells a
// machine reader the interval excludes 0, and a Δ of −5.6e-18 that two arms with equal pass rates differ.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { bootstrapIntervals, DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { withoutResidue } from "../analysis/estimates/not-defined.js";
import { cli } from "./helpers/run-cli.js";

const repo = new URL("..", import.meta.url).pathname;

test("residue below 1e-13 reads 0; a real small difference (1/10^6 − 1/(10^6+1)) is kept", () => {
  assert.equal(withoutResidue(0.1 + 0.2 - 0.3), 0);
  assert.equal(withoutResidue(-5.551115123125783e-18), 0);
  const smallest = 1 / 1e6 - 1 / (1e6 + 1);
  assert.equal(withoutResidue(smallest), smallest);
});

test("an interval endpoint that is residue is 0: draws of 0.3 − (0.1 + 0.2) give [0, 0]", () => {
  const r = bootstrapIntervals({
    settings: { ...DEFAULT_SETTINGS, resamples: 50 },
    figure: "residue",
    clusters: 5,
    estimator: "test",
    // 0.3 − (0.1 + 0.2) is −5.55e-17 in doubles.
    statistics: { delta: () => 0.3 - (0.1 + 0.2) },
  });
  assert.deepEqual(r.ci.delta, [0, 0]);
});

test("Terminal-Bench: goose and openhands on claude-4-sonnet have equal pass rates on their 80 common tasks: Δ is 0", async () => {
  const r = await cli([
    "leaderboard",
    join(repo, "data/real/terminal-bench"),
    "--format",
    "json",
    "--resamples",
    "200",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const board = JSON.parse(r.stdout);
  const pair = board.pairwise.find(
    (x: { row: string; column: string }) =>
      x.row === "goose / claude-4-sonnet" && x.column === "openhands / claude-4-sonnet",
  );
  assert.ok(pair, "the pair is tested");
  assert.equal(pair.delta, 0);
  const rate = (arm: string) => board.rows.find((x: { arm: string }) => x.arm === arm).value;
  assert.equal(rate("goose / claude-4-sonnet"), rate("openhands / claude-4-sonnet"));
  for (const x of board.pairwise)
    for (const v of [x.delta, ...(x.ci ?? [])])
      assert.ok(v === null || v === 0 || Math.abs(v) >= 1e-13, `${x.row} − ${x.column}: ${v}`);
});
