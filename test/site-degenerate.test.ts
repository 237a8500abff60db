import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import type { Server } from "node:http";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";
import { buildSite, launch, openOffline, serve, settled } from "./browser/harness.js";
import { tempDir } from "./helpers/temp-dir.js";

// "No chart is empty on the degenerate store (AUC 1.0)". A store where GCPC separates
// PASS from FAIL perfectly (every PASS trajectory judged all Yes, every FAIL all No) and which
// holds no human annotations: the charts with a fixed AUC range or a human scatter used to be empty.
let tmp: string, origin: string, server: Server, browser: Browser;

before(async () => {
  tmp = tempDir("gcpc-degenerate-");
  const s = generateDemoStore({ seed: 3, scale: 0.1 });
  const outcome = new Map(s.trajectories.map((t) => [t.trajectory_id, t.outcome]));
  for (const j of s.judgments) {
    const o = outcome.get(j.trajectory_id);
    if (o === "PASS" || o === "FAIL") j.label = o === "PASS" ? "Yes" : "No";
  }
  s.human_ratings = undefined;
  s.human_item_labels = undefined;
  s.human_preferences = undefined;
  s.manifest.name = "degenerate store (synthetic, AUC 1.0)";
  await writeStore(join(tmp, "store"), s, "jsonl");
  // Built with the studentized interval: at AUC 1.0 the sample SE is 0, so it must fall back cleanly.
  buildSite(join(tmp, "store"), join(tmp, "dist"), join(tmp, "cache"), {}, ["--interval", "studentized"]);
  ({ server, origin } = await serve(join(tmp, "dist")));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * Every Plot figure on the page, with the number of its data marks' shapes (axes and grids
 * excluded) and the number of those shapes drawn outside the figure's own box.
 */
async function charts(page: import("playwright-core").Page) {
  return page.$$eval("svg[class^='plot']", (svgs) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const groups = [...svg.querySelectorAll("g[aria-label]")].filter(
        (g) => !/axis|grid|tick label/.test(g.getAttribute("aria-label") ?? ""),
      );
      const shapes = groups.flatMap((g) => [...g.querySelectorAll("circle, rect, path, line, text")]);
      const outside = shapes.filter((el) => {
        const r = el.getBoundingClientRect();
        return r.right < box.left - 1 || r.left > box.right + 1 || r.bottom < box.top - 1 || r.top > box.bottom + 1;
      }).length;
      const title = svg.closest("figure")?.querySelector("h2, h3, figcaption")?.textContent ?? "";
      return { title: title.slice(0, 60), shapes: shapes.length, outside };
    }),
  );
}

interface Visit {
  charts: Awaited<ReturnType<typeof charts>>;
  /** The page's main text once its figures are in. */
  text: string;
  /** The Compare page's method A interval, as printed. */
  aucACi?: string | null;
  consoleErrors: string[];
}

/** Each page loaded once (two at a time), read for all three tests below. */
let visits: Promise<Map<string, Visit>> | undefined;
const PATHS = ["/", "/rq1", "/rq2", "/rq3", "/rq4", "/rq5", "/explorer", "/compare"];

async function visit(path: string): Promise<Visit> {
  const { page, problems } = await openOffline(browser, origin + path);
  await page.waitForSelector("#synthetic-banner, #real-banner");
  if (path === "/explorer") await page.waitForSelector("#pair-count");
  if (path === "/compare") {
    await page.waitForSelector("#compare-table");
    await page.waitForSelector("#auc-a-ci");
  }
  await settled(page);
  const out: Visit = {
    charts: await charts(page),
    text: (await page.textContent("main")) ?? "",
    aucACi: path === "/compare" ? await page.textContent("#auc-a-ci") : undefined,
    consoleErrors: problems.consoleErrors,
  };
  await page.close();
  return out;
}

function visitAll(): Promise<Map<string, Visit>> {
  visits ??= (async () => {
    const out = new Map<string, Visit>();
    const queue = [...PATHS];
    await Promise.all(
      [0, 1].map(async () => {
        for (let p = queue.shift(); p !== undefined; p = queue.shift()) out.set(p, await visit(p));
      }),
    );
    return out;
  })();
  return visits;
}

test("on a store with AUC 1.0 and no human data, no chart on any page is empty or draws outside itself", async () => {
  const seen: string[] = [];
  const all = await visitAll();
  for (const path of PATHS) {
    const { charts, consoleErrors } = all.get(path)!;
    for (const c of charts) {
      seen.push(`${path} ${c.title}`);
      assert.ok(c.shapes > 0, `${path}: chart "${c.title}" is empty`);
      assert.equal(c.outside, 0, `${path}: chart "${c.title}" draws ${c.outside} shapes outside its box`);
    }
    assert.deepEqual(consoleErrors, [], `${path}: console errors`);
  }
  // The pages that draw AUC charts were looked at (RQ1 and RQ4 had a fixed 0.4–1 range).
  assert.ok(seen.some((s) => s.startsWith("/rq1 ")) && seen.some((s) => s.startsWith("/rq4 ")), seen.join("\n"));
});

test("the degenerate store's AUC is 1.0 on the RQ1 page (the case the test is about)", async () => {
  const { text } = (await visitAll()).get("/rq1")!;
  assert.match(text, /1\.000/);
  assert.match(text, /studentized/, "the captions name the interval the site was built with");
});

test("a zero-width interval reads 'degenerate' on every page, as in the report, never '[1.000, 1.000]'", async () => {
  const all = await visitAll();
  for (const path of ["/", "/rq1", "/compare"]) {
    const { text, aucACi } = all.get(path)!;
    assert.match(text, /degenerate: every draw equals the estimate/, path);
    assert.doesNotMatch(text, /\[1\.000, 1\.000\]/, path);
    if (path === "/compare") {
      // GCPC is method A by default: its AUC, computed in the browser, is 1 on every draw.
      assert.equal(aucACi, "degenerate: every draw equals the estimate");
      assert.match(text, /degenerate: standard error 0/, "Obuchowski's SE is 0 at AUC 1");
    }
  }
});
