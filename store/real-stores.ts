import { resolve } from "node:path";
import { prepareStore, type PreparedStore } from "../analysis/rq/prepared.js";
import { readStore } from "./read-store.js";

/** The bundled real-data stores the site's Real evaluations page describes (imports of data/real/raw). */
export interface RealStores {
  registry: PreparedStore;
  harbor: PreparedStore;
  terminalBench: PreparedStore;
  tau2Sft: PreparedStore;
  tau2Judges: PreparedStore;
  devai: PreparedStore;
  llmRubric: PreparedStore;
}

const PATHS: Record<keyof RealStores, string> = {
  registry: "data/real/skillsbench-registry",
  harbor: "data/real/harbor-sample",
  terminalBench: "data/real/terminal-bench",
  tau2Sft: "data/real/tau2-sft",
  tau2Judges: "data/real/tau2-judges",
  devai: "data/real/devai",
  llmRubric: "data/real/llm-rubric",
};

/** The bundled real-data stores, relative to `root` (the repository). */
export async function readRealStores(root: string): Promise<RealStores> {
  const out = {} as RealStores;
  for (const [key, path] of Object.entries(PATHS) as [keyof RealStores, string][])
    out[key] = prepareStore((await readStore(resolve(root, path))).store);
  return out;
}
