import type { Importer } from "./importer.js";
import { importer as devai } from "./devai.js";
import { importer as harbor } from "./harbor.js";
import { importer as inspect } from "./inspect.js";
import { importer as skillsbenchRegistry } from "./registry.js";
import { importer as table } from "./table.js";
import { importer as tau2 } from "./tau2.js";
import { importer as terminalBench } from "./terminal-bench.js";
import { importer as metr } from "./metr.js";

/** Every importer, by the kind `gcpc import KIND` names. Adding one: its module exports `importer`; list it here. */
export const IMPORTERS: readonly Importer[] = [
  harbor,
  skillsbenchRegistry,
  terminalBench,
  tau2,
  inspect,
  devai,
  table,
  metr,
];

export const importerOf = (kind: string): Importer | undefined => IMPORTERS.find((i) => i.kind === kind);
