// Shared helper of the loaders (no second extension, so Framework does not serve it).
import { resolve } from "node:path";
import { readStore } from "../../cli/store/read-store.js";
import { analyzeStore } from "../../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../../analysis/rq/common.js";
import { prepareStore } from "../../analysis/rq/prepared.js";

/** The store a build describes: $GCPC_STORE, default the bundled demo (relative to the repo root). */
export function storePath(): string {
  return resolve(process.env.GCPC_STORE ?? "data/demo");
}

export async function loadStore() {
  const { store } = await readStore(storePath());
  return store;
}

export async function loadReport() {
  const store = await loadStore();
  const settings = { ...DEFAULT_SETTINGS, seed: Number(process.env.GCPC_SEED ?? DEFAULT_SETTINGS.seed) };
  return { store, prepared: prepareStore(store), report: analyzeStore(store, settings, { perTrajectory: true }) };
}
