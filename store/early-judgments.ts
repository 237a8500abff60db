import type { DuckDBConnection } from "@duckdb/node-api";
import type { z } from "zod";
import { duplicateScreen, loadParquetJudgments } from "./judgment-table.js";
import type { Problem } from "./problems.js";

/**
 * judgments.parquet loaded into DuckDB, with its duplicate screen, while JavaScript reads the other tables
 * (issue 10). The load needs no other table, and DuckDB runs it on its own threads, on the core that
 * JavaScript's decoding of the trajectories leaves idle. The problems are held until the read reaches the
 * table, so they are listed as if the tables were read one after another.
 */
export interface JudgmentLoad {
  /** What loadParquetJudgments returned (undefined when a required column is missing). */
  loaded?: { rows: number; complete: boolean };
  problems: Problem[];
  /** DuckDB could not read the file. */
  error?: unknown;
  /** duplicateScreen's count, once the rows are loaded. */
  repeats?: number;
}

type IssueFormat = Parameters<typeof loadParquetJudgments>[1]["format"];

/** Starts the load; the promise never rejects (a failure is its `error`). */
export async function loadJudgmentsAhead(
  connect: () => Promise<DuckDBConnection>,
  o: {
    path: string;
    file: string;
    schema: z.ZodObject;
    format: IssueFormat;
    primaryJudge: string;
    withEvidence: boolean;
  },
): Promise<JudgmentLoad> {
  const problems: Problem[] = [];
  try {
    const conn = await connect();
    const loaded = await loadParquetJudgments(conn, { ...o, add: (p) => problems.push(p) });
    const repeats = loaded ? await duplicateScreen(conn, o.primaryJudge) : undefined;
    return { loaded, problems, repeats };
  } catch (error) {
    return { problems, error };
  }
}
