import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { loadReport } from "./load-store.js";

// Per-trajectory metrics as Parquet (written by DuckDB in node, where Parquet is built in).
const { report } = await loadReport();
const dir = mkdtempSync(join(tmpdir(), "gcpc-pq-"));
writeFileSync(join(dir, "rows.json"), JSON.stringify(report.per_trajectory));
const duck = await DuckDBInstance.create(":memory:", { threads: "1" });
const conn = await duck.connect();
await conn.run(`COPY (SELECT * FROM read_json('${join(dir, "rows.json")}', columns = {trajectory_id: 'VARCHAR', task_id: 'VARCHAR', condition: 'VARCHAR', outcome: 'VARCHAR', gcpc: 'DOUBLE', gcpc_outcome: 'DOUBLE', perfect: 'INTEGER', coverage: 'DOUBLE', zero_evidence: 'BOOLEAN'})) TO '${join(dir, "out.parquet")}' (FORMAT parquet)`);
process.stdout.write(readFileSync(join(dir, "out.parquet")));
rmSync(dir, { recursive: true });
