// Copies DuckDB-wasm's worker out of node_modules (self-hosted, no CDN).
import { createRequire } from "node:module";
import { createReadStream } from "node:fs";
createReadStream(createRequire(import.meta.url).resolve("@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js")).pipe(
  process.stdout,
);
