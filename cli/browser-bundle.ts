import { buildSync } from "esbuild";
import { join } from "node:path";

/**
 * Bundles `analysis/browser.ts` and its dependencies (seedrandom) into one ES module for the site:
 * the Compare page imports it as a local module, offline, and gets the CLI's own statistics.
 */
export function bundleAnalysisForBrowser(repo: string, outFile: string): void {
  buildSync({
    entryPoints: [join(repo, "analysis/browser.ts")],
    outfile: outFile,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    legalComments: "none",
    logLevel: "silent",
  });
}
