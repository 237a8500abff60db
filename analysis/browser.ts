/**
 * The part of `analysis/` the site's Compare page runs in the browser. `gcpc site` bundles this entry
 * (with its dependencies) into the build's `src/components/gcpc-analysis.js`, so the page recomputes
 * with the very code the CLI uses (Framework refuses page imports from above `src/`).
 */
export { aucIntervalProblem, aucWithCI, taskClusters } from "./rq/common.js";
export { bootstrapIntervals, headline } from "./estimates/bootstrap-interval.js";
export { ClusteredAuc } from "./stats/clustered-auc.js";
export { WithinTaskAuc } from "./stats/within-task-auc.js";
export { pairedObuchowskiTest } from "./stats/obuchowski.js";
export { shareAbove } from "./stats/bootstrap.js";
export { signTestPValue } from "./stats/sign-test.js";
export { benjaminiHochberg } from "./stats/multiplicity.js";
