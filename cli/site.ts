import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import {
  bundleAnalysisForBrowser,
  bundleCompareWorker,
  bundleVendorModules,
  VENDOR_MODULES,
} from "./browser-bundle.js";
import { UsageError } from "./errors.js";
import { repoRoot } from "./repo-root.js";
import { pinFrameworkNpm, STAGING_OWNER, withInterruptCleanup } from "./site-guard.js";

/**
 * `gcpc site STORE --out DIR`: the report site for any store, from any working directory.
 *
 * Framework caches loader output under its root by loader file, not by input, so one shared
 * root would show whichever store was built last. Each build therefore gets a workspace keyed
 * by the store's content, the settings and the code: a copy of `src/` (timestamps kept, so the
 * cache inside stays valid) with symlinks to the code it imports. A build can only ever read
 * its own store. It is written beside DIR and swapped in at the end: a failed build leaves
 * the previous output as it was.
 */
export const REPO = repoRoot();
export const SITE_MARKER = ".gcpc-site.json";
const LINKED = ["analysis", "store", "report", "cli", "data", "node_modules", "package.json", "tsconfig.json"];

function hashTree(h: ReturnType<typeof createHash>, dir: string, filter: (name: string) => boolean): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === ".observablehq" || name === "node_modules") continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hashTree(h, p, filter);
    else if (filter(name)) h.update(`${p.slice(REPO.length)}\n`).update(readFileSync(p));
  }
}

/** sha-256 of the store's files (names and bytes): two stores with equal content share a cache. */
export function storeContentHash(store: string): string {
  const h = createHash("sha256");
  for (const name of readdirSync(store).sort()) {
    const p = join(store, name);
    if (statSync(p).isFile()) h.update(`${name}\n${statSync(p).size}\n`).update(readFileSync(p));
  }
  return h.digest("hex");
}

function codeHash(): string {
  const h = createHash("sha256");
  for (const d of ["src", "analysis", "store", "report", "cli"])
    hashTree(h, join(REPO, d), (n) => /\.(ts|js|md|css)$/.test(n));
  h.update(readFileSync(join(REPO, "package-lock.json")));
  h.update(readFileSync(join(REPO, "observablehq.config.ts")));
  return h.digest("hex");
}

export interface SiteBuild {
  store: string;
  out: string;
  cacheBase: string;
  seed: number;
  /** The interval method of every CI on the site (part of the cache key). */
  interval: string;
  /** Every data file of the site as one zip, built once by the caller (report/site/archive.ts). */
  archive: () => Promise<Uint8Array>;
  storeName: string;
  /** The pages' libraries, bundled (the promise of {@link vendorModules}). */
  vendor: Promise<string>;
  onProgress: (step: string) => void;
}

/**
 * The one cache key of a site's data: the store's content, every source that feeds the output (pages,
 * analysis, store reader, report, CLI, the lockfile, Framework's config), the seed and the interval method.
 * `gcpc site` builds and `gcpc site --preview` both key their workspace by it.
 */
export function siteKey(b: Pick<SiteBuild, "store" | "seed" | "interval">): { key: string; storeHash: string } {
  const storeHash = storeContentHash(b.store);
  const variant = b.interval === "percentile" ? "" : `-${b.interval}`;
  return { key: `${storeHash.slice(0, 16)}-${codeHash().slice(0, 12)}-seed${b.seed}${variant}`, storeHash };
}

/** A build's workspace, ready for Framework: pages, links, bundles, pins; its archive path and whether it exists. */
async function siteWorkspace(b: SiteBuild) {
  const { key, storeHash } = siteKey(b);
  const ws = join(b.cacheBase, key);
  // A static file of the workspace: Framework reads it before it looks for the loader (site.zip.ts).
  const archivePath = join(ws, "src", "data", "site.zip");
  const cached = existsSync(archivePath);
  prepareWorkspace(ws);
  pinFrameworkNpm(ws, REPO);
  const vendor = join(ws, "src", "components", "vendor");
  if (!existsSync(vendor)) cpSync(await b.vendor, vendor, { recursive: true, preserveTimestamps: true });
  return { ws, storeHash, archivePath, cached };
}

/** The site's data archive, computed and renamed into place complete (a reader never sees half of it). */
async function writeArchive(b: SiteBuild, archivePath: string): Promise<void> {
  b.onProgress("running the analysis once for every page");
  const tmp = `${archivePath}.${process.pid}.tmp`;
  writeFileSync(tmp, await b.archive());
  renameSync(tmp, archivePath);
}

export async function buildSite(b: SiteBuild): Promise<{ workspace: string; cached: boolean }> {
  const { ws, storeHash, archivePath, cached } = await siteWorkspace(b);
  const outAbs = resolve(b.out);
  mkdirSync(dirname(outAbs), { recursive: true });
  const staging = mkdtempSync(join(dirname(outAbs), `.${basename(outAbs)}.building-`));
  chmodSync(staging, 0o755); // mkdtemp makes it private; a static server must read it
  // Who builds here: a later build removes this folder only once this process is gone (removeLeftovers).
  writeFileSync(join(staging, STAGING_OWNER), `${process.pid}\n`);
  b.onProgress(`building pages (workspace ${ws}${cached ? ", cached analysis" : ""})`);
  // Framework starts at once: its first seconds (reading pages, bundling its client) need no data, and
  // run on the second core while this process computes the archive. Should Framework reach the data
  // first, the loader waits for the archive to appear (src/data/site.zip.ts).
  const framework = startFramework(ws, staging, { ...b, archivePath });
  const cleanup = async () => {
    await framework.stop();
    rmSync(staging, { recursive: true, force: true });
  };
  return withInterruptCleanup(cleanup, () =>
    finishBuild(b, { ws, staging, outAbs, archivePath, storeHash, cached, framework }),
  );
}

/** The rest of a build once Framework runs: the archive (unless cached), then the swap into --out. */
async function finishBuild(
  b: SiteBuild,
  o: {
    ws: string;
    staging: string;
    outAbs: string;
    archivePath: string;
    storeHash: string;
    cached: boolean;
    framework: ReturnType<typeof startFramework>;
  },
): Promise<{ workspace: string; cached: boolean }> {
  const { staging, outAbs, archivePath, storeHash, cached, framework } = o;
  try {
    if (!cached) await writeArchive(b, archivePath);
    const r = await framework.done;
    if (r.status !== 0) {
      const lines = r.output
        .split("\n")
        .filter((l) => /error|Error|✗/.test(l))
        .slice(0, 8);
      throw new UsageError(
        `site build failed for ${b.store}; the previous ${b.out} is unchanged:\n  ${lines.join("\n  ")}`,
      );
    }
    const marker = { store: b.storeName, store_sha256: storeHash, seed: b.seed, interval: b.interval };
    writeFileSync(join(staging, SITE_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
    rmSync(join(staging, STAGING_OWNER), { force: true });
    const old = existsSync(outAbs) ? `${staging}.old` : undefined;
    if (old) renameSync(outAbs, old);
    renameSync(staging, outAbs);
    if (old) rmSync(old, { recursive: true, force: true });
  } catch (e) {
    await framework.stop();
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  return { workspace: o.ws, cached };
}

/**
 * `observable build` in the workspace, in its own process group (so a failed analysis can stop it
 * and the loaders it spawned), its output in a log file: this process may be busy computing while
 * it runs, and a pipe nobody reads would stall it.
 */
function startFramework(
  ws: string,
  staging: string,
  b: Pick<SiteBuild, "store" | "seed" | "storeName"> & { archivePath: string },
): { done: Promise<{ status: number | null; output: string }>; stop: () => Promise<unknown> } {
  const log = join(ws, "framework.log");
  const fd = openSync(log, "w");
  const bin = join(REPO, "node_modules/@observablehq/framework/dist/bin/observable.js");
  const child = spawn(process.execPath, [bin, "build"], {
    cwd: ws,
    detached: true,
    stdio: ["ignore", fd, fd],
    // Framework spawns `tsx` for .ts loaders: the repo's own, whatever the caller's PATH.
    env: {
      ...process.env,
      PATH: `${join(REPO, "node_modules/.bin")}${delimiter}${process.env.PATH ?? ""}`,
      GCPC_SITE_ARCHIVE: b.archivePath,
      GCPC_SITE_CLI_PID: String(process.pid),
      GCPC_SITE_OUT: staging,
      GCPC_STORE_NAME: b.storeName,
      NO_COLOR: "1",
    },
  });
  closeSync(fd);
  const done = new Promise<{ status: number | null; output: string }>((settle) => {
    child.on("error", (e) => settle({ status: -1, output: `Error: ${e.message}` }));
    child.on("close", (status) => settle({ status, output: readFileSync(log, "utf8") }));
  });
  const stop = () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    return done;
  };
  return { done, stop };
}

/**
 * `gcpc site STORE --preview`: Framework's live preview of the repo's own pages (edits reload) on the data
 * of the build with the same key: the workspace's archive, computed by the same code if it is not cached,
 * copied to src/data/site.zip (git-ignored), the browser bundles into src/components/. The store reaches
 * the pages only through that archive: there is no second reader and no second cache key. Resolves to
 * Framework's exit code once it stops (Ctrl-C).
 */
export async function previewSite(b: SiteBuild & { port?: number }): Promise<number> {
  const { ws, archivePath, cached } = await siteWorkspace(b);
  if (!cached) await writeArchive(b, archivePath);
  const components = join(REPO, "src", "components");
  cpSync(archivePath, join(REPO, "src", "data", "site.zip"));
  bundleAnalysisForBrowser(REPO, join(components, "gcpc-analysis.js"));
  bundleCompareWorker(REPO, join(components, "compare-worker.js"));
  rmSync(join(components, "vendor"), { recursive: true, force: true });
  cpSync(await b.vendor, join(components, "vendor"), { recursive: true });
  pinFrameworkNpm(REPO, REPO);
  b.onProgress(`previewing ${b.store} (data of workspace ${ws}${cached ? ", cached analysis" : ""})`);
  const bin = join(REPO, "node_modules/@observablehq/framework/dist/bin/observable.js");
  const port = b.port === undefined ? [] : ["--port", String(b.port)];
  const child = spawn(process.execPath, [bin, "preview", "--no-open", ...port], {
    cwd: REPO,
    stdio: "inherit",
    env: {
      ...process.env,
      PATH: `${join(REPO, "node_modules/.bin")}${delimiter}${process.env.PATH ?? ""}`,
      GCPC_STORE_NAME: b.storeName,
    },
  });
  const stop = () => child.kill("SIGTERM");
  process.once("SIGINT", stop).once("SIGTERM", stop);
  return new Promise((settle) => child.on("close", (status) => settle(status ?? 0)));
}

/**
 * DuckDB-wasm's engine and worker as static files of the workspace (symbolic links into node_modules):
 * Framework serves a file that exists before it looks for a loader, so the build copies them once
 * instead of piping 34 MB through the loaders in src/duckdb/ (which `npm run dev` still uses).
 */
function linkDuckdbEngine(ws: string): void {
  for (const name of ["duckdb-eh.wasm", "duckdb-browser-eh.worker.js"]) {
    const link = join(ws, "src", "duckdb", name);
    if (!existsSync(link)) symlinkSync(join(REPO, "node_modules/@duckdb/duckdb-wasm/dist", name), link);
  }
}

/**
 * The pages' libraries (cli/browser-bundle.ts, VENDOR_MODULES) depend on node_modules only: bundled once
 * per package-lock into CACHE/_vendor-<hash>, then copied into each workspace's src/components/vendor/.
 * Called before the store is read: esbuild bundles in its own process while this one reads.
 * Resolves to the shared folder.
 */
export async function vendorModules(cacheBase: string): Promise<string> {
  const key = createHash("sha256")
    .update(readFileSync(join(REPO, "package-lock.json")))
    .update(JSON.stringify(VENDOR_MODULES))
    .digest("hex");
  const shared = join(cacheBase, `_vendor-${key.slice(0, 12)}`);
  if (!existsSync(shared)) {
    const tmp = `${shared}.${process.pid}.tmp`;
    try {
      await bundleVendorModules(REPO, tmp);
      renameSync(tmp, shared);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return shared;
}

/** The workspace's copy of src/ (timestamps kept), links to the code it imports, and the browser bundle. */
function prepareWorkspace(ws: string): void {
  mkdirSync(ws, { recursive: true });
  if (!existsSync(join(ws, "src")))
    cpSync(join(REPO, "src"), join(ws, "src"), {
      recursive: true,
      preserveTimestamps: true,
      filter: (p) => !p.includes(`${join(REPO, "src", ".observablehq")}`),
    });
  for (const name of LINKED) if (!existsSync(join(ws, name))) symlinkSync(join(REPO, name), join(ws, name));
  if (!existsSync(join(ws, "observablehq.config.ts")))
    cpSync(join(REPO, "observablehq.config.ts"), join(ws, "observablehq.config.ts"), { preserveTimestamps: true });
  linkDuckdbEngine(ws);
  // Observable Inputs' stylesheet as a static file: the same bytes src/inputs.css.ts writes (the loader
  // `npm run dev` uses), without starting a loader process (≈ 0.7 s of a cold build).
  const inputsCss = join(ws, "src", "inputs.css");
  if (!existsSync(inputsCss)) cpSync(join(REPO, "node_modules/@observablehq/inputs/dist/index.css"), inputsCss);
  // The Compare page's statistics: the CLI's own analysis code, bundled for the browser.
  bundleAnalysisForBrowser(REPO, join(ws, "src", "components", "gcpc-analysis.js"));
  bundleCompareWorker(REPO, join(ws, "src", "components", "compare-worker.js"));
}
