// Rewrites test/golden/report-outputs.json from the current code. Run it only when a figure
// changes on purpose, and say in the commit which outputs changed and why.
import { writeFileSync } from "node:fs";
import { GOLDEN_FILE, goldenDigests } from "../test/helpers/golden.js";

process.chdir(new URL("..", import.meta.url).pathname);
writeFileSync(GOLDEN_FILE, `${JSON.stringify(await goldenDigests(), null, 2)}\n`);
console.log(`wrote ${GOLDEN_FILE.pathname}`);
