import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { TableName } from "../analysis/schema/tables.js";

const STORE_TABLES: TableName[] = ["tasks", "trajectories"];
import { UsageError } from "./errors.js";

/**
 * Every command that writes goes through here first: nothing of the user's data may be
 * overwritten. A target is refused (exit 2, one line) when it is one of the inputs, lies
 * inside an input folder or any store folder, contains an input, or is an existing store.
 */

/** Absolute path with symlinks resolved as far as the path exists (the rest appended). */
export function realTarget(path: string): string {
  let head = resolve(path);
  const tail: string[] = [];
  while (!existsSync(head)) {
    const parent = dirname(head);
    if (parent === head) break;
    tail.unshift(basename(head));
    head = parent;
  }
  return join(realpathSync(head), ...tail);
}

const within = (child: string, parent: string) =>
  child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/**
 * A folder holding store.json or a tasks / trajectories table (every store has both). Other
 * table names alone (an `items.jsonl` of checklists to import) do not make a store.
 */
export function isStoreFolder(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.some(
    (n) =>
      n === "store.json" || STORE_TABLES.some((t) => n === `${t}.jsonl` || n === `${t}.csv` || n === `${t}.parquet`),
  );
}

/** The nearest ancestor folder of `path` (itself excluded) that is a store, if any. */
function enclosingStore(path: string): string | undefined {
  for (let d = dirname(path); ; d = dirname(d)) {
    if (isStoreFolder(d)) return d;
    if (dirname(d) === d) return undefined;
  }
}

export interface WriteTarget {
  /**
   * `file`: report output; `new-folder`: a store to create; `site`: a site output folder
   * (replaceable); `cache`: a build-cache folder (reused as it is); `store`: an existing store that an import
   * merges into (`--into`): it must be a store folder, so no other folder can be replaced.
   */
  kind: "file" | "new-folder" | "site" | "cache" | "store";
  inputs: string[];
  /** For `site`: a folder holding this file (or `_observablehq/`) is a previous build and may be replaced. */
  siteMarker?: string;
}

export function checkWriteTarget(target: string, spec: WriteTarget): void {
  const real = realTarget(target);
  for (const input of spec.inputs) {
    if (!existsSync(input)) continue;
    const r = realpathSync(input);
    if (real === r) throw new UsageError(`refusing to write ${target}: it is an input (${input})`);
    if (within(real, r)) throw new UsageError(`refusing to write ${target}: it is inside the input ${input}`);
    if (spec.kind !== "file" && within(r, real))
      throw new UsageError(`refusing to write ${target}: it contains the input ${input}`);
  }
  const store = enclosingStore(real);
  if (store) throw new UsageError(`refusing to write ${target}: it is inside the store ${store}`);
  if (spec.kind === "store") {
    if (!isStoreFolder(real))
      throw new UsageError(`refusing to write ${target}: --into needs an existing store folder`);
    return;
  }
  if (!existsSync(real)) return;
  const st = statSync(real); // `real` has its links resolved
  if (isStoreFolder(real)) throw new UsageError(`refusing to write ${target}: it is an existing store folder`);
  if (spec.kind === "file") {
    if (st.isDirectory()) throw new UsageError(`refusing to write ${target}: it is a folder (give a file path)`);
    return;
  }
  if (!st.isDirectory()) throw new UsageError(`refusing to write ${target}: it exists and is not a folder`);
  if (spec.kind === "cache") return;
  const entries = readdirSync(real);
  if (entries.length === 0) return;
  if (spec.kind === "site" && (entries.includes(spec.siteMarker ?? "") || entries.includes("_observablehq"))) return;
  throw new UsageError(
    `refusing to write ${target}: the folder exists and is not empty` +
      (spec.kind === "site" ? " (and is not a previous site build)" : ""),
  );
}
