import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { fsErrorText } from "../fs-error-text.js";

/** An input (file or folder) that could not be imported, and why; the import goes on without it. */
export interface Skipped {
  folder: string;
  reason: string;
}

/** A file-system error as a listed reason (dangling link, link loop, no permission...). */
export function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const text = fsErrorText(e) ?? (e as Error).message.split("\n")[0];
  if (code === "ENOENT") return `dangling symbolic link or vanished file (${text})`;
  if (code === "ELOOP") return `symbolic link loop (${text})`;
  return `cannot read (${text})`;
}

/**
 * Every file below the roots (a root may be a file itself) whose name `wanted` accepts, in a stable order
 * (names sorted per folder). A folder reached twice through a symbolic link is walked once; what cannot be
 * read is listed in `skipped`.
 */
export function jsonFilesBelow(roots: string[], wanted: (name: string) => boolean, skipped: Skipped[]): string[] {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = (path: string, isRoot: boolean) => {
    let real: string;
    let isDir: boolean;
    try {
      real = realpathSync(path);
      isDir = statSync(real).isDirectory();
    } catch (e) {
      skipped.push({ folder: path, reason: fsReason(e) });
      return;
    }
    if (!isDir) {
      if (isRoot || wanted(path.slice(path.lastIndexOf("/") + 1))) out.push(path);
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    let entries: string[];
    try {
      entries = readdirSync(path).sort();
    } catch (e) {
      skipped.push({ folder: path, reason: fsReason(e) });
      return;
    }
    for (const e of entries) walk(join(path, e), false);
  };
  for (const root of roots) walk(root, true);
  return out;
}

/**
 * Who hears of each input file an importer reads (the CLI's progress: a line per READS_PER_LINE files, so a long
 * import is not silent). One listener at a time; `watchReads` returns how to stop listening.
 */
let onRead: ((path: string) => void) | undefined;
export function watchReads(listener: (path: string) => void): () => void {
  onRead = listener;
  return () => {
    if (onRead === listener) onRead = undefined;
  };
}
/** Tells the listener (if any) that an importer read `path`. */
export const noteRead = (path: string): void => onRead?.(path);

/** A JSON file's value, gunzipped first when it ends in .gz; undefined (and listed unless quiet) when it cannot be. */
export function readJsonFile(path: string, skipped: Skipped[], quiet = false): unknown {
  let text: string;
  noteRead(path);
  try {
    const bytes = readFileSync(path);
    text = (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  } catch (e) {
    if (!quiet) skipped.push({ folder: path, reason: fsReason(e) });
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    if (!quiet) skipped.push({ folder: path, reason: `not valid JSON (${(e as Error).message.split("\n")[0]})` });
    return undefined;
  }
}
