import type { Store } from "../../analysis/schema/store.js";
import type { Skipped } from "./walk.js";

/** What every importer returns: the store, the inputs it could not read (and why), and what it wants said. */
export interface ImportResult {
  store: Store;
  skipped: Skipped[];
  /** Lines printed under the summary: where fields came from, warnings, counts of special cases. */
  notes: string[];
}

/**
 * An importer's own flags (beyond --out / --into / --format), with the help line each prints; `file`: its value
 * is an input file (it must exist, and no output may be written over it); `boolean`: a switch, which the
 * importer receives as "true".
 */
export type ImporterOptions = Record<string, { multiple?: true; file?: true; boolean?: true; help: string }>;

/** The option values an importer receives: its own flags only. */
export type ImporterValues = Record<string, string | string[] | undefined>;

/**
 * One importer: the kind named on the command line (`gcpc import KIND`), its flags, what it reads (`inputs`:
 * "paths" for files and folders, "one file" for a single file) and its read function. The CLI is a loop over the
 * registry (store/import/importers.ts); every import's summary is printed the same way (store/import/summary.ts).
 */
export interface Importer {
  kind: string;
  inputs: "paths" | "one file";
  options: ImporterOptions;
  read(inputs: string[], values: ImporterValues): Promise<ImportResult>;
}

/** A string option's value (a repeated one's last), or undefined. */
export const textOption = (values: ImporterValues, name: string): string | undefined => {
  const v = values[name];
  return Array.isArray(v) ? v[v.length - 1] : v;
};

/** A repeatable option's values (none: []). */
export const listOption = (values: ImporterValues, name: string): string[] => {
  const v = values[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};
