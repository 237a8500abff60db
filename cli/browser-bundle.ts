import { buildSync } from "esbuild";
import { join } from "node:path";

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

function bundle(entry: string, outfile: string, format: "esm" | "iife"): void {
  buildSync({
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
