import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { Manifest, SCHEMA_VERSION, REQUIRED_TABLES, TABLE_NAMES, TABLE_SCHEMAS, type Store, type TableName } from "../../analysis/schema/tables.js";
import { FIELD_KINDS, REQUIRED_FIELDS } from "./field-types.js";
import { decodeUtf8, parseCsv, parseJsonl, type RawRecord } from "./parse-text.js";
import { ProblemList, StoreValidationError, type Problem } from "./problems.js";
import { checkReferences, type RowLocation } from "./check-references.js";

const FORMATS = ["jsonl", "csv", "parquet"] as const;
type Format = (typeof FORMATS)[number];

export interface ReadStoreOptions {
  maxProblems?: number;
  /** Allow a store without judgments (documented extension for outcome-only imports). */
  allowMissingJudgments?: boolean;
}

export interface ReadStoreResult {
  store: Store;
  files: Record<string, string>;
  warnings: string[];
  rows: Record<string, number>;
}

/**
 * Reads and validates a verdict store folder (docs/verdict-store.md).
 * JSONL and CSV are parsed in TypeScript so every problem names its exact
 * line; Parquet is read through DuckDB (@duckdb/node-api). All rows are
 * validated with the zod schemas, then keys and references are checked.
 * @throws StoreValidationError listing every problem found (up to the cap).
 */
export async function readStore(dir: string, options: ReadStoreOptions = {}): Promise<ReadStoreResult> {
  const problems = new ProblemList(options.maxProblems ?? 50);
  const add = (p: Problem) => problems.add(p);
  if (!existsSync(dir)) throw new StoreValidationError(dir, [{ file: dir, message: "no such file or directory" }]);
  if (!statSync(dir).isDirectory()) throw new StoreValidationError(dir, [{ file: dir, message: "not a folder (a store is a folder of table files)" }]);
  const warnings: string[] = [];
  const files: Record<string, string> = {};
  const found = new Map<TableName, string[]>();
  for (const name of readdirSync(dir).sort()) {
    const m = /^(.+)\.(jsonl|csv|parquet)$/.exec(name);
    if (!m) continue;
    if (!(TABLE_NAMES as string[]).includes(m[1])) {
      warnings.push(`ignored ${name}: not a table of the contract`);
      continue;
    }
    const list = found.get(m[1] as TableName) ?? [];
    list.push(name);
    found.set(m[1] as TableName, list);
  }
  let manifest: Manifest = { name: dir.split("/").filter(Boolean).pop() ?? "store" };
  if (existsSync(join(dir, "store.json"))) {
    const text = decodeUtf8(readFileSync(join(dir, "store.json")), "store.json");
    if (typeof text !== "string") add(text);
    else {
      try {
        const raw = JSON.parse(text);
        const parsed = Manifest.safeParse(raw);
        if (parsed.success) {
          manifest = parsed.data;
          if (manifest.schema_version != null && manifest.schema_version !== SCHEMA_VERSION) {
            add({ file: "store.json", field: "schema_version", message: `this gcpc reads schema_version ${SCHEMA_VERSION} (docs/verdict-store.md), the store says ${manifest.schema_version}` });
          }
        }
        else for (const issue of parsed.error.issues) add({ file: "store.json", field: issueField(issue), message: issueMessage(issue, raw) });
      } catch (e) {
        add({ file: "store.json", message: `not valid JSON (${(e as Error).message})` });
      }
    }
  }
  const optionalJudgments = options.allowMissingJudgments || manifest.judgments_optional === true;
  for (const table of REQUIRED_TABLES) {
    if (!found.has(table) && !((table === "judgments" || table === "items") && optionalJudgments)) {
      add({ file: `${table}.*`, message: `required table "${table}" is missing (expected ${table}.jsonl, ${table}.csv or ${table}.parquet)` });
    }
  }
  const tables: Partial<Record<TableName, unknown[]>> = {};
  const locations: Partial<Record<TableName, RowLocation[]>> = {};
  const rowsCount: Record<string, number> = {};
  let duck: DuckDBInstance | undefined;
  // Tables with rows that could not be read: references into them are not checked (they would only cascade).
  const incomplete = new Set<TableName>();
  for (const [table, names] of found) {
    const problemsBefore = problems.count;
    if (names.length > 1) {
      add({ file: names.join(", "), message: `two files for table "${table}": keep exactly one` });
      { incomplete.add(table); continue; }
    }
    const file = names[0];
    files[table] = file;
    const format = file.slice(file.lastIndexOf(".") + 1) as Format;
    const path = join(dir, file);
    if (statSync(path).size === 0) {
      add({ file, message: "file is empty" });
      { incomplete.add(table); continue; }
    }
    let records: RawRecord[] | undefined;
    let columns: string[] | undefined;
    if (format === "parquet") {
      duck ??= await DuckDBInstance.create(":memory:");
      try {
        ({ records, columns } = await readParquet(duck, path));
      } catch (e) {
        add({ file, message: `cannot read Parquet: ${(e as Error).message.split("\n")[0]}` });
        { incomplete.add(table); continue; }
      }
    } else {
      const text = decodeUtf8(readFileSync(path), file);
      if (typeof text !== "string") { add(text); incomplete.add(table); continue; }
      if (format === "jsonl") records = parseJsonl(text, file, add);
      else {
        const parsed = parseCsv(text, file, add);
        if (!parsed) { incomplete.add(table); continue; }
        columns = parsed.header;
        records = parsed.records.map((r) => ({ ...r, values: convertCsvCells(table, r, file, add) }));
      }
    }
    if (columns) {
      const missing = REQUIRED_FIELDS[table].filter((f) => !columns!.includes(f));
      if (missing.length) {
        for (const f of missing) add({ file, line: format === "csv" ? 1 : undefined, field: f, message: `required column "${f}" is missing` });
        { incomplete.add(table); continue; }
      }
    }
    const schema = TABLE_SCHEMAS[table];
    const valid: unknown[] = [];
    const locs: RowLocation[] = [];
    for (const rec of records!) {
      const parsed = schema.safeParse(rec.values);
      if (parsed.success) { valid.push(parsed.data); locs.push({ line: rec.line, row: rec.row }); }
      else for (const issue of parsed.error.issues) add({ file, line: rec.line, row: rec.row, field: issueField(issue), message: issueMessage(issue, rec.values) });
    }
    if (records!.length === 0) add({ file, message: "table has no rows" });
    if (valid.length < records!.length || problemsBefore !== problems.count) incomplete.add(table);
    tables[table] = valid;
    locations[table] = locs;
    rowsCount[table] = valid.length;
  }
  if (duck) duck.closeSync?.();
  // References are checked on the rows that passed validation, so one run lists every kind of problem.
  checkReferences(tables, locations, files, add, incomplete, manifest.primary_judge ?? undefined);
  if (problems.count > 0) throw new StoreValidationError(dir, problems.items, problems.dropped);
  const store = { manifest, ...tables } as Store;
  if (!store.judgments) store.judgments = [];
  if (!store.items) store.items = [];
  return { store, files, warnings, rows: rowsCount };
}

async function readParquet(duck: DuckDBInstance, path: string): Promise<{ records: RawRecord[]; columns: string[] }> {
  const conn = await duck.connect();
  try {
    const reader = await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
    const columns = reader.columnNames();
    const rows = reader.getRowObjectsJS() as Record<string, unknown>[];
    const records = rows.map((values, i) => {
      for (const k of Object.keys(values)) if (typeof values[k] === "bigint") values[k] = Number(values[k]);
      // Parquet nulls mean "absent" for optional fields.
      for (const k of Object.keys(values)) if (values[k] === null) delete values[k];
      return { values, row: i + 1 };
    });
    return { records, columns };
  } finally {
    conn.closeSync?.();
  }
}

/** CSV cells → typed values per the contract (rule 1: empty cell = null; booleans true/false; lists as JSON arrays). */
function convertCsvCells(table: TableName, rec: RawRecord, file: string, add: (p: Problem) => void): Record<string, unknown> {
  const kinds = FIELD_KINDS[table];
  const out: Record<string, unknown> = {};
  for (const [field, cell] of Object.entries(rec.values) as [string, string][]) {
    if (cell === "") continue; // absent
    const kind = kinds[field];
    if (!kind) out[field] = cell;
    else if (kind === "int" || kind === "number") {
      // "NaN" / "Infinity" become numbers the schema rejects as non-finite; other text stays text and is rejected as such.
      const x = Number(cell);
      out[field] = Number.isNaN(x) && cell.trim() !== "NaN" ? cell : x;
    } else if (kind === "boolean") {
      out[field] = cell === "true" ? true : cell === "false" ? false : cell;
    } else {
      try {
        out[field] = JSON.parse(cell);
      } catch {
        out[field] = cell;
      }
    }
  }
  return out;
}

export function issueField(issue: { path: PropertyKey[]; code?: string; keys?: string[] }): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.keys) return issue.keys.join(", ");
  return issue.path.length ? issue.path.map(String).join(".") : undefined;
}

export function issueMessage(issue: { message: string; code?: string; path: PropertyKey[]; keys?: string[] }, values?: Record<string, unknown>): string {
  if (issue.code === "unrecognized_keys") return `unknown field(s) ${issue.keys?.map((k) => JSON.stringify(k)).join(", ")} (not in the contract)`;
  const field = issue.path[0];
  const value = values && field !== undefined ? values[String(field)] : undefined;
  if (value === undefined && issue.code === "invalid_type") return "missing required field";
  const shown = typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return `${issue.message} (got ${shown})`;
}
