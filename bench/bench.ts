// `npm run bench`: timings only; never asserted in tests (DEVELOPERS: speed is measured by a script).
import { benchBootstrap } from "./bootstrap-bench.js";

const sections: [string, () => Promise<string[]> | string[]][] = [["analysis core", () => benchBootstrap()]];
for (const [name, run] of sections) {
  console.log(`# ${name}`);
  for (const line of await run()) console.log(line);
}
