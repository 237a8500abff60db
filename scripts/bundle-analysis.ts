// `npm run dev` first bundles analysis/ for the Compare page into src/components/gcpc-analysis.js
// (git-ignored; `gcpc site` writes its own copy into each build workspace).
import { join } from "node:path";
import { bundleAnalysisForBrowser } from "../cli/browser-bundle.js";

const repo = new URL("..", import.meta.url).pathname;
bundleAnalysisForBrowser(repo, join(repo, "src/components/gcpc-analysis.js"));
