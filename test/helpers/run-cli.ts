// Runs the CLI in-process (fast enough for hundreds of cases) with captured streams.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../../cli/main.js";

export async function cli(argv: string[], progress = false): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "",
    stderr = "";
  const code = await runCli(argv, {
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
    progressTty: progress,
  });
  return { code, stdout, stderr };
}

/** sha-256 over every file below `dir` (names, bytes): proves nothing was written there. */
export function treeHash(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p); // links are hashed as links, never followed (no loops)
      if (st.isSymbolicLink()) h.update(`link ${p} -> ${readlinkSync(p)}\n`);
      else if (st.isDirectory()) {
        h.update(`dir ${p}\n`);
        walk(p);
      } else h.update(`file ${p}\n`).update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex");
}
