import { dataset } from "./datasets.js";
import { rowsToArrowIPC } from "./arrow.js";

// Matched pairs with Δ plain GCPC and the task's domain, for the explorer (SQL in DuckDB-wasm).
process.stdout.write(rowsToArrowIPC(await dataset("explorer-pairs")));
