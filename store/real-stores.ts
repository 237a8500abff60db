import { resolve } from "node:path";
import { prepareStore, type PreparedStore } from "../analysis/rq/prepared.js";
import { readStore } from "./read-store.js";

/**
 * The bundled real-data stores the site's Real data page describes (imports of data/real/raw),
 * relative to `root`; $GCPC_REAL_REGISTRY and $GCPC_REAL_HARBOR override the paths.
 */
export async function readRealStores(root: string): Promise<{ registry: PreparedStore; harbor: PreparedStore }> {
  const registry = resolve(root, process.env.GCPC_REAL_REGISTRY ?? "data/real/skillsbench-registry");
  const harbor = resolve(root, process.env.GCPC_REAL_HARBOR ?? "data/real/harbor-sample");
  return {
    registry: prepareStore((await readStore(registry)).store),
    harbor: prepareStore((await readStore(harbor)).store),
  };
}
