// `npm run walk [STORE...]`: builds the site of every bundled store (data/demo and each store under data/real, or
// the stores named), offline, and walks every page at 390 and 1280 px, light and dark (test/browser/walk.ts),
// printing what a reader would see go wrong: error cells, failed requests, console errors, low-contrast text,
// sideways scroll, misaligned tables. Exit 1 when any view shows a problem. The suite walks two stores
// (test/site-walk.test.ts); this walks the rest, which take too long to build on every run.
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSite, launch, networkNamespaceAvailable, PAGES, serve } from "./harness.js";
import { pool, walkPage } from "./walk.js";

const repo = new URL("../../", import.meta.url).pathname;
const real = join(repo, "data/real");
const stores = process.argv.slice(2).length
  ? process.argv.slice(2).map((s) => resolve(s))
  : [
      join(repo, "data/demo"),
      ...readdirSync(real)
        .filter((d) => d !== "raw" && existsSync(join(real, d, "store.json")))
        .map((d) => join(real, d)),
    ];
const work = mkdtempSync(join(tmpdir(), "gcpc-walk-"));
const browser = await launch();
let bad = 0;
for (const store of stores) {
  const name = store.replace(repo, "");
  const dist = join(work, name.replaceAll("/", "_"));
  buildSite(store, dist, join(work, "cache"), {}, [], { offline: networkNamespaceAvailable() });
  const { server, origin } = await serve(dist);
  const synthetic = name === "data/demo";
  let views = 0;
  const problems: string[] = [];
  await pool([...PAGES], 2, async (path) => {
    for (const v of await walkPage(browser, origin, path, { synthetic })) {
      views++;
      for (const p of v.problems) problems.push(`${v.where}: ${p}`);
    }
  });
  server.close();
  bad += problems.length;
  console.log(`${name}: ${PAGES.length} pages, ${views} views, ${problems.length} problem(s)`);
  for (const p of problems.sort()) console.log(`  ${p}`);
}
await browser.close();
process.exit(bad ? 1 : 0);
