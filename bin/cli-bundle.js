// The CLI as one esbuild bundle of its TypeScript, for bin/gcpc.js: Node then loads a few plain modules
// instead of tsx transforming each of some 150 (measured: startup took 1.8 s of which tsx about 1 s, at
// every command and in the job worker). The bundle is built on the first run and again when any of its
// sources changed (their size and mtime, recorded by the build), into node_modules/.cache/gcpc-cli/, one
// folder per build so that a process already running one keeps its files (its worker loads later).
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(REPO, "node_modules/.cache/gcpc-cli");
const CURRENT = join(CACHE, "current.json");
/** The CLI and its job worker's entry (cli/job-worker.ts starts the bundle's own when it runs bundled). */
const ENTRIES = ["cli/main.ts", "cli/job-worker-main.ts"];
/** A build folder no longer current is removed after this long (a run started from it is long done). */
const STALE_MS = 24 * 3600 * 1000;

/** The URL of the bundled cli/main.ts, built first when it is missing or a source changed. */
export async function bundledCliUrl() {
  const current = readCurrent();
  const dir = current && isFresh(current) ? current.dir : await buildBundle();
  return pathToFileURL(join(CACHE, dir, "main.mjs")).href;
}

function readCurrent() {
  try {
    return JSON.parse(readFileSync(CURRENT, "utf8"));
  } catch {
    return undefined;
  }
}

/** Size and modification time of a source, as the build recorded it. */
function stamp(path) {
  return stampOf(statSync(path));
}

const stampOf = (s) => `${s.size}:${s.mtimeMs}`;

function isFresh(current) {
  try {
    statSync(join(CACHE, current.dir, "main.mjs"));
    return Object.entries(current.inputs).every(([path, was]) => stamp(join(REPO, path)) === was);
  } catch {
    return false;
  }
}

async function buildBundle() {
  const { build } = await import("esbuild");
  const started = Date.now();
  const dir = `build-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
  mkdirSync(CACHE, { recursive: true });
  const result = await build({
    absWorkingDir: REPO,
    entryPoints: ENTRIES,
    outdir: join(CACHE, dir),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages load from node_modules as they are (DuckDB's native module, esbuild itself…).
    packages: "external",
    metafile: true,
    logLevel: "silent",
  });
  const inputs = {};
  // A source saved while the build ran gets no stamp it could match: the next run builds again.
  for (const path of Object.keys(result.metafile.inputs)) {
    const s = statSync(join(REPO, path));
    inputs[path] = s.mtimeMs >= started ? `changed during a build: ${stampOf(s)}` : stampOf(s);
  }
  // Written whole, then renamed over the last: a process reading it at the same time sees one or the other.
  const tmp = `${CURRENT}.${dir}`;
  writeFileSync(tmp, JSON.stringify({ dir, inputs }));
  renameSync(tmp, CURRENT);
  removeStaleBuilds(dir);
  return dir;
}

function removeStaleBuilds(keep) {
  for (const name of readdirSync(CACHE)) {
    if (!name.startsWith("build-") || name === keep) continue;
    const path = join(CACHE, name);
    // Another process may be removing it too: whatever fails here, the build just made stands.
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {}
  }
}
