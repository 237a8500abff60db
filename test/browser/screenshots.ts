// `npm run screenshots`: builds the site for $GCPC_STORE (default data/demo) and writes one PNG per page
// to test/screenshots/, offline (non-loopback requests aborted), so reviewers can look without a browser.
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
for (const path of PAGES) {
  const { page } = await openOffline(browser, origin + path);
  await page.waitForSelector("#synthetic-banner, #real-banner", { timeout: 60_000 });
  if (path === "/explorer") {
    await page.waitForSelector("#pair-count", { timeout: 60_000 });
    await page.locator("table input[type=radio]").first().check();
    await page.waitForSelector("#changed-count", { timeout: 20_000 });
  }
  await page.waitForTimeout(500);
  const name = path === "/" ? "index" : path.slice(1);
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  console.log(`wrote test/screenshots/${name}.png`);
  await page.close();
}
await browser.close();
server.close();
