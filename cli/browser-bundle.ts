import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * esbuild, loaded when the site is first bundled, so that no other command loads it at its start (38 ms; esbuild is
 * CommonJS, so `require` gives the module an `import` would).
 */
const esbuild = (): typeof import("esbuild") => createRequire(import.meta.url)("esbuild");

/**
 * Bundles `analysis/browser.ts` and its dependencies (seedrandom, jstat) into one ES module for the
 * site: the Explorer imports it as a local module, offline, and gets the CLI's own statistics.
 */
export function bundleAnalysisForBrowser(repo: string, outFile: string): void {
  bundle(join(repo, "analysis/browser.ts"), outFile, "esm");
}

/**
 * Bundles the Compare page's Web Worker (`analysis/compare-worker.ts`) as a classic script (IIFE):
 * the page starts it from its FileAttachment URL, same origin, no module worker needed.
 */
export function bundleCompareWorker(repo: string, outFile: string): void {
  bundle(join(repo, "analysis/compare-worker.ts"), outFile, "iife");
}

/**
 * The libraries the pages import, by the name a page imports them under (`./components/vendor/NAME.js`).
 * esbuild bundles them from node_modules in ≈ 2 s, with chunks shared between them (d3 once, for Plot and
 * the explorer). Framework would bundle each package and each of its dependencies apart with rollup
 * (≈ 7 s of a cold build: d3 alone is 31 packages). Offline either way: nothing comes from a CDN.
 */
export const VENDOR_MODULES = {
  plot: "@observablehq/plot",
  inputs: "@observablehq/inputs",
  htl: "htl",
  d3: "d3",
  duckdb: "@duckdb/duckdb-wasm",
} as const;

/** Resolves once the libraries are bundled into `outDir` (esbuild works in its own process meanwhile). */
export async function bundleVendorModules(repo: string, outDir: string): Promise<void> {
  await esbuild().build({
    entryPoints: VENDOR_MODULES,
    absWorkingDir: repo,
    outdir: outDir,
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
}

function bundle(entry: string, outfile: string, format: "esm" | "iife"): void {
  esbuild().buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format,
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
}
