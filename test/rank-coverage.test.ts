// bench/rank-coverage.ts run small with fixed seeds: the leaderboard's rank intervals cover the known true ranks
// at about their level (the full table, 500 replicates, is in docs/compare.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { coverage, SCENARIOS, trueRanks } from "../bench/rank-coverage.js";

test("spread scenario, 40 replicates: the joint sets hold every arm's true rank at once in ≥ 90%, wider than the marginal", () => {
  const theta = SCENARIOS.spread;
  const c = coverage(seedrandom("rank-coverage:test"), theta, trueRanks(theta)["best of tie"], 40, 200);
  // Nominal 95% simultaneous (the full run: 100%); 40 replicates put one standard error near 3.4 points.
  assert.ok(c.all.joint >= 36, `all arms at once: ${c.all.joint} of 40`);
  // Each arm's marginal interval holds its rank at about 95%: at least 34 of 40 for every arm.
  assert.ok(Math.min(...c.hit.marginal) >= 34, `marginal per arm: ${c.hit.marginal}`);
  // A simultaneous set is never narrower than the marginal interval of the same draws.
  assert.ok(c.width.joint >= c.width.marginal, `${c.width.joint} vs ${c.width.marginal}`);
  // And not every set is the whole board: the rank sets say something.
  assert.ok(c.width.joint < 40 * theta.length * theta.length, "sets narrower than the whole board");
});
