/**
 * The part of `analysis/` the site's Compare page runs in the browser. `gcpc site` bundles this entry
 * (with its dependencies) into the build's `src/components/gcpc-analysis.js`, so the page recomputes
 * with the very code the CLI uses (Framework refuses page imports from above `src/`).
 */
export { aucWithCI } from "./rq/common.js";
export { pairedAucComparison } from "./rq/rq1-discrimination.js";
export { headline } from "./estimates/bootstrap-interval.js";
export { signTestPValue } from "./stats/sign-test.js";
export { benjaminiHochberg } from "./stats/multiplicity.js";
export { ARM_FIELDS, armMatchedUnits, armTrialPairs, compareArmTable } from "./rq/arms/compare-arms.js";
export { itemArmRates } from "./rq/arms/item-arm-rates.js";
export { decodeLabels, readableLabels } from "./schema/label-vectors.js";
