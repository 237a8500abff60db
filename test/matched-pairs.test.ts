import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { matchPairs, type MatchedPair } from "../analysis/rq/matched-pairs.js";
import { cellOrder } from "../analysis/rq/arms/arm-pairs.js";
import type { PreparedStore } from "../analysis/rq/prepared.js";
import type { Trajectory } from "../analysis/schema/tables.js";
import { sortByCodePoints } from "../analysis/order.js";

/**
 * The matching as the contract states it (rule 6, rule 12), written the plain way: a cell per key text
 * JSON.stringify([task, harness, model, source, trial]), the first of each side by trajectory_id, cells
 * listed in the key texts' code-point order.
 */
function referencePairs(trajectories: Trajectory[]) {
  const sides = new Map<string, { none?: Trajectory; curated?: Trajectory }>();
  let duplicate_trials = 0;
  let unmatched_no_trial = 0;
  for (const t of trajectories) {
    if ((t.outcome !== "PASS" && t.outcome !== "FAIL") || (t.condition !== "none" && t.condition !== "curated"))
      continue;
    if (t.trial === null || t.trial === undefined) {
      unmatched_no_trial++;
      continue;
    }
    const key = JSON.stringify([t.task_id, t.harness, t.model, t.source ?? null, t.trial]);
    const cell = sides.get(key) ?? {};
    sides.set(key, cell);
    if (cell[t.condition]) duplicate_trials++;
    else cell[t.condition] = t;
  }
  const pairs: string[] = [];
  let unmatched = 0;
  for (const key of sortByCodePoints([...sides.keys()], (k) => k)) {
    const { none, curated } = sides.get(key)!;
    if (none && curated) pairs.push(`${none.trajectory_id}|${curated.trajectory_id}`);
    else unmatched++;
  }
  return { pairs, unmatched, duplicate_trials, unmatched_no_trial };
}

/** Parts that order differently as text than as values: quotes, backslashes, prefixes, U+FFFF against U+10000. */
const TEXTS = ["a", "ab", "a b", 'a"', "a\\", "a,", "b", "\uffff", "\u{10000}", "é", "A", ""];
const pick = (values: string[]) => fc.shuffledSubarray(values, { minLength: 1, maxLength: 3 });
/**
 * Trajectories drawing each part from a few values chosen per run, so that cells sharing all parts but one
 * (trial 1 against 10, task "a" against "a b") are common and their order is tested.
 */
const trajectoriesArb = fc
  .tuple(pick(TEXTS), pick(["h", "h2", 'h"']), pick(TEXTS), pick(["s", "s]", "\u{1F600}"]))
  .chain(([tasks, harnesses, models, sources]) =>
    fc.array(
      fc.record({
        task_id: fc.constantFrom(...tasks),
        harness: fc.constantFrom(...harnesses),
        model: fc.constantFrom(...models),
        source: fc.option(fc.constantFrom(...sources), { nil: undefined }),
        trial: fc.option(fc.constantFrom(1, 2, 9, 10, 11, 100), { nil: undefined }),
        condition: fc.constantFrom("none", "curated", "self_generated"),
        outcome: fc.constantFrom("PASS", "FAIL", null),
      }),
      { maxLength: 120 },
    ),
  );

test("matched pairs: the numbered cells pair and order as the key texts do (rules 6 and 12)", () => {
  fc.assert(
    fc.property(trajectoriesArb, (rows) => {
      // Ids in code-point order, as the prepared store holds its trajectories.
      const trajectories = rows.map((r, i) => ({ ...r, trajectory_id: `t${String(i).padStart(3, "0")}` }));
      const r = matchPairs({ trajectories, tasks: new Map() } as unknown as PreparedStore);
      const expected = referencePairs(trajectories as Trajectory[]);
      assert.deepEqual(
        {
          pairs: r.pairs.map((p: MatchedPair) => p.pair_id),
          unmatched: r.unmatched,
          duplicate_trials: r.duplicate_trials,
          unmatched_no_trial: r.unmatched_no_trial,
        },
        expected,
      );
      const ids = trajectories.map((t) => t.trajectory_id);
      assert.deepEqual(
        [...r.slots].map((k) => ids[k]),
        r.pairs.flatMap((p) => [p.without_id, p.with_id]),
      );
    }),
    { numRuns: 3000, seed: 20261203 },
  );
});

test("cells numbered by their key texts (too many parts to number exactly) come in the same order", () => {
  fc.assert(
    fc.property(trajectoriesArb, (rows) => {
      const trajectories = rows
        .map((r, i) => ({ ...r, trial: r.trial ?? 1, trajectory_id: `t${i}` }))
        .filter((t) => t.condition !== "self_generated") as Trajectory[];
      const members = trajectories.map((_, k) => k);
      const parts = [
        (k: number) => trajectories[k].task_id,
        (k: number) => trajectories[k].harness,
        (k: number) => trajectories[k].model,
        (k: number) => trajectories[k].source ?? null,
        (k: number) => trajectories[k].trial!,
      ];
      const byParts = cellOrder(parts, members);
      const byText = cellOrder(parts, members, 1);
      assert.deepEqual(byText.member, byParts.member);
      // Cells are numbered differently, but group the same slots.
      const groups = (o: typeof byParts) => [...o.cell].map((c, i) => (i > 0 && o.cell[i - 1] === c ? 1 : 0));
      assert.deepEqual(groups(byText), groups(byParts));
    }),
    { numRuns: 1000, seed: 20261204 },
  );
});
