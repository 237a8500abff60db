import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readStore } from "../store/read-store.js";
import { writeStore } from "../store/write-store.js";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { StoreValidationError, formatProblem } from "../store/problems.js";
import { TABLE_NAMES, type TableName } from "../analysis/schema/tables.js";

const fixtures = new URL("./fixtures/stores/", import.meta.url).pathname;

test("a store's Parquet copy reads to the same rows as its JSONL copy (typed columns, dictionaries, trajectory positions)", async () => {
  // Scale 2: past the reader's 10,000-row threshold in trajectories and method scores, so low-cardinality
  // text (task, harness, model, method…) comes back through dictionaries and every method score's
  // trajectory as a position; the JSONL copy goes through JSON.parse and nothing of the Parquet reader.
  const store = generateDemoStore({ seed: 5, scale: 2 });
  const root = mkdtempSync(join(tmpdir(), "gcpc-rows-"));
  try {
    await writeStore(join(root, "pq"), store, "parquet");
    await writeStore(join(root, "jsonl"), store, "jsonl");
    const [pq, jsonl] = [await readStore(join(root, "pq")), await readStore(join(root, "jsonl"))];
    assert.ok(pq.store.trajectories.length >= 10_000, `${pq.store.trajectories.length} trajectories`);
    // A list column (tags, read as JSON per cell) and absent optional cells (outcome) are covered.
    assert.ok(pq.store.trajectories.some((t) => Array.isArray(t.tags)));
    assert.ok(pq.store.trajectories.some((t) => !("outcome" in t)));
    for (const table of TABLE_NAMES.filter((t) => t !== "judgments") as TableName[]) {
      assert.deepEqual(pq.store[table], jsonl.store[table], table);
    }
    assert.deepEqual(pq.store.labels, jsonl.store.labels);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("Parquet: a method score naming no trajectory, and a null optional cell, are read as such", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "gcpc-rows-")), "s");
  cpSync(`${fixtures}valid`, dir, { recursive: true });
  rmSync(join(dir, "method_scores.jsonl"));
  rmSync(join(dir, "trajectories.jsonl"));
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  // The fixture's trajectories as Parquet, one with a null trial (an absent optional field).
  await conn.run(
    `COPY (SELECT * REPLACE (CASE WHEN trajectory_id = 'r2' THEN NULL ELSE trial END AS trial)
           FROM read_json_auto('${fixtures}valid/trajectories.jsonl'))
     TO '${join(dir, "trajectories.parquet")}' (FORMAT parquet)`,
  );
  await conn.run(
    `COPY (SELECT * FROM (VALUES ('r1', 'holistic', 0.5), ('r2', 'holistic', 0.25), ('zz', 'holistic', 0.75))
           v(trajectory_id, method, score))
     TO '${join(dir, "method_scores.parquet")}' (FORMAT parquet)`,
  );
  conn.closeSync();
  duck.closeSync();
  await assert.rejects(readStore(dir), (e: unknown) => {
    assert.ok(e instanceof StoreValidationError);
    assert.deepEqual(e.problems.map(formatProblem), [
      'method_scores.parquet, row 3, field "trajectory_id": unknown trajectory "zz" (not in trajectories)',
    ]);
    return true;
  });
  rmSync(join(dir, "method_scores.parquet"));
  const { store } = await readStore(dir);
  const r2 = store.trajectories.find((t) => t.trajectory_id === "r2")!;
  assert.equal("trial" in r2, false);
  assert.equal(store.trajectories.find((t) => t.trajectory_id === "r1")!.trial, 1);
});

test("Parquet: a repeated trajectory id is reported as such (the trajectory positions are then not used)", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "gcpc-rows-")), "s");
  cpSync(`${fixtures}valid`, dir, { recursive: true });
  rmSync(join(dir, "method_scores.jsonl"));
  rmSync(join(dir, "trajectories.jsonl"));
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  // r1 twice; the method scores (Parquet, naming trajectories) and the judgments are read after it.
  await conn.run(
    `COPY (SELECT * FROM (SELECT * FROM read_json_auto('${fixtures}valid/trajectories.jsonl') UNION ALL
           SELECT * FROM read_json_auto('${fixtures}valid/trajectories.jsonl') WHERE trajectory_id = 'r1')
           ORDER BY trajectory_id)
     TO '${join(dir, "trajectories.parquet")}' (FORMAT parquet)`,
  );
  await conn.run(
    `COPY (SELECT * FROM read_json_auto('${fixtures}valid/method_scores.jsonl'))
     TO '${join(dir, "method_scores.parquet")}' (FORMAT parquet)`,
  );
  conn.closeSync();
  duck.closeSync();
  await assert.rejects(readStore(dir), (e: unknown) => {
    assert.ok(e instanceof StoreValidationError, String(e));
    assert.deepEqual(e.problems.map(formatProblem), [
      'trajectories.parquet, row 2, field "trajectory_id": duplicate trajectory_id "r1" (first at row 1)',
    ]);
    return true;
  });
});
