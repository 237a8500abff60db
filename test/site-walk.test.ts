// Every page of every site the suite builds, walked in one file: the hostile synthetic store's (its evidence,
// a domain and its name are HTML) and the real τ² store's. Each page is loaded once (test/browser/walk.ts: every
// request off the loopback fails and is recorded), then taken through the widths that matter (390 px, a phone;
// 1280 px, a laptop), light and dark, in place, so every view is rendered and checked while the load is paid
// once. Two pages load at a time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import type { Server } from "node:http";
import { launch, PAGES, serve } from "./browser/harness.js";
import { pool, walkPage as walk } from "./browser/walk.js";
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

/** One page through the four views (test/browser/walk.ts): nothing a reader would see go wrong. */
async function walkPage(origin: string, path: string, synthetic: boolean): Promise<void> {
  for (const view of await walk(browser, origin, path, { synthetic })) assert.deepEqual(view.problems, [], view.where);
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
