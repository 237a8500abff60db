import type { DuckDBConnection } from "@duckdb/node-api";
import type { z } from "zod";
import { columnsOfSchema } from "../analysis/schema/columns.js";
import { judgmentPass, type JudgmentPass, type JudgmentPassFiles } from "./judgment-pass.js";
import { duplicateScreen, loadParquetJudgments } from "./judgment-table.js";
import type { Problem } from "./problems.js";

/**
 * judgments.parquet checked in one pass (store/judgment-pass.ts) or else loaded into DuckDB, with its
 * duplicate screen, while JavaScript reads the other tables. Neither needs a table read by
 * JavaScript, and DuckDB runs them on its own threads, on the core that JavaScript's decoding of the
 * trajectories leaves idle. The problems are held until the read reaches the table, so they are listed as
 * if the tables were read one after another.
 */
export interface JudgmentLoad {
  /** What loadParquetJudgments returned (undefined when a required column is missing). */
  loaded?: { rows: number; complete: boolean };
  problems: Problem[];
  /** DuckDB could not read the file. */
  error?: unknown;
  /** duplicateScreen's count, once the rows are loaded. */
  repeats?: number;
  /** The one-pass check and label vectors, when they held (then no row was loaded). */
  pass?: JudgmentPass;
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
    /** The other files of the one pass, when the store's trajectories and items are Parquet too. */
    onePass?: Omit<JudgmentPassFiles, "judgments" | "primaryJudge" | "required">;
  },
): Promise<JudgmentLoad> {
  const problems: Problem[] = [];
  if (o.onePass && !o.withEvidence) {
    const required = columnsOfSchema(o.schema)
      .filter((c) => c.required)
      .map((c) => c.name);
    const pass = await judgmentPass({ ...o.onePass, judgments: o.path, primaryJudge: o.primaryJudge, required });
    if (pass) return { loaded: { rows: pass.rows, complete: true }, problems, pass };
  }
  try {
    const conn = await connect();
    const loaded = await loadParquetJudgments(conn, { ...o, add: (p) => problems.push(p) });
    const repeats = loaded ? await duplicateScreen(conn, o.primaryJudge) : undefined;
    return { loaded, problems, repeats };
  } catch (error) {
    return { problems, error };
  }
}
