import type { z } from "zod";
import { ItemRow, TaskRow, TrajectoryRow } from "../analysis/schema/tables.js";

/**
 * What the contract's row schema (zod) returns for a row it accepts, without running zod, for the tables read row by
 * row in bulk (trajectories, items, tasks): the row's fields in the schema's order (the row itself when they already
 * are), each checked as the schema checks it. The check for rows of `schema`, none unless it is the contract's own
 * schema of such a table; it gives undefined whenever the row is not plainly valid, and zod then parses it (and words
 * its problems). Measured at scale 100: zod's parse of 2 M trajectory rows, and the copy of each it returns, took about
 * a fifth of the trajectories' read; the first parse of the 68,000 items and 8,900 tasks, while zod compiles its
 * parsers, about 0.3 s of the read's main thread.
 * test/fast-rows.test.ts checks each against zod on valid and invalid rows, key order included.
 */
export function fastRowOf(schema: unknown): ((values: Record<string, unknown>) => unknown) | undefined {
  if (schema === TrajectoryRow) return PLAIN.trajectories;
  if (schema === ItemRow) return PLAIN.items;
  if (schema === TaskRow) return PLAIN.tasks;
  return undefined;
}

/**
 * A check of plain rows for a strict object schema, each field by `fieldOk`: one pass over the row's own keys (a
 * key the schema does not know ends it), then its required fields, counted by bit.
 */
function plainRows<K extends string>(
  shape: Record<K, z.ZodType>,
  fieldOk: Record<K, (v: unknown) => boolean>,
): (values: Record<string, unknown>) => Record<string, unknown> | undefined {
  const keys = Object.keys(shape) as K[];
  if (keys.length > 30) throw new Error("plainRows: a field's bit must fit a small integer");
  // Each field's place in the schema, on an object without a prototype (so "__proto__" or "toString" is unknown).
  const place: Record<string, number> = Object.create(null);
  keys.forEach((key, k) => {
    place[key] = k;
  });
  const checks = keys.map((key) => fieldOk[key]);
  // The fields the schema requires: those whose schema refuses an absent value.
  let required = 0;
  keys.forEach((key, k) => {
    if (!shape[key].safeParse(undefined).success) required |= 1 << k;
  });
  const reordered = (values: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const key of keys) if (key in values) out[key] = values[key];
    return out;
  };
  return (values) => {
    let present = 0;
    let last = -1;
    let inOrder = true;
    for (const key in values) {
      const k = place[key];
      // A field the schema does not know (a strict object refuses it), or one its check refuses.
      if (k === undefined || !checks[k](values[key])) return undefined;
      present |= 1 << k;
      if (k < last) inOrder = false;
      last = k;
    }
    if ((present & required) !== required) return undefined;
    // Fields already in the schema's order (a Parquet file's columns usually are): the row itself, no copy.
    return inOrder ? values : reordered(values);
  };
}

const isId = (v: unknown) => typeof v === "string" && v.length > 0;
const isString = (v: unknown) => typeof v === "string";
const finiteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const nonNegative = (v: unknown) => finiteNumber(v) && v >= 0;
const nullish = (ok: (v: unknown) => boolean) => (v: unknown) => v === null || v === undefined || ok(v);
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === "string" && values.includes(v);

/** An array of strings (a loop: `every` would skip the holes of a sparse array, which zod refuses). */
function strings(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "string") return false;
  return true;
}

const T = TrajectoryRow.shape;
const I = ItemRow.shape;

/** Each field as the contract's schema checks it (zod 4: a number is finite, an int a safe integer). */
const PLAIN = {
  trajectories: plainRows(T, {
    trajectory_id: isId,
    task_id: isId,
    harness: isString,
    model: isString,
    source: nullish(isString),
    condition: oneOf(T.condition.options),
    trial: nullish((v) => Number.isSafeInteger(v)),
    outcome: nullish(oneOf(T.outcome.unwrap().unwrap().options)),
    reward: nullish(finiteNumber),
    log_hash: nullish(isString),
    tags: nullish(strings),
    started_at: nullish(isString),
    completed_at: nullish(isString),
    duration_s: nullish(nonNegative),
    cost_usd: nullish(nonNegative),
    tokens: nullish(nonNegative),
  }),
  items: plainRows(I, {
    task_id: isId,
    item_id: isId,
    text: isString,
    quote: nullish(isString),
    route: oneOf(I.route.options),
    assertion_ref: nullish(isString),
    category: nullish(oneOf(I.category.unwrap().unwrap().options)),
    determines_outcome: nullish((v) => typeof v === "boolean"),
    weight: nullish((v) => finiteNumber(v) && v > 0),
    points: nullish((v) => finiteNumber(v) && v !== 0),
    prerequisites: nullish(strings),
    group: nullish(isString),
  }),
  tasks: plainRows(TaskRow.shape, {
    task_id: isId,
    benchmark: isId,
    domain: nullish(isString),
    instruction: nullish(isString),
    verifier_tests: nullish(strings),
  }),
};
