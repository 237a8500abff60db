import { readStore, type ReadStoreOptions, type ReadStoreResult } from "./read-store.js";
import { isClickhouseLocation } from "./clickhouse/location.js";
import { readClickhouseStore } from "./clickhouse/read-clickhouse-store.js";

/**
 * A store by its location: a folder (store/read-store.ts) or a ClickHouse database
 * (`clickhouse://HOST:PORT/DATABASE`, store/clickhouse/read-clickhouse-store.ts). Both give the same
 * StoreFrame for the same store, so every analysis and output is the same.
 */
export function openStore(location: string, options: ReadStoreOptions = {}): Promise<ReadStoreResult> {
  if (isClickhouseLocation(location)) {
    // The report's early start reads tables as a folder's read hands them over; a ClickHouse read has no such stages.
    if (options.onTableRead) throw new Error("openStore: onTableRead applies to folder stores");
    return readClickhouseStore(location, options);
  }
  return readStore(location, options);
}
