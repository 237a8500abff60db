#!/usr/bin/env node
// Entry point of the `gcpc` command. It runs the TypeScript CLI from an esbuild bundle (bin/cli-bundle.js),
// or through tsx when GCPC_NO_BUNDLE is set or the bundle cannot be built (the same code, slower to start).
import { bundledCliUrl } from "./cli-bundle.js";

let main = process.env.GCPC_NO_BUNDLE ? undefined : await bundledCliUrl().catch(() => undefined);
if (!main) {
  const { register } = await import("tsx/esm/api");
  register();
  main = "../cli/main.ts";
}
const { mainProcess } = await import(main);
mainProcess();
