import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository's root: the nearest folder above `from` that holds a package.json. The CLI runs from
 * cli/ (through tsx) or from a bundle that bin/gcpc.js builds under node_modules/.cache/, so the root is
 * looked for rather than taken as this module's parent folder.
 */
export function repoRoot(from: string = import.meta.url): string {
  const start = dirname(fileURLToPath(from));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
