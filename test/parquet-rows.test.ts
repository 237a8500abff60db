import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { writeStore } from "../store/write-store.js";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { TABLE_NAMES, type TableName } from "../analysis/schema/tables.js";
import { assertProblems, VALID_STORE, validStoreWithParquet } from "./parquet-fixture.js";
import { methodScoreRows } from "../analysis/schema/method-score-columns.js";
import { tempDir } from "./helpers/temp-dir.js";

test("a store's Parquet copy reads to the same rows as its JSONL copy (typed columns, dictionaries, trajectory positions)", async () => {
  // Scale 2: past the reader's 10,000-row threshold in trajectories and method scores, so low-cardinality
  // text (task, harness, model, method…) comes back through dictionaries and every method score's
  // trajectory as a position; the JSONL copy goes through JSON.parse and nothing of the Parquet reader.
  const store = generateDemoStore({ seed: 5, scale: 2 });
  const root = tempDir("gcpc-rows-");
  try {
    await writeStore(join(root, "pq"), store, "parquet");
    await writeStore(join(root, "jsonl"), store, "jsonl");
    const [pq, jsonl] = [await readStore(join(root, "pq")), await readStore(join(root, "jsonl"))];
    assert.ok(pq.store.trajectories.length >= 10_000, `${pq.store.trajectories.length} trajectories`);
    // A list column (tags, read as JSON per cell) and absent optional cells (outcome) are covered.
    assert.ok(pq.store.trajectories.some((t) => Array.isArray(t.tags)));
    assert.ok(pq.store.trajectories.some((t) => !("outcome" in t)));
    for (const table of TABLE_NAMES.filter((t) => t !== "judgments" && t !== "method_scores") as Exclude<
      TableName,
      "judgments"
    >[]) {
      assert.deepEqual(pq.store[table], jsonl.store[table], table);
    }
    // The Parquet method scores come back as columns (nothing in them to report), the JSONL ones as rows.
    assert.ok(pq.store.method_score_columns && !pq.store.method_scores);
    assert.ok(jsonl.store.method_scores && !jsonl.store.method_score_columns);
    assert.deepEqual(methodScoreRows(pq.store), jsonl.store.method_scores);
    assert.deepEqual(pq.store.labels, jsonl.store.labels);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("Parquet: a method score naming no trajectory, and a null optional cell, are read as such", async () => {
  const dir = await validStoreWithParquet({
    // The fixture's trajectories as Parquet, one with a null trial (an absent optional field).
    trajectories: `SELECT * REPLACE (CASE WHEN trajectory_id = 'r2' THEN NULL ELSE trial END AS trial)
                   FROM read_json_auto('${VALID_STORE}trajectories.jsonl')`,
    method_scores: `SELECT * FROM (VALUES ('r1', 'holistic', 0.5), ('r2', 'holistic', 0.25), ('zz', 'holistic', 0.75))
                    v(trajectory_id, method, score)`,
  });
  await assertProblems(dir, [
    'method_scores.parquet, row 3, field "trajectory_id": unknown trajectory "zz" (not in trajectories)',
  ]);
  rmSync(join(dir, "method_scores.parquet"));
  const { store } = await readStore(dir);
  const r2 = store.trajectories.find((t) => t.trajectory_id === "r2")!;
  assert.equal("trial" in r2, false);
  assert.equal(store.trajectories.find((t) => t.trajectory_id === "r1")!.trial, 1);
});

test("Parquet: a repeated trajectory id is reported as such (the trajectory positions are then not used)", async () => {
  const dir = await validStoreWithParquet({
    // r1 twice; the method scores (Parquet, naming trajectories) and the judgments are read after it.
    trajectories: `SELECT * FROM (SELECT * FROM read_json_auto('${VALID_STORE}trajectories.jsonl') UNION ALL
                   SELECT * FROM read_json_auto('${VALID_STORE}trajectories.jsonl') WHERE trajectory_id = 'r1')
                   ORDER BY trajectory_id`,
    method_scores: `SELECT * FROM read_json_auto('${VALID_STORE}method_scores.jsonl')`,
  });
  await assertProblems(dir, [
    'trajectories.parquet, row 2, field "trajectory_id": duplicate trajectory_id "r1" (first at row 1)',
  ]);
});

test("Parquet: unpooled text read in blocks gives every cell as it is (non-ASCII, empty, null, across blocks)", async () => {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const { parquetTypedRows } = await import("../store/parquet-rows.js");
  const { StringPool } = await import("../store/string-pool.js");
  const root = tempDir("gcpc-blocks-");
  const path = join(root, "t.parquet");
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  // 12,345 rows (past the 10,000-row threshold, seven blocks): ASCII ids, and free text that is
  // sometimes non-ASCII (2-, 3- and 4-byte characters), empty or null, some blocks all ASCII.
  await conn.run(`COPY (
    SELECT 'id-' || i AS trajectory_id,
      CASE WHEN i % 97 = 0 THEN NULL WHEN i % 89 = 0 THEN '' WHEN i BETWEEN 4096 AND 6143 THEN 'plain ' || i
           WHEN i % 5 = 0 THEN 'é' || i || '✓😀' ELSE 'log ' || i END AS text
    FROM range(12345) r(i)) TO '${path}' (FORMAT parquet)`);
  const expected = (await conn.runAndReadAll(`SELECT trajectory_id, text FROM '${path}'`)).getRowObjectsJS();
  const got: { trajectory_id?: unknown; text?: unknown }[] = [];
  for await (const records of parquetTypedRows(duck, path, { strings: new StringPool(), unpooled: ["trajectory_id"] }))
    for (const r of records) got.push(r.values);
  assert.equal(got.length, 12_345);
  for (let i = 0; i < got.length; i++) {
    assert.equal(got[i].trajectory_id, expected[i].trajectory_id, `row ${i}`);
    if (expected[i].text === null) assert.ok(!("text" in got[i]), `row ${i}: a null cell is absent`);
    else assert.equal(got[i].text, expected[i].text, `row ${i}`);
  }
  assert.ok(got.some((r) => typeof r.text === "string" && r.text.includes("😀")));
  conn.closeSync();
});
