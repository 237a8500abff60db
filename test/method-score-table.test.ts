import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readStore } from "../store/read-store.js";
import { StoreValidationError, formatProblem } from "../store/problems.js";
import { methodScoreRows } from "../analysis/schema/method-score-columns.js";
import { validStoreWithParquet, VALID_STORE } from "./parquet-fixture.js";

const jsonRows = `SELECT * FROM read_json_auto('${VALID_STORE}method_scores.jsonl')`;

test("a clean method_scores.parquet is read as columns, the same scores as its JSONL rows", async () => {
  const dir = await validStoreWithParquet({ method_scores: jsonRows });
  try {
    const { store } = await readStore(dir);
    const jsonl = await readStore(VALID_STORE);
    assert.ok(store.method_score_columns && !store.method_scores, "columns, no rows");
    assert.deepEqual(methodScoreRows(store), jsonl.store.method_scores);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

/** Problem lines of reading `dir`, none when it reads. */
async function problemsOf(dir: string): Promise<string[]> {
  try {
    await readStore(dir);
    return [];
  } catch (e) {
    assert.ok(e instanceof StoreValidationError, String(e));
    return e.problems.map(formatProblem);
  }
}

// Each row set holds one kind of problem the screen must see (then the rows are read and checked as any
// table's), or a column type it is not written for. The reference is the same rows as JSONL, read by the
// row path: the Parquet read must report the same problems, "row k" where JSONL says "line k".
const CASES: Record<string, string> = {
  "repeated trajectory / method": `VALUES ('r1', 'holistic', 0.5), ('r2', 'holistic', 0.5), ('r1', 'holistic', 0.25)`,
  "empty method": `VALUES ('r1', '', 0.5), ('r2', 'holistic', 0.5)`,
  "empty trajectory id": `VALUES ('', 'holistic', 0.5)`,
  "score above 1": `VALUES ('r1', 'holistic', 1.5), ('r2', 'holistic', 0.5)`,
  "negative score": `VALUES ('r1', 'holistic', -0.25)`,
  "unknown trajectory": `VALUES ('r1', 'holistic', 0.5), ('nobody', 'holistic', 0.5)`,
  "missing score": `VALUES ('r1', 'holistic', 0.5), ('r2', 'holistic', NULL)`,
};

for (const [name, values] of Object.entries(CASES)) {
  test(`method_scores.parquet with ${name}: the problems the JSONL rows give, at the same rows`, async () => {
    const query = `SELECT * FROM (${values}) v(trajectory_id, method, score)`;
    const dir = await validStoreWithParquet({ method_scores: query });
    const asJsonl = await validStoreWithParquet({});
    try {
      // The same rows as JSONL (a missing score is an absent field, as in the Parquet row path).
      const rows = await readRows(dir);
      writeFileSync(join(asJsonl, "method_scores.jsonl"), `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
      const expected = (await problemsOf(asJsonl)).map((p) =>
        p
          .replace(/^method_scores\.jsonl, line /, "method_scores.parquet, row ")
          .replace("(first at line ", "(first at row "),
      );
      assert.ok(expected.length > 0, "the case has a problem to report");
      assert.deepEqual(await problemsOf(dir), expected);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
      rmSync(dirname(asJsonl), { recursive: true, force: true });
    }
  });
}

test("method_scores.parquet with a column type the screen is not written for (FLOAT score) is read as rows", async () => {
  const dir = await validStoreWithParquet({
    method_scores: `SELECT trajectory_id, method, score::FLOAT AS score FROM (${jsonRows})`,
  });
  try {
    const { store } = await readStore(dir);
    assert.ok(store.method_scores && !store.method_score_columns);
    assert.equal(store.method_scores.length, (await readStore(VALID_STORE)).store.method_scores?.length);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

/** The method score rows of a store folder's Parquet file, as the row path reads them (nulls absent). */
async function readRows(dir: string): Promise<Record<string, unknown>[]> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    const reader = await conn.runAndReadAll(`SELECT * FROM '${join(dir, "method_scores.parquet")}'`);
    return (reader.getRowObjectsJS() as Record<string, unknown>[]).map((r) =>
      Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)),
    );
  } finally {
    conn.closeSync();
    duck.closeSync();
  }
}
