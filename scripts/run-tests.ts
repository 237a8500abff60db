// The test runner of `npm test`: every test/*.test.ts, three processes at a time, the longest files first.
// Node 20's `node --test FILES` sorts its files by name, which left the browser files (site-*) to run last, side
// by side, with nothing to overlap them; `run({ files })` keeps the order given.
//
// The other files are short: most of their cost was starting a process with tsx's loader, so they run in
// UNIT_PROCESSES processes, each importing its share of them in turn (every test keeps its own name, and a
// failure names its file and line).
//
// Files that need the same built site share one build per run: GCPC_TEST_SHARED names a folder for the
// run (test/helpers/shared-build.ts), removed at the end. Usage: node --import tsx scripts/run-tests.ts [FILE…]
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const repo = new URL("..", import.meta.url).pathname;

/** Started first, in this order: the files that run longest (browser walks, site builds, fuzzers). */
export const LONGEST_FIRST = [
  "test/site-explorer.test.ts",
  "test/site.test.ts",
  "test/site-walk.test.ts",
  "test/site-compare.test.ts",
  "test/site-real.test.ts",
  "test/fuzz-import.test.ts",
  "test/fuzz-store.test.ts",
  "test/clickhouse-store.test.ts",
  "test/site-degenerate.test.ts",
  "test/cli.test.ts",
  "test/site-build-guard.test.ts",
  "test/cli-worker.test.ts",
  "test/user-machine.test.ts",
];

const UNIT_PROCESSES = 2;

/** The longest a test file may run: far beyond any file's time on a loaded machine (the whole suite takes minutes). */
const WATCHDOG_MS = 20 * 60_000;

/** Every test file, each once: the longest first, then the rest by name. */
export function testFiles(): { own: string[]; rest: string[] } {
  const all = readdirSync(join(repo, "test"))
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `test/${f}`)
    .sort();
  const own = LONGEST_FIRST.filter((f) => all.includes(f));
  return { own, rest: all.filter((f) => !own.includes(f)) };
}

/** Entry files that each import a share of `files` (dealt in turn), written into `dir`. */
function unitEntries(files: string[], dir: string): string[] {
  const shares = Array.from({ length: UNIT_PROCESSES }, () => [] as string[]);
  files.forEach((f, i) => {
    shares[i % UNIT_PROCESSES].push(f);
  });
  return shares
    .filter((share) => share.length > 0)
    .map((share, i) => {
      const entry = join(dir, `unit-${i + 1}.mjs`);
      const imports = share.map((f) => `await import(${JSON.stringify(pathToFileURL(join(repo, f)).href)});`);
      writeFileSync(entry, `${imports.join("\n")}\n`);
      return entry;
    });
}

async function main(): Promise<void> {
  const shared = mkdtempSync(join(tmpdir(), "gcpc-test-run-"));
  process.env.GCPC_TEST_SHARED = shared;
  const { own, rest } = testFiles();
  const files =
    process.argv.length > 2
      ? process.argv.slice(2).map((f) => join(repo, f))
      : [...own.map((f) => join(repo, f)), ...unitEntries(rest, shared)];
  let failed = false;
  // A watchdog, not a wait: a file that runs longer than this (a page that never gets ready, a hung server) fails
  // the run instead of hanging it. The browser tests wait on readiness alone (test/browser/harness.ts).
  const stream = run({ files, concurrency: 3, timeout: WATCHDOG_MS });
  // Every failure counts, a file's own (a crash before its tests) included; a failing todo test does not.
  stream.on("test:fail", (event) => {
    if (!event.todo) failed = true;
  });
  await new Promise<void>((done) => {
    stream.compose(new spec()).pipe(process.stdout);
    stream.on("end", () => done());
  });
  rmSync(shared, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
