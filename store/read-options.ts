import type { StoreFrame } from "../analysis/schema/store.js";
import type { TableName } from "../analysis/schema/tables.js";
import type { TableSchemas } from "../analysis/schema/columns.js";

export interface ReadStoreOptions {
  maxProblems?: number;
  /** Progress of the slow steps (the CLI prints it on a terminal). */
  onProgress?: (step: string) => void;
  /** Allow a store without judgments (documented extension for outcome-only imports). */
  allowMissingJudgments?: boolean;
  /** Row schemas to validate against: the contract's by default (a test extends one to show the single source). */
  schemas?: TableSchemas;
  /** Carry the judge's evidence per item in the label vectors (the site's explorer shows it). */
  evidence?: boolean;
  /** Judgments per bucket when building label vectors (store/label-vector-query.ts); tests set small ones. */
  labelBucketJudgments?: number;
  /**
   * false: check an all-Parquet store's judgments row by row even where the one pass applies
   * (store/judgment-pass.ts); tests compare the two.
   */
  judgmentPass?: boolean;
  /**
   * Called after each table is read and its rows validated, before the judgments' checks: the caller may
   * look at what is read so far (the CLI starts intervals that need no judgment meanwhile). The store may
   * still fail validation afterwards.
   */
  onTableRead?: (read: TableRead) => void;
}

/** A table read, as `onTableRead` reports it. */
export interface TableRead {
  table: TableName;
  /** The tables the folder holds. */
  found: ReadonlySet<TableName>;
  /** The tables read so far with a problem or rows that could not be read. */
  incomplete: ReadonlySet<TableName>;
  /** The tables read so far as the returned store will hold them: the same arrays and columns. */
  tables: () => Partial<StoreFrame>;
}
