// `npm run dev` first bundles analysis/ for the pages into src/components/gcpc-analysis.js, the
// Compare page's worker into src/components/compare-worker.js and the pages' libraries into
// src/components/vendor/ (all git-ignored; `gcpc site` writes its own copies into each build workspace).
import { join } from "node:path";
import { bundleAnalysisForBrowser, bundleCompareWorker, bundleVendorModules } from "../cli/browser-bundle.js";

const repo = new URL("..", import.meta.url).pathname;
bundleAnalysisForBrowser(repo, join(repo, "src/components/gcpc-analysis.js"));
bundleCompareWorker(repo, join(repo, "src/components/compare-worker.js"));
await bundleVendorModules(repo, join(repo, "src/components/vendor"));
