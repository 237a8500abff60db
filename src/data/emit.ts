// Helpers of the download loaders: one dataset → CSV (formula-safe) or Parquet (DuckDB in node) on stdout.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { csvFormat } from "d3";
import { DuckDBInstance } from "@duckdb/node-api";
import { protectCsvFormulas } from "../components/csv-safe.js";

type Row = Record<string, unknown>;

export function emitCsv(rows: Row[]): void {
  process.stdout.write(csvFormat(protectCsvFormulas(rows)));
}

/** Parquet with column types inferred by DuckDB from the JSON rows (lists stay lists). */
export async function emitParquet(rows: Row[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gcpc-pq-"));
  try {
    writeFileSync(join(dir, "rows.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const duck = await DuckDBInstance.create(":memory:", { threads: "1" });
    const conn = await duck.connect();
    await conn.run(`COPY (SELECT * FROM read_json('${join(dir, "rows.jsonl")}', format = 'newline_delimited', sample_size = -1)) TO '${join(dir, "out.parquet")}' (FORMAT parquet)`);
    process.stdout.write(readFileSync(join(dir, "out.parquet")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
