import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import {
  Manifest,
  READABLE_SCHEMA_VERSIONS,
  REQUIRED_TABLES,
  TABLE_NAMES,
  type TableName,
} from "../analysis/schema/tables.js";
import { decodeUtf8 } from "./parse-text.js";
import { StoreValidationError, type Problem } from "./problems.js";
import { issueField, issueMessage } from "./zod-issues.js";

export function checkIsFolder(dir: string): void {
  if (!existsSync(dir)) throw new StoreValidationError(dir, [{ file: dir, message: "no such file or directory" }]);
  if (!statSync(dir).isDirectory()) {
    throw new StoreValidationError(dir, [{ file: dir, message: "not a folder (a store is a folder of table files)" }]);
  }
}

/** Table name → its files in the folder (more than one is an error reported by the caller). */
export function findTableFiles(dir: string, warnings: string[]): Map<TableName, string[]> {
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
  return found;
}

/** store.json, validated; a store without one is named after its folder. */
export function readManifest(dir: string, add: (p: Problem) => void): Manifest {
  const fallback: Manifest = { name: dir.split("/").filter(Boolean).pop() ?? "store" };
  if (!existsSync(join(dir, "store.json"))) return fallback;
  const text = decodeUtf8(readFileSync(join(dir, "store.json")), "store.json");
  if (typeof text !== "string") {
    add(text);
    return fallback;
  }
  return manifestOfText(text, "store.json", add) ?? fallback;
}

/**
 * A manifest's JSON text checked against the contract (zod's Manifest, then a schema_version this gcpc reads):
 * undefined when it is not a valid manifest, the manifest with a problem added when its version is unreadable.
 * Shared by the folder's store.json and a ClickHouse store's manifest table.
 */
export function manifestOfText(text: string, file: string, add: (p: Problem) => void): Manifest | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    add({ file, message: `not valid JSON (${(e as Error).message})` });
    return undefined;
  }
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      add({ file, field: issueField(issue), message: issueMessage(issue, raw as Record<string, unknown>) });
    }
    return undefined;
  }
  const version = parsed.data.schema_version;
  if (version != null && !READABLE_SCHEMA_VERSIONS.includes(version)) {
    const reads = `this gcpc reads schema_version ${READABLE_SCHEMA_VERSIONS.join(" and ")} (docs/verdict-store.md)`;
    const message = `${reads}, the store says ${version}`;
    add({ file, field: "schema_version", message });
  }
  return parsed.data;
}

export function checkRequiredTables(
  found: Map<TableName, string[]>,
  optionalJudgments: boolean,
  add: (p: Problem) => void,
) {
  for (const table of REQUIRED_TABLES) {
    if (found.has(table) || ((table === "judgments" || table === "items") && optionalJudgments)) continue;
    const message = `required table "${table}" is missing (expected ${table}.jsonl, ${table}.csv or ${table}.parquet)`;
    add({ file: `${table}.*`, message });
  }
}
