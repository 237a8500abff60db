import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { TABLE_SCHEMAS, TrajectoryRow } from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/store.js";
import { tableColumns } from "../analysis/schema/columns.js";
import { readStore } from "../store/read-store.js";
import { writeStore } from "../store/write-store.js";
import { generateDemoStore } from "../store/generate/demo-store.js";
import type { StoreValidationError } from "../store/problems.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
// The one edit a new column needs: the zod row schema. Nothing else is touched below.
const schemas = { ...TABLE_SCHEMAS, trajectories: TrajectoryRow.extend({ gpu_hours: z.number().nullish() }) };

async function storeWithCost(): Promise<Store> {
  // A store held in memory with its judgment rows (a store read from disk keeps them in DuckDB).
  const store = generateDemoStore({ seed: 5, scale: 0.05 });
  store.trajectories = store.trajectories.map((t, i) => ({ ...t, gpu_hours: i / 4 }));
  return store;
}

test("one schema source: columns are derived from zod (kind, required)", () => {
  const cols = tableColumns(schemas).trajectories;
  assert.deepEqual(cols.at(-1), { name: "gpu_hours", kind: "number", required: false });
  assert.deepEqual(
    tableColumns()
      .trajectories.filter((c) => c.required)
      .map((c) => c.name),
    ["trajectory_id", "task_id", "harness", "model", "condition"],
  );
  assert.equal(tableColumns().trajectories.find((c) => c.name === "trial")?.kind, "int");
  assert.equal(tableColumns().tasks.find((c) => c.name === "verifier_tests")?.kind, "list");
});

test("a column added to a zod table is written, read and validated with no other edit", async () => {
  const store = await storeWithCost();
  for (const format of ["parquet", "jsonl"] as const) {
    const out = join(tempDir("gcpc-col-"), "s");
    await writeStore(out, store, format, schemas);
    const back = await readStore(out, { schemas });
    assert.deepEqual(
      back.store.trajectories.map((t) => (t as Record<string, unknown>).gpu_hours),
      store.trajectories.map((_, i) => i / 4),
      format,
    );
    // The contract's own schema still refuses the column: it is not part of schema_version 1.
    await assert.rejects(readStore(out), (e: StoreValidationError) => /unknown field\(s\) "gpu_hours"/.test(e.message));
  }
});

test("CSV cells of the new column are converted by its derived kind and validated with file, line, field", async () => {
  const dir = tempDir("gcpc-col-");
  cpSync(join(repo, "examples/csv-store"), dir, { recursive: true });
  const path = join(dir, "trajectories.csv");
  const lines = readFileSync(path, "utf8").trimEnd().split("\n");
  const withCost = lines.map((l, i) => `${l},${i === 0 ? "gpu_hours" : i === 3 ? "cheap" : "0.5"}`);
  writeFileSync(path, `${withCost.join("\n")}\n`);
  await assert.rejects(readStore(dir, { schemas }), (e: StoreValidationError) => {
    assert.match(e.message, /trajectories\.csv, line 4, field "gpu_hours": .*expected number/);
    return true;
  });
  writeFileSync(path, `${withCost.map((l, i) => (i === 3 ? l.replace(/cheap$/, "0.25") : l)).join("\n")}\n`);
  const { store } = await readStore(dir, { schemas });
  assert.equal((store.trajectories[2] as Record<string, unknown>).gpu_hours, 0.25);
});
