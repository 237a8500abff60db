// Copies DuckDB-wasm's engine out of node_modules so the site serves it itself (no CDN).
import { createRequire } from "node:module";
import { createReadStream } from "node:fs";
createReadStream(createRequire(import.meta.url).resolve("@duckdb/duckdb-wasm/dist/duckdb-eh.wasm")).pipe(
  process.stdout,
);
