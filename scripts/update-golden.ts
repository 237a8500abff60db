// Rewrites test/golden/report-outputs.json and report-figures.json from the current code, and prints
// every figure that changed. Run it only when a figure changes on purpose, and say in the commit which
// figures changed and why (the printed list).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { changedFigures, GOLDEN_FIGURES_FILE, GOLDEN_FILE, goldenOutputs } from "../test/helpers/golden.js";

process.chdir(new URL("..", import.meta.url).pathname);
const before = existsSync(GOLDEN_FIGURES_FILE) ? JSON.parse(readFileSync(GOLDEN_FIGURES_FILE, "utf8")) : {};
const { digests, figures } = await goldenOutputs();
const changed = changedFigures(before, figures);
writeFileSync(GOLDEN_FILE, `${JSON.stringify(digests, null, 2)}\n`);
writeFileSync(GOLDEN_FIGURES_FILE, `${JSON.stringify(figures, null, 1)}\n`);
for (const line of changed) console.log(line);
console.log(`${changed.length} figure(s) changed; wrote ${GOLDEN_FILE.pathname} and ${GOLDEN_FIGURES_FILE.pathname}`);
