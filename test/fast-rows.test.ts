import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import type { z } from "zod";
import { ItemRow, TABLE_SCHEMAS, type TableName, TaskRow, TrajectoryRow } from "../analysis/schema/tables.js";
import { fastRowOf } from "../store/fast-rows.js";
import { generateDemoStore } from "../store/generate/demo-store.js";

type Store = Record<"trajectories" | "items" | "tasks", Record<string, unknown>[]>;

/** Values a field may hold in a mutated row: right and wrong types, edge numbers, holes. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "none",
  "curated",
  "PASS",
  "FAIL",
  "pass",
  0,
  -1,
  1.5,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  0.5,
  -3,
  "assertion",
  "generated",
  "judge",
  "acquisition",
  [],
  ["a", "b"],
  ["a", 1],
  // biome-ignore lint/suspicious/noSparseArray: a hole, which zod refuses
  [, "a"],
  {},
];

/** Item rows with the schema_version 2 fields too (the demo's items carry none of them). */
function itemRows(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return items.flatMap((item, k) => [
    item,
    { ...item, weight: 0.5 + k, determines_outcome: k % 2 === 0, group: "g", prerequisites: ["c01"] },
    { ...item, points: k % 2 === 0 ? -3 : 7, category: null, quote: null, assertion_ref: "t::x" },
  ]);
}

for (const [table, schema, rowsOf] of [
  ["trajectories", TrajectoryRow, (s) => s.trajectories],
  ["items", ItemRow, (s) => itemRows(s.items)],
  ["tasks", TaskRow, (s) => s.tasks],
] as [TableName, z.ZodObject, (s: Store) => unknown[]][])
  test(`fastRowOf's check returns zod's object for every ${table} row it accepts, and accepts the plain valid ones`, () => {
    const rng = seedrandom(`fast rows ${table}`);
    const rows = rowsOf(generateDemoStore({ seed: 2, scale: 0.1 }) as unknown as Store) as Record<string, unknown>[];
    const keys = Object.keys(schema.shape);
    let accepted = 0;
    let refusedValid = 0;
    let tried = 0;
    for (const base of rows) {
      for (let variant = 0; variant < 12; variant++) {
        const v: Record<string, unknown> = { ...base };
        // Variant 0 is the row as generated; the others change one to three fields, drop or add keys,
        // or reorder them.
        for (let m = 0; variant > 0 && m < 1 + Math.floor(rng() * 3); m++) {
          const r = rng();
          const key = keys[Math.floor(rng() * keys.length)];
          if (r < 0.6) v[key] = ODD_VALUES[Math.floor(rng() * ODD_VALUES.length)];
          else if (r < 0.75) delete v[key];
          else if (r < 0.85) v.unknown_column = "x";
          else {
            const entries = Object.entries(v).sort(() => rng() - 0.5);
            for (const k of Object.keys(v)) delete v[k];
            Object.assign(v, Object.fromEntries(entries));
          }
        }
        tried++;
        const zod = schema.safeParse(v);
        const fast = fastRowOf(TABLE_SCHEMAS[table])!(v) as Record<string, unknown> | undefined;
        if (fast !== undefined) {
          accepted++;
          assert.ok(zod.success, `fast accepted what zod refuses: ${JSON.stringify(v)}`);
          assert.deepEqual(Object.keys(fast), Object.keys(zod.data), "the schema's key order");
          assert.deepEqual(fast, zod.data);
        } else if (zod.success) refusedValid++;
      }
    }
    // Every generated row is plainly valid; a mutated row zod accepts, fast may leave to zod.
    assert.ok(accepted >= rows.length, `${accepted} accepted of ${tried}`);
    assert.ok(accepted < tried, "some mutated rows are refused");
    assert.equal(refusedValid, 0, "no valid row is left to zod (a row with an undefined field included)");
  });

test("fastRowOf checks only the contract's own schemas of trajectories, items and tasks", () => {
  assert.equal(fastRowOf(TrajectoryRow), fastRowOf(TABLE_SCHEMAS.trajectories));
  assert.ok(fastRowOf(ItemRow) && fastRowOf(TaskRow));
  assert.equal(fastRowOf(TrajectoryRow.extend({})), undefined, "another schema goes to zod");
  assert.equal(fastRowOf(TABLE_SCHEMAS.judgments), undefined);
});
