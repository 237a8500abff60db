import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "./errors.js";

/** Whether a process id is alive (signal 0 tests, sends nothing). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * One build at a time into one --out: a lock file `.OUT.lock` beside it holding the owner's pid, created
 * exclusively. A second build while the owner lives exits 2 naming the folder; a lock whose process is dead
 * is taken over. Returns the release function.
 */
export function lockOut(out: string): () => void {
  const abs = resolve(out);
  mkdirSync(dirname(abs), { recursive: true });
  const lock = join(dirname(abs), `.${basename(abs)}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, "wx");
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        if (existsSync(lock) && Number(readFileSync(lock, "utf8")) === process.pid) rmSync(lock, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const owner = Number(readFileSync(lock, "utf8").trim());
      if (alive(owner) && owner !== process.pid)
        throw new UsageError(`another gcpc site (pid ${owner}) is writing ${out}; wait for it or choose another --out`);
      rmSync(lock, { force: true }); // its process is gone: take the lock over
    }
  }
  throw new UsageError(`cannot take the lock on ${out}`);
}

/** The owner file every staging folder holds, so a later build knows whether its builder still runs. */
export const STAGING_OWNER = ".gcpc-building-pid";

/** Removes `.OUT.building-*` folders beside --out whose builder process is gone (an interrupted build). */
export function removeLeftovers(out: string): string[] {
  const abs = resolve(out);
  const parent = dirname(abs);
  if (!existsSync(parent)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(`.${basename(abs)}.building-`)) continue;
    const dir = join(parent, name);
    const ownerFile = join(dir, STAGING_OWNER);
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, "utf8").trim()) : 0;
    if (alive(owner)) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // another build removed it first
    }
  }
  return removed;
}

/**
 * While `work` runs, SIGINT and SIGTERM first run `cleanup` (stop the children, remove the staging folder)
 * and then exit with 130 or 143, as a shell reports a process ended by that signal.
 */
export async function withInterruptCleanup<T>(cleanup: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  const handler = (signal: NodeJS.Signals) => {
    void Promise.resolve()
      .then(cleanup)
      .catch(() => {})
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", handler);
  process.once("SIGTERM", handler);
  try {
    return await work();
  } finally {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  }
}

/**
 * Versions for the libraries Framework's client names but no page of the site imports (its standard
 * library's lazily loaded "recommended libraries"): Framework resolves each name to a version when it
 * bundles /_observablehq/client.js, by asking the npm registry for `@latest` unless its cache already names
 * a version. Writing these names into the workspace's cache (empty folders, as Framework itself writes)
 * makes the build need no network and never depend on @latest; the pages never load them (the offline
 * browser test fails on any request for them). Names installed in node_modules take the lockfile's version.
 */
export const FRAMEWORK_NPM_PINS: Record<string, string> = {
  "@observablehq/sample-datasets": "1.0.1",
  echarts: "6.1.0",
  leaflet: "1.9.4",
  lodash: "4.18.1",
  "mapbox-gl": "3.32.0",
  "parquet-wasm": "0.8.0",
  react: "19.3.1",
  "react-dom": "19.3.1",
  "topojson-client": "3.1.0",
};

/** Installed packages Framework's client also names: their versions come from node_modules (the lockfile). */
const FRAMEWORK_NPM_INSTALLED = ["@observablehq/plot", "apache-arrow", "arquero", "d3", "d3-dsv", "htl"];

/** Writes the version folders of {@link FRAMEWORK_NPM_PINS} and the installed names into the workspace. */
export function pinFrameworkNpm(ws: string, repo: string): void {
  const cache = join(ws, "src", ".observablehq", "cache", "_npm");
  const versions: Record<string, string> = { ...FRAMEWORK_NPM_PINS };
  for (const name of FRAMEWORK_NPM_INSTALLED)
    versions[name] = JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")).version;
  for (const [name, version] of Object.entries(versions))
    mkdirSync(join(cache, `${name}@${version}`), { recursive: true });
}
