// Helper: a list of plain rows as an Arrow IPC stream (DuckDB-wasm reads it offline; Parquet would need an extension download).
import { tableFromJSON, tableToIPC } from "apache-arrow";

export function rowsToArrowIPC(rows: Record<string, unknown>[]): Uint8Array {
  return tableToIPC(tableFromJSON(rows), "stream");
}
