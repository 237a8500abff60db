// Helpers of the download loaders: one dataset → CSV (formula-safe) or Parquet (DuckDB in node) on stdout.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { csvFormat } from "d3";
import { writeParquet } from "../../store/write-store.js";
import { protectCsvFormulas } from "../../report/csv-safe.js";

type Row = Record<string, unknown>;

export function emitCsv(rows: Row[]): void {
  process.stdout.write(csvFormat(protectCsvFormulas(rows)));
}

/** Parquet with column types inferred by DuckDB from the JSON rows (lists stay lists). */
export async function emitParquet(rows: Row[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gcpc-pq-"));
  try {
    await writeParquet(join(dir, "out.parquet"), rows);
    process.stdout.write(readFileSync(join(dir, "out.parquet")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
