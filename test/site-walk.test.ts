// Every page of every site the suite builds, walked in one file: the hostile synthetic store's (its evidence,
// a domain and its name are HTML) and the real τ² store's. Each page is loaded once (test/browser/harness.ts's
// openOffline: every request off the loopback fails and is recorded), then taken through the widths that matter
// (390 px, a phone; 1280 px, a laptop), light and dark: the viewport and the colour scheme change in place
// (Framework re-renders on resize; the CSS media queries re-evaluate), so every view is rendered and checked
// while the load is paid once. Two pages load at a time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import type { Server } from "node:http";
import { launch, openOffline, PAGES, serve, settled } from "./browser/harness.js";
import { lowContrastText } from "./browser/contrast.js";
import { hostileSite, tau2Site } from "./browser/site-fixture.js";
import { join } from "node:path";

let browser: Browser;
const servers: Server[] = [];

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

const VIEWS = [
  { width: 1280, colorScheme: "light" as const },
  { width: 390, colorScheme: "light" as const },
  { width: 390, colorScheme: "dark" as const },
  { width: 1280, colorScheme: "dark" as const },
];

/** Runs `each` over `items`, at most `width` at a time. */
async function pool<T>(items: T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
    }),
  );
}

/** One page through the four views: no failed request, console error, dialog, error cell, low-contrast text or
 * sideways scroll (wide tables scroll inside their own box). */
async function walkPage(origin: string, path: string, synthetic: boolean): Promise<void> {
  const { page, problems } = await openOffline(browser, `${origin}${path}`, "networkidle", VIEWS[0]);
  // A synthetic store's pages say so in a banner, rendered once the page's data is in.
  if (synthetic) await page.waitForSelector("#synthetic-banner, #real-banner");
  if (path === "/explorer") await page.waitForSelector("#engine-status:has-text('ready')");
  await settled(page);
  for (const view of VIEWS) {
    const where = `${path} at ${view.width} px, ${view.colorScheme}`;
    await page.setViewportSize({ width: view.width, height: 900 });
    await page.emulateMedia({ colorScheme: view.colorScheme });
    // Two animation frames: the resize observers' re-render and the restyle are in by then.
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    const scheme = await page.evaluate(`matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"`);
    assert.equal(scheme, view.colorScheme, `${where}: the page sees the scheme`);
    assert.equal(await page.evaluate("innerWidth"), view.width, `${where}: the page has the width`);
    assert.deepEqual(await page.locator(".observablehq--error").allTextContents(), [], `${where}: error cells`);
    assert.deepEqual(problems.failed, [], `${where}: failed requests`);
    assert.deepEqual(problems.consoleErrors, [], `${where}: console errors`);
    assert.deepEqual(problems.dialogs, [], `${where}: dialogs`);
    assert.deepEqual(await lowContrastText(page), [], `${where}: text below 4.5:1 (3:1 when large)`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 5, `${where}: the page is ${overflow} px wider than the screen`);
  }
  await page.close();
}

async function walkSite(dist: string, synthetic: boolean): Promise<void> {
  const { server, origin } = await serve(dist);
  servers.push(server);
  await pool([...PAGES], 2, (path) => walkPage(origin, path, synthetic));
}

test("every page of the hostile synthetic store, offline, at 390 and 1280 px, light and dark", async () => {
  await walkSite(join(await hostileSite(), "dist"), true);
});

test("every page of the imported τ² store, offline, at 390 and 1280 px, light and dark", async () => {
  // The explorer showed 17 errors on every imported store: an empty pairs table had no columns for DuckDB-wasm.
  await walkSite((await tau2Site()).dist, false);
});
