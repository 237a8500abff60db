import { statSync } from "node:fs";
import { join } from "node:path";
import type { TableName, Trajectory } from "../analysis/schema/tables.js";
import type { Problem } from "./problems.js";
import { judgmentProblems, loadReferenceTables } from "./judgment-table.js";
import { startLabelVectors, type LabelVectorsUnderWay } from "./label-vector-query.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import { loadJudgmentsAhead } from "./early-judgments.js";
import { DUCKDB_TEMP, type ReadContext, judgmentsConnection } from "./read-context.js";
import type { ReadStoreOptions } from "./read-options.js";
import { issueField, issueMessage } from "./zod-issues.js";

/**
 * Readies the load of judgments.parquet in DuckDB, when it is the judgments' one file and not empty (the
 * other cases are reported or read when the read reaches the table). It starts once the trajectories'
 * rows stream (parquetTypedRows' onStreaming), so that their first queries do not wait behind it for
 * DuckDB's threads (the trajectories' first rows came 1.5 s into the read, 0.4 s alone), or
 * when the read reaches any other table first. When the trajectories and items are Parquet files too, the
 * one pass (store/judgment-pass.ts) is tried first; the rows are loaded only when it does not hold.
 */
export function loadJudgmentsFirst(ctx: ReadContext, found: ReadonlyMap<TableName, string[]>, onePass: boolean): void {
  const names = found.get("judgments");
  if (names?.length !== 1 || !names[0].endsWith(".parquet")) return;
  const path = join(ctx.dir, names[0]);
  if (statSync(path).size === 0) return;
  const parquet = (table: TableName) => {
    const files = found.get(table);
    return files?.length === 1 && files[0].endsWith(".parquet") ? join(ctx.dir, files[0]) : undefined;
  };
  const trajectories = parquet("trajectories");
  const items = parquet("items");
  ctx.startJudgmentLoad = () => {
    ctx.judgmentLoad ??= loadJudgmentsAhead(() => judgmentsConnection(ctx), {
      path,
      file: names[0],
      schema: ctx.schemas.judgments,
      format: { field: issueField, message: issueMessage },
      primaryJudge: ctx.primaryJudge,
      withEvidence: ctx.evidence,
      onePass: onePass && trajectories && items ? { trajectories, items, ...DUCKDB_TEMP } : undefined,
    });
  };
}

/**
 * DuckDB's checks of the judgments table, then, when they and every table read so far found nothing, its
 * label vectors started: their query runs in DuckDB while the caller checks keys and references.
 * They are dropped if the store turns out invalid.
 */
export async function judgmentsInDuckDB(
  ctx: ReadContext,
  tables: Partial<Record<TableName, unknown[]>>,
  files: Record<string, string>,
  incomplete: ReadonlySet<TableName>,
  o: { clean: () => boolean; rows: number; options: ReadStoreOptions },
): Promise<{
  checks?: Awaited<ReturnType<typeof checkJudgments>>;
  labels?: LabelVectorsUnderWay;
  /** The table holds grades or NotApplicable labels (schema_version 2). */
  graded?: boolean;
}> {
  if (ctx.judgmentPass) {
    // Its judgments have no problem of their own, whatever the other tables' (store/judgment-pass.ts).
    const checks = { duplicates: [], references: [] };
    if (!o.clean()) return { checks };
    o.options.onProgress?.(`${o.rows} judgments checked in one pass with their label vectors`);
    return { checks, labels: await ctx.judgmentPass.labelVectors(tables.trajectories as Trajectory[], ctx.strings) };
  }
  if (!ctx.judgments) return {};
  o.options.onProgress?.(`checking ${o.rows} judgments in DuckDB`);
  const checks = await checkJudgments(
    ctx.judgments,
    tables,
    files.judgments,
    incomplete,
    ctx.primaryJudge,
    // Loaded once trajectoryReference ran, even when ids repeat: then it holds the repeats too.
    ctx.trajectoryReference !== undefined,
    ctx.judgmentRepeats,
  );
  if (!o.clean() || hasProblems(checks)) return { checks };
  o.options.onProgress?.("building label vectors in DuckDB");
  // The table holds exactly the rows read (the store is clean), and ref_items exactly the items rows.
  const sizes = new Map<string, number>();
  let longest = 0;
  for (const it of (tables.items ?? []) as { task_id: string }[]) {
    const size = (sizes.get(it.task_id) ?? 0) + 1;
    sizes.set(it.task_id, size);
    if (size > longest) longest = size;
  }
  const graded = await holdsGrades(ctx.judgments);
  const labels = await startLabelVectors(ctx.judgments, ctx.primaryJudge, tables.trajectories as Trajectory[], {
    evidence: o.options.evidence,
    graded,
    bucketJudgments: o.options.labelBucketJudgments,
    strings: ctx.strings,
    known: { judgments: o.rows, longestChecklist: longest },
  });
  return { checks, labels, graded };
}

/**
 * Whether the judgments hold a grade or a NotApplicable label (schema_version 2), which the packed label
 * codes cannot hold. One scan of the loaded table; the one-pass read of judgments.parquet (the large stores)
 * never gets here, and does not hold for such a file (store/judgment-pass.ts).
 */
async function holdsGrades(conn: DuckDBConnection): Promise<boolean> {
  const r = await conn.runAndReadAll(
    "SELECT count(*)::BIGINT AS n FROM judgments WHERE grade IS NOT NULL OR label = 'NotApplicable'",
  );
  return Number((r.getColumnsObjectJS() as Record<string, bigint[]>).n[0]) > 0;
}

const hasProblems = (checks: { duplicates: Problem[]; references: Problem[] }) =>
  checks.duplicates.length > 0 || checks.references.length > 0;

async function checkJudgments(
  conn: DuckDBConnection,
  tables: Partial<Record<TableName, unknown[]>>,
  file: string,
  incomplete: ReadonlySet<TableName>,
  primaryJudge: string,
  trajectoriesLoaded: boolean,
  repeats: number | undefined,
) {
  await loadReferenceTables(conn, tables as Parameters<typeof loadReferenceTables>[1], trajectoriesLoaded);
  const checks = {
    file,
    loc: file.endsWith(".parquet") ? ("row" as const) : ("line" as const),
    primaryJudge,
    checkTrajectories: !incomplete.has("trajectories"),
    checkItems: !incomplete.has("items") && !incomplete.has("tasks"),
  };
  return judgmentProblems(conn, checks, repeats);
}
