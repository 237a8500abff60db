import { loadReport } from "./load-store.js";
import { rowsToArrowIPC } from "./arrow.js";

// Matched pairs with Δ plain GCPC, for the explorer (SQL in DuckDB-wasm).
const { report, prepared } = await loadReport();
const rows = report.rq3.pairs.map((p) => ({
  pair_id: p.pair_id, task_id: p.task_id, domain: prepared.tasks.get(p.task_id)?.domain ?? "", harness: p.harness, model: p.model, source: p.source ?? "",
  transition: p.transition, without_id: p.without_id, with_id: p.with_id, gcpc_without: p.gcpc_without, gcpc_with: p.gcpc_with, delta: p.delta,
}));
process.stdout.write(rowsToArrowIPC(rows));
