// `node --import tsx scripts/walk-bundled-sites.ts [OUT]`: builds the site of every bundled store (the demo and each
// under data/real; METR with its OpenAI lineage order) into OUT (default a temporary folder) and walks every page
// of each, offline, at 390 and 1280 px, light and dark, with the suite's checks (test/browser/walk.ts: failed
// requests, console errors, error cells, contrast, sideways scroll, misaligned tables). Prints each problem and a
// count; exits 1 when there is one. Not part of `npm test` (nine site builds): run it after a page changes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, PAGES, serve } from "../test/browser/harness.js";
import { pool, walkPage } from "../test/browser/walk.js";

const repo = join(import.meta.dirname, "..");
const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), "gcpc-walk-"));
const stores: { name: string; args: string[]; synthetic: boolean }[] = [
  { name: "demo", args: ["data/demo"], synthetic: true },
  ...readdirSync(join(repo, "data/real"))
    .filter((d) => d !== "raw")
    .sort()
    .map((d) => ({
      name: d,
      args: [`data/real/${d}`, ...(d === "metr" ? ["--order", "data/real/raw/metr-runs/openai-lineage.csv"] : [])],
      synthetic: false,
    })),
];
const browser = await launch();
let views = 0;
let problems = 0;
for (const s of stores) {
  const dist = join(out, s.name);
  const built = spawnSync(process.execPath, ["bin/gcpc.js", "site", ...s.args, "--out", dist], {
    cwd: repo,
    encoding: "utf8",
  });
  if (built.status !== 0) {
    console.log(`${s.name}: site build failed\n${built.stderr}`);
    problems++;
    continue;
  }
  const { server, origin } = await serve(dist);
  await pool([...PAGES], 2, async (path) => {
    for (const v of await walkPage(browser, origin, path, { synthetic: s.synthetic })) {
      views++;
      for (const p of v.problems) {
        problems++;
        console.log(`${s.name} ${v.where}: ${p}`);
      }
    }
  });
  server.close();
  console.log(`${s.name}: walked ${PAGES.length} pages`);
}
await browser.close();
console.log(`${stores.length} stores, ${views} views (page × width × scheme), ${problems} problems; sites in ${out}`);
process.exitCode = problems ? 1 : 0;
