// `npm run bench`: timings only; never asserted in tests (DEVELOPERS: speed is measured by a script).
import { benchBootstrap } from "./bootstrap-bench.js";
import { benchStores } from "./store-bench.js";
import { benchSite } from "./site-bench.js";
import { benchScale } from "./scale-bench.js";
import { benchImport } from "./import-bench.js";
import { benchManyArms } from "./many-arms-bench.js";
import { benchArms } from "./arms-bench.js";

const sections: [string, () => Promise<string[]> | string[]][] = [
  ["analysis core: clustered bootstrap AUC", () => benchBootstrap()],
  ["store and report", () => benchStores()],
  ["site", () => benchSite()],
  ["import: Terminal-Bench tree", () => benchImport()],
  ["leaderboard: many arms", () => benchManyArms()],
];
const only = process.argv[2];
// Minutes per run at scale 100 and beyond: only when asked for (`npm run bench -- scale 100 --against REV`).
if (only === "scale") sections.push(["scale", () => benchScale(process.argv.slice(3))]);
if (only === "arms") sections.push(["arms: leaderboard and compare at scale", () => benchArms(process.argv.slice(3))]);
for (const [name, run] of sections) {
  if (only && !name.startsWith(only)) continue;
  console.log(`# ${name}`);
  for (const line of await run()) console.log(line);
}
