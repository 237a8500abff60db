// Shared helper of the loaders (no second extension, so Framework does not serve it).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readStore } from "../../store/read-store.js";
import { analyzeStore, type AnalysisReport } from "../../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../../analysis/estimates/bootstrap-interval.js";
import { prepareStore } from "../../analysis/rq/prepared.js";

/** The store a build describes: $GCPC_STORE, default the bundled demo (relative to the repo root). */
export function storePath(): string {
  return resolve(process.env.GCPC_STORE ?? "data/demo");
}

export async function loadStore() {
  const { store } = await readStore(storePath(), { evidence: true });
  return store;
}

/**
 * The analysis report for `npm run dev` (a `gcpc site` build hands the loader a finished archive
 * instead). The preview reruns the loader on every edit of a page, so the report is cached in the
 * OS temp folder under a key made of the store's files (name, size, mtime), the settings and the
 * analysis source code.
 */
export async function loadReport() {
  const store = await loadStore();
  const settings = { ...DEFAULT_SETTINGS, seed: Number(process.env.GCPC_SEED ?? DEFAULT_SETTINGS.seed) };
  const key = cacheKey(storePath(), settings);
  const cacheDir = join(tmpdir(), "gcpc-report-cache");
  const file = join(cacheDir, `${key}.json`);
  let report: AnalysisReport;
  if (existsSync(file)) report = JSON.parse(readFileSync(file, "utf8"));
  else {
    report = JSON.parse(JSON.stringify(analyzeStore(store, settings, { perTrajectory: true })));
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(report));
    renameSync(tmp, file);
  }
  return { store, prepared: prepareStore(store), report };
}

function cacheKey(dir: string, settings: object): string {
  const h = createHash("sha256");
  h.update(JSON.stringify({ dir, settings }));
  for (const name of readdirSync(dir).sort()) {
    const st = statSync(join(dir, name));
    h.update(`${name}:${st.size}:${st.mtimeMs}\n`);
  }
  const analysisRoot = new URL("../../analysis/", import.meta.url).pathname;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".ts")) h.update(readFileSync(p));
    }
  };
  walk(analysisRoot);
  return h.digest("hex").slice(0, 32);
}
