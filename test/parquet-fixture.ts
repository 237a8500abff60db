import assert from "node:assert/strict";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readStore } from "../store/read-store.js";
import { StoreValidationError, formatProblem } from "../store/problems.js";
import { tempDir } from "./helpers/temp-dir.js";

/** The small valid store every validation test starts from. */
export const VALID_STORE = new URL("./fixtures/stores/valid/", import.meta.url).pathname;

/**
 * A copy of the valid store in a fresh temporary folder, with each named table replaced by a Parquet
 * file that DuckDB writes from the given query (which may read `${VALID_STORE}<table>.jsonl`).
 */
export async function validStoreWithParquet(tables: Record<string, string>): Promise<string> {
  const dir = join(tempDir("gcpc-pq-"), "s");
  cpSync(VALID_STORE, dir, { recursive: true });
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    for (const [table, query] of Object.entries(tables)) {
      rmSync(join(dir, `${table}.jsonl`));
      await conn.run(`COPY (${query}) TO '${join(dir, `${table}.parquet`)}' (FORMAT parquet)`);
    }
  } finally {
    conn.closeSync();
    duck.closeSync();
  }
  return dir;
}

/** Reading `dir` fails with exactly these problem lines, in this order. */
export async function assertProblems(dir: string, expected: string[]): Promise<void> {
  await assert.rejects(readStore(dir), (e: unknown) => {
    assert.ok(e instanceof StoreValidationError, String(e));
    assert.deepEqual(e.problems.map(formatProblem), expected);
    return true;
  });
}
