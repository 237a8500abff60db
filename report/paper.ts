import { readFileSync } from "node:fs";
import type { PaperFigures } from "./sections.js";

/** The bundled demo store reproduces the paper, so its reports show the paper's figures beside ours. */
export function isPaperDemo(store: { name: string; synthetic?: boolean | null }): boolean {
  return store.synthetic === true && store.name.startsWith("gcpc-demo");
}

/** The paper's reported figures (data/paper/reported.json); comparison only, never an input. */
export function loadPaperFigures(): PaperFigures {
  return JSON.parse(readFileSync(new URL("../data/paper/reported.json", import.meta.url), "utf8"));
}
