// One build per test run, shared by the test files that read it. The runner (scripts/run-tests.ts) names a
// folder for the run in GCPC_TEST_SHARED; the first file to ask for `name` builds it there while the others
// wait for it, and every later file reads the finished folder. A file run on its own builds into its own
// temporary folder. A build that fails fails every file that asked for it, with the builder's error.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp-dir.js";
import { waitFor } from "./wait-for.js";

let ownRoot: string | undefined;

/** The folder of the shared build `name`, made by `build(dir)` exactly once per test run. Treat it as read-only. */
export async function sharedBuild(name: string, build: (dir: string) => Promise<void> | void): Promise<string> {
  const root = process.env.GCPC_TEST_SHARED ?? (ownRoot ??= tempDir("gcpc-test-own-"));
  const dir = join(root, name);
  const done = `${dir}.done`;
  const failed = `${dir}.failed`;
  let mine = false;
  try {
    mkdirSync(`${dir}.lock`); // atomic: exactly one process makes it
    mine = true;
  } catch {
    // another file of this run is building it, or has built it
  }
  if (mine) {
    try {
      mkdirSync(dir, { recursive: true });
      await build(dir);
      writeFileSync(done, "");
    } catch (e) {
      writeFileSync(failed, String((e as Error)?.stack ?? e));
      throw e;
    }
    return dir;
  }
  // A site build takes seconds; ten minutes means the builder is stuck (its own file then fails too).
  await waitFor(() => existsSync(done) || existsSync(failed), `the shared build ${name}`, 600_000, 100);
  if (existsSync(failed))
    throw new Error(`the shared build ${name} failed in another file:\n${readFileSync(failed, "utf8")}`);
  return dir;
}
