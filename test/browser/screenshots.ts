// `npm run screenshots`: builds the site for $GCPC_STORE (default data/demo) and writes one PNG per page
// to test/screenshots/, offline (non-loopback requests fail), so reviewers can look without a browser.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSite, launch, openOffline, PAGES, serve } from "./harness.js";

const repo = new URL("../../", import.meta.url).pathname;
const out = join(repo, "test/screenshots");
const dist = join(repo, "dist");
buildSite(resolve(process.env.GCPC_STORE ?? join(repo, "data/demo")), dist, join(repo, ".site-cache"));
const { server, origin } = await serve(dist);
const browser = await launch();
mkdirSync(out, { recursive: true });
// Every page at desktop (1280 px) and phone (390 px) width, light and dark. JPEG keeps the
// committed set small; the full page is captured so nothing below the fold goes unseen.
for (const path of PAGES) {
  for (const width of [1280, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      const { page } = await openOffline(browser, origin + path, "networkidle", { width, colorScheme });
      await page.waitForSelector("#synthetic-banner, #real-banner");
      if (path === "/explorer") {
        await page.waitForSelector("#pair-count");
        await page.locator("table input[type=radio]").first().check({ force: true });
        await page.waitForSelector("#changed-count");
      }
      // The Compare page computes in a worker: wait for its numbers, not the "Computing…" line.
      if (path === "/compare") await page.waitForSelector("#recompute-ms");
      await page.waitForTimeout(500);
      const name = `${path === "/" ? "index" : path.slice(1)}-${width}-${colorScheme}.jpg`;
      await page.screenshot({ path: join(out, name), fullPage: true, type: "jpeg", quality: 70 });
      console.log(`wrote test/screenshots/${name}`);
      await page.close();
    }
  }
}
await browser.close();
server.close();
