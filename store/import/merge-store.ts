import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBInstance } from "@duckdb/node-api";
import type { Store } from "../../analysis/schema/store.js";
import { TABLE_NAMES, type TableName } from "../../analysis/schema/tables.js";
import { decodeUtf8, parseCsv, parseJsonl } from "../parse-text.js";
import { convertCsvCells } from "../table-records.js";
import { tableColumns } from "../../analysis/schema/columns.js";
import { InputError } from "../problems.js";
import { findTableFiles, readManifest } from "../store-folder.js";

/**
 * `gcpc import KIND … --into STORE`: the store's rows as plain records (JSONL parsed here, Parquet through
 * DuckDB's to_json), to merge an import into. A CSV store is refused: --into writes Parquet or JSONL, and
 * rewriting the user's CSV tables in another format would change their files.
 */
export async function storeRows(
  dir: string,
  options: { csv?: boolean } = {},
): Promise<{ store: Store; format: "parquet" | "jsonl" }> {
  const files = findTableFiles(dir, []);
  const all = [...files.values()].flat();
  if (!options.csv && all.some((f) => f.endsWith(".csv")))
    throw new InputError(
      `--into ${dir}: the store holds CSV tables; --into rewrites Parquet or JSONL only (use --out)`,
    );
  const format = all.some((f) => f.endsWith(".parquet")) ? "parquet" : "jsonl";
  const problems: string[] = [];
  const manifest = readManifest(dir, (p) => problems.push(p.message));
  if (problems.length) throw new InputError(`--into ${dir}: store.json: ${problems[0]}`);
  const store: Record<string, unknown> = { manifest };
  const instance =
    format === "parquet" ? await (await import("@duckdb/node-api")).DuckDBInstance.create(":memory:") : undefined;
  const conn = instance ? await instance.connect() : undefined;
  try {
    for (const [table, names] of files) {
      const rows: Record<string, unknown>[] = [];
      // One by one: spreading millions of rows into push overflows the stack.
      for (const name of names) for (const row of await tableRows(join(dir, name), conn, table)) rows.push(row);
      store[table] = rows;
    }
  } finally {
    conn?.closeSync();
  }
  for (const t of ["tasks", "items", "trajectories", "judgments"]) store[t] ??= [];
  return { store: store as unknown as Store, format };
}

async function tableRows(
  path: string,
  conn: Awaited<ReturnType<DuckDBInstance["connect"]>> | undefined,
  table: TableName,
) {
  if (path.endsWith(".jsonl") || path.endsWith(".csv")) {
    const text = decodeUtf8(readFileSync(path), path);
    if (typeof text !== "string") throw new InputError(`${path}: ${text.message}`);
    const problems: string[] = [];
    if (path.endsWith(".csv")) {
      const parsed = parseCsv(text, path, (p) => problems.push(`line ${p.line}: ${p.message}`));
      if (!parsed || problems.length) throw new InputError(`${path}: ${problems[0] ?? "unreadable"}`);
      const kinds = new Map(tableColumns()[table].map((c) => [c.name, c.kind]));
      return parsed.records.map((r) => convertCsvCells(kinds, r));
    }
    const records = parseJsonl(text, path, (p) => problems.push(`line ${p.line}: ${p.message}`));
    if (problems.length) throw new InputError(`${path}: ${problems[0]}`);
    return records.map((r) => r.values as Record<string, unknown>);
  }
  const literal = `'${path.replaceAll("'", "''")}'`;
  const result = await conn!.runAndReadAll(`SELECT to_json(t)::VARCHAR FROM read_parquet(${literal}) t`);
  return result.getRows().map(([json]) => withoutNulls(JSON.parse(String(json))));
}

/** A Parquet null cell is an absent field (the contract: an empty cell is null, absent). */
function withoutNulls(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null));
}

export interface MergeCounts {
  /** Rows the import added, per table. */
  added: Record<string, number>;
  /** Rows the store already held identically (the same trajectory imported twice is one). */
  duplicates: Record<string, number>;
}

/**
 * The store with the import's rows added, by the store's own rules: a row whose key is already in the store is
 * a duplicate when it is identical (dropped, counted; a judgment's omitted judge and run read as their defaults)
 * and a conflict when it differs (refused, naming the table, the key and both versions; nothing is written).
 * Keys: tasks by task_id; items by (task_id, item_id); trajectories by trajectory_id; judgments by
 * (trajectory_id, item_id, judge, run), an omitted run being 1 and
 * an omitted judge the manifest's primary judge (contract rule 13); method scores by (trajectory_id, method);
 * verifier results by (trajectory_id, test_id); other tables by the whole row. The store's manifest is kept, with
 * the import's reference judge added (mergeManifests). An imported judgment that omits its judge is written with
 * the import's primary judge named when the two stores' primaries differ (omitted, it would read as the store's).
 */
export function mergeStores(existing: Store, imported: Store): { store: Store; counts: MergeCounts } {
  const counts: MergeCounts = { added: {}, duplicates: {} };
  const out: Record<string, unknown> = { manifest: mergeManifests(existing.manifest, imported.manifest) };
  const primary = (s: Store) => s.manifest.primary_judge ?? "primary";
  for (const table of TABLE_NAMES) {
    const a = (existing as unknown as Record<string, Record<string, unknown>[] | undefined>)[table];
    const b = (imported as unknown as Record<string, Record<string, unknown>[] | undefined>)[table];
    if (!a && !b) continue;
    const keyOf = (s: Store) => keyFunction(table, primary(s));
    const seen = new Map<string, { text: string; row: Record<string, unknown> }>();
    const rows: Record<string, unknown>[] = [];
    const textOf = (s: Store, row: Record<string, unknown>) =>
      canonical(table === "judgments" ? { ...row, judge: row.judge ?? primary(s), run: row.run ?? 1 } : row);
    for (const row of a ?? []) {
      seen.set(keyOf(existing)(row), { text: textOf(existing, row), row });
      rows.push(row);
    }
    let added = 0;
    let duplicates = 0;
    for (const row of b ?? []) {
      const key = keyOf(imported)(row);
      const before = seen.get(key);
      const text = textOf(imported, row);
      if (!before) {
        seen.set(key, { text, row });
        const named =
          table === "judgments" && row.judge === undefined && primary(imported) !== primary(existing)
            ? { ...row, judge: primary(imported) }
            : row;
        rows.push(named);
        added++;
      } else if (before.text === text) duplicates++;
      else
        throw new InputError(
          `--into: ${table} ${key} is in the store and in the import with different values ` +
            `(store ${canonical(before.row)}; import ${canonical(row)}); nothing was written. The same run ` +
            "imported again with other values: import it into a new store (--out), or drop it from the input",
        );
    }
    out[table] = rows;
    counts.added[table] = added;
    counts.duplicates[table] = duplicates;
  }
  return { store: out as unknown as Store, counts };
}

function keyFunction(table: TableName, primaryJudge: string): (r: Record<string, unknown>) => string {
  const parts =
    (...names: string[]) =>
    (r: Record<string, unknown>) =>
      JSON.stringify(names.map((n) => r[n] ?? null));
  if (table === "tasks") return parts("task_id");
  if (table === "items") return parts("task_id", "item_id");
  if (table === "trajectories") return parts("trajectory_id");
  if (table === "method_scores") return parts("trajectory_id", "method");
  if (table === "verifier_results") return parts("trajectory_id", "test_id");
  if (table === "judgments")
    return (r) => JSON.stringify([r.trajectory_id, r.item_id, r.judge ?? primaryJudge, r.run ?? 1]);
  return (r) => canonical(r);
}

/**
 * A row as JSON with its keys sorted and its null fields left out: equal rows, equal text. A null field is an
 * absent one (the contract: an empty cell is null, absent), and a store written to disk keeps neither: a stored
 * row without `outcome` and an imported one with `outcome: null` are the same row (issue 55.2).
 */
function canonical(row: Record<string, unknown>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(row)
        .filter(([, v]) => v !== null && v !== undefined)
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
    ),
  );
}

/**
 * The merged store's manifest: the store's, plus what the import says of judges that the store does not say yet.
 * An import's `reference_judge` (e.g. `import table --reference-judge human --into STORE`) is the user's
 * statement about the merged store and is kept (it was dropped, and --judge-corrected then said the store names
 * no reference judge: issue 55.2); one that contradicts the store's is refused, as is a reference judge that would
 * be the store's primary (scoring) judge.
 */
export function mergeManifests(existing: Store["manifest"], imported: Store["manifest"]): Store["manifest"] {
  const reference = imported.reference_judge;
  if (reference === undefined || reference === existing.reference_judge) return existing;
  if (existing.reference_judge !== undefined)
    throw new InputError(
      `--into: the store's reference judge is ${JSON.stringify(existing.reference_judge)} and the import names ` +
        `${JSON.stringify(reference)}; nothing was written. A store has one reference judge: import without ` +
        "--reference-judge, or into a new store (--out)",
    );
  const primary = existing.primary_judge ?? "primary";
  if (reference === primary)
    throw new InputError(
      `--into: --reference-judge ${JSON.stringify(reference)} is the store's primary (scoring) judge; nothing ` +
        "was written. The reference is the judge the scoring judge is checked against, never the scoring judge",
    );
  return { ...existing, reference_judge: reference };
}
