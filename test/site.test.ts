import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import type { Browser, Page } from "playwright-core";
import type { Server } from "node:http";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";
import { treeHash } from "./helpers/run-cli.js";
import { buildSite, launch, networkNamespaceAvailable, openOffline, PAGES, serve } from "./browser/harness.js";
import { tempDir } from "./helpers/temp-dir.js";
import { assertArmsDigits, gcpcCompareJson } from "./browser/arms-digits.js";
import { FRAMEWORK_NPM_PINS } from "../cli/site-guard.js";
import { siteKey } from "../cli/site.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { lowContrastText } from "./browser/contrast.js";

const XSS = "<img src=x onerror=alert(1)>";
const repo = new URL("..", import.meta.url).pathname;
let tmp: string, store: string, origin: string, server: Server, browser: Browser, cli: any, offline: boolean;

const repoCaches = () =>
  ["src/.observablehq", ".site-cache"]
    .map((d) => (existsSync(join(repo, d)) ? treeHash(join(repo, d)) : "absent"))
    .join(" ");
let repoCachesBefore: string;

before(async () => {
  repoCachesBefore = repoCaches();
  tmp = tempDir("gcpc-site-");
  store = join(tmp, "store");
  // A small synthetic store whose evidence strings are all hostile HTML (rendered text must stay text).
  const s = generateDemoStore({ seed: 7, scale: 0.15 });
  for (const j of s.judgments) if (j.evidence) j.evidence = XSS;
  s.tasks[0].domain = XSS;
  s.manifest.name = `site-test store ${XSS}`;
  await writeStore(store, s, "jsonl");
  // A store and a cache never built before, built inside a network namespace (unshare -n): no request of
  // any kind can leave the machine, so a build that needed the network would fail here.
  offline = networkNamespaceAvailable();
  buildSite(store, join(tmp, "dist"), join(tmp, "cache"), {}, [], { offline });
  ({ server, origin } = await serve(join(tmp, "dist")));
  browser = await launch();
  const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "report", store, "--format", "json"], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  cli = JSON.parse(r.stdout);
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test("the site was built with no network at all (unshare -n), for a store and a cache never built before", (t) => {
  if (!offline) {
    t.skip("NOT PROVEN HERE: `unshare -n` is unavailable (needs root or user namespaces), so the build had a network");
    return;
  }
  // The fresh cache names only the pinned versions (cli/site-guard.ts): no `@latest` was resolved, which
  // would have needed the registry, and nothing else was fetched into it.
  const workspace = readdirSync(join(tmp, "cache")).find((d) => !d.startsWith("_vendor"))!;
  const npm = join(tmp, "cache", workspace, "src/.observablehq/cache/_npm");
  const names = readdirSync(npm).flatMap((d) =>
    d.startsWith("@") ? readdirSync(join(npm, d)).map((x) => `${d}/${x}`) : [d],
  );
  const pinned = Object.entries(FRAMEWORK_NPM_PINS).map(([n, v]) => `${n}@${v}`);
  for (const p of pinned) assert.ok(names.includes(p), `${p} pinned`);
  const unexpected = names.filter(
    (n) => !pinned.includes(n) && !/^(@observablehq\/plot|apache-arrow|arquero|d3|d3-dsv|htl)@/.test(n),
  );
  assert.deepEqual(unexpected, []);
  for (const n of names) assert.equal(readdirSync(join(npm, n)).length, 0, `${n}: nothing was downloaded`);
});

test("the build names its store in every page's static HTML, escaped; the repo's own caches are untouched", () => {
  const index = readFileSync(join(tmp, "dist/index.html"), "utf8");
  assert.match(
    index,
    /<title>Overview \| GCPC workbench: site-test store &lt;img src=x onerror=alert\(1\)&gt;<\/title>/,
  );
  assert.doesNotMatch(index, /<img src=x/);
  assert.equal(JSON.parse(readFileSync(join(tmp, "dist/.gcpc-site.json"), "utf8")).store, `site-test store ${XSS}`);
  assert.equal(
    repoCaches(),
    repoCachesBefore,
    "the repo's caches (src/.observablehq, .site-cache) are untouched by the tests",
  );
});

test("every sidebar link works on a plain python3 -m http.server (no clean-URL rewrites)", async () => {
  const port = 18000 + Math.floor(Math.random() * 2000);
  const py = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "-d", join(tmp, "dist")], {
    stdio: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      try {
        await fetch(`${base}/`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const { page, problems } = await openOffline(browser, `${base}/`);
    const links = await page
      .locator("#observablehq-sidebar a[href]")
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute("href")!));
    assert.ok(links.length >= PAGES.length, `sidebar links: ${links}`);
    for (const href of links) {
      await page.goto(`${base}/`);
      await page.locator(`#observablehq-sidebar a[href="${href}"]`).first().click();
      await page.waitForSelector("#synthetic-banner, #real-banner", { timeout: 30_000 });
    }
    // Navigating on aborts the previous page's pending loads (net::ERR_ABORTED): not a failure of the server.
    assert.deepEqual(
      problems.failed.filter((f) => !f.includes("ERR_ABORTED")),
      [],
      "no 404 or failed request",
    );
    assert.equal(
      new URL(page.url()).pathname,
      `/${links[links.length - 1].replace(/^\.\//, "")}`,
      "the last link landed on its page",
    );
    await page.close();
  } finally {
    py.kill();
  }
});

test("every page renders offline at 390 and 1280 px, light and dark: no failed request, console error, dialog or low-contrast text", async () => {
  // Each page is loaded once, in a fresh context (empty cache), then taken through the four views: the
  // viewport and the colour scheme change in place (Framework re-renders on resize; the CSS media queries
  // re-evaluate), so every view is rendered and checked while the load is paid once, not four times.
  const views = [
    { width: 1280, colorScheme: "light" as const },
    { width: 390, colorScheme: "light" as const },
    { width: 390, colorScheme: "dark" as const },
    { width: 1280, colorScheme: "dark" as const },
  ];
  for (const path of PAGES) {
    const { page, problems } = await openOffline(browser, origin + path, "networkidle", views[0]);
    await page.waitForSelector("#synthetic-banner, #real-banner", { timeout: 30_000 });
    if (path === "/explorer") await page.waitForSelector("#pair-count", { timeout: 60_000 });
    await page.waitForTimeout(300);
    for (const view of views) {
      const where = `${path} at ${view.width} px, ${view.colorScheme}`;
      await page.setViewportSize({ width: view.width, height: 900 });
      await page.emulateMedia({ colorScheme: view.colorScheme });
      // Two animation frames: the resize observers' re-render and the restyle are in by then.
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      const scheme = await page.evaluate(`matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"`);
      assert.equal(scheme, view.colorScheme, `${where}: the page sees the scheme`);
      assert.equal(await page.evaluate("innerWidth"), view.width, `${where}: the page has the width`);
      assert.deepEqual(problems.failed, [], `${where}: failed requests`);
      assert.deepEqual(problems.consoleErrors, [], `${where}: console errors`);
      assert.deepEqual(problems.dialogs, [], `${where}: dialogs`);
      assert.deepEqual(await lowContrastText(page), [], `${where}: text below 4.5:1 (3:1 when large)`);
    }
    await page.close();
  }
});

test("headline numbers on the pages equal the CLI's JSON for the same store", async () => {
  const { page } = await openOffline(browser, `${origin}/`);
  assert.equal(await page.textContent("#binary-count"), String(cli.counts.binary));
  assert.equal(await page.textContent("#dedup-count"), String(cli.counts.duplicates_dropped));
  await page.close();
  const rq1 = await openOffline(browser, `${origin}/rq1`);
  await rq1.page.waitForSelector("#paired-delta");
  assert.equal(await rq1.page.textContent("#paired-delta"), cli.rq1.paired.delta.toFixed(3));
  assert.equal(await rq1.page.textContent("#paired-positive"), `${(100 * cli.rq1.paired.positive_share).toFixed(1)}%`);
  await rq1.page.close();
});

test("the compare page recomputes in the browser and equals the CLI's JSON (default and two non-default choices)", async () => {
  const f3 = (x: number) => x.toFixed(3);
  const ci3 = (c: [number, number]) => `[${f3(c[0])}, ${f3(c[1])}]`;
  const read = async (query: string) => {
    const { page, problems } = await openOffline(browser, `${origin}/compare${query}`);
    await page.waitForSelector("#auc-a", { timeout: 60_000 });
    const text = async (sel: string) => ((await page.locator(sel).count()) ? await page.textContent(sel) : null);
    const out = {
      a: await text("#auc-a"),
      aci: await text("#auc-a-ci"),
      b: await text("#auc-b"),
      bci: await text("#auc-b-ci"),
      delta: await text("#delta"),
      dci: await text("#delta-ci"),
      p: await text("#test-p"),
      ms: Number(await text("#recompute-ms")),
      // The worker's "Computing…" line is gone once the numbers are shown.
      busy: await page.locator("#compare-busy").count(),
    };
    assert.deepEqual(problems.consoleErrors, []);
    await page.close();
    return out;
  };
  const auc = (m: string) => cli.rq1.auc.find((a: any) => a.method === m);
  const def = await read("");
  assert.equal(def.a, f3(auc("gcpc").auc));
  assert.equal(def.aci, ci3(auc("gcpc").ci));
  assert.equal(def.delta, f3(cli.rq1.paired.delta));
  assert.equal(def.dci, ci3(cli.rq1.paired.ci));
  assert.ok(Number.isFinite(def.ms));
  assert.equal(def.busy, 0);
  // Two other methods: the same seeds ("<seed>:rq1:auc:<method>") give the CLI's estimates and intervals.
  const other = await read("?a=generic&b=tick");
  assert.equal(other.a, f3(auc("generic").auc));
  assert.equal(other.aci, ci3(auc("generic").ci));
  assert.equal(other.b, f3(auc("tick").auc));
  assert.equal(other.bci, ci3(auc("tick").ci));
  // A subset: GCPC on the curated condition equals the CLI's RQ1 by-condition estimate.
  // Subsets: GCPC on one condition equals the CLI's RQ1 by-condition row to the last printed digit, interval
  // included (the page seeds it as the CLI does, "rq1:condition:<c>"; it once used "rq1:auc:gcpc" and drew
  // other resamples: 0.746 against the CLI's 0.747).
  for (const condition of ["curated", "none"]) {
    const sub = await read(`?condition=${condition}`);
    const byCondition = cli.rq1.by_condition.find((a: any) => a.method === `gcpc (${condition})`);
    assert.equal(sub.a, f3(byCondition.auc));
    assert.equal(sub.aci, ci3(byCondition.ci));
  }
});

test("the compare page's arms mode runs gcpc compare in the browser: the CLI's digits, automatic and trial pairing", async () => {
  for (const pair of ["", "trial"]) {
    const query = `?arm=condition&arm_a=none&arm_b=curated${pair ? `&pair=${pair}` : ""}`;
    const { page, problems } = await openOffline(browser, `${origin}/compare${query}`);
    await page.waitForSelector("#arms-result", { timeout: 60_000 });
    const expected = gcpcCompareJson(store, "condition=none", "condition=curated", pair ? ["--pair", pair] : []);
    await assertArmsDigits(page, expected);
    if (pair === "trial")
      assert.ok((await page.locator("#arms-transitions tbody tr").count()) === 4, "four transitions");
    assert.deepEqual(problems.consoleErrors, []);
    await page.close();
  }
});

test("the explorer lists the FAIL→FAIL pairs of any two arms (the CLI's count), their criteria, and keeps the arms in the URL", async () => {
  const expected = gcpcCompareJson(
    store,
    `harness=${cli.rq3.pairs[0].harness}`,
    `harness=${cli.rq3.pairs.find((p: any) => p.harness !== cli.rq3.pairs[0].harness).harness}`,
    ["--pair", "trial"],
  );
  const [a, b] = [expected.a.selector.harness, expected.b.selector.harness];
  const url = `${origin}/explorer?arm=harness&arm_a=${encodeURIComponent(a)}&arm_b=${encodeURIComponent(b)}`;
  const { page, problems } = await openOffline(browser, url);
  await page.waitForSelector("#arms-ff-count", { timeout: 60_000 });
  assert.equal(Number(await page.textContent("#arms-ff-count")), expected.transitions["FAIL→FAIL"].n);
  assert.match(page.url(), new RegExp(`arm=harness&arm_a=${encodeURIComponent(a)}&arm_b=${encodeURIComponent(b)}`));
  if (expected.transitions["FAIL→FAIL"].n > 0) {
    const firstRow = page.locator("#arms-ff-count").locator("xpath=../following::form[1]//tbody//tr[1]");
    const task = (await firstRow.locator("td").nth(1).textContent())!.trim();
    await firstRow.locator("input").check({ force: true });
    await page.waitForSelector("#arms-changed-count", { timeout: 20_000 });
    // Every criterion of the chosen pair's task is listed (the store's own checklist), the changed ones counted.
    const items = readFileSync(join(store, "items.jsonl"), "utf8")
      .trim()
      .split("\n")
      .filter((l) => JSON.parse(l).task_id === task).length;
    assert.ok(items > 0, `task ${task} has items`);
    assert.equal(await page.locator("#arms-pair-detail tbody tr").count(), items);
    assert.ok(Number(await page.textContent("#arms-changed-count")) <= items);
  }
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("brushing the explorer's Δ histogram filters the table to the CLI's count for that range", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/explorer`);
  await page.waitForSelector("#delta-histogram svg", { timeout: 60_000 });
  const ff = cli.rq3.pairs.filter((p: any) => p.transition === "FAIL→FAIL");
  await page
    .waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, ff.length, {
      timeout: 60_000,
    })
    .catch(() => {});
  const svg = page.locator("#delta-histogram svg").first();
  const box = (await svg.boundingBox())!;
  const width = Number(await svg.getAttribute("width"));
  // The histogram's x scale: domain [−1.025, 1.025] over [marginLeft 45, width − marginRight 20].
  const px = (v: number) => box.x + 45 + ((v + 1.025) / 2.05) * (width - 65);
  await page.mouse.move(px(0.1), box.y + 80);
  await page.mouse.down();
  await page.mouse.move(px(0.5), box.y + 80, { steps: 8 });
  await page.mouse.up();
  const expected = ff.filter((p: any) => p.delta >= 0.1 && p.delta <= 0.5).length;
  await page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, expected, {
    timeout: 20_000,
  });
  assert.equal(Number(await page.textContent("#pair-count")), expected);
  assert.match(page.url(), /min=0\.1&max=0\.5/);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("clicking a criterion bar keeps the CLI's count of pairs in which it moved; a category click survives a reload", async () => {
  const count = async (page: import("playwright-core").Page) => Number(await page.textContent("#pair-count"));
  const { page, problems } = await openOffline(browser, `${origin}/explorer`);
  await page.waitForSelector("#criterion-bars rect[data-key]", { timeout: 60_000 });
  const all = await count(page);
  const key = (await page.getAttribute("#criterion-bars rect[data-key]", "data-key"))!;
  const [task, item] = key.split(" · ");
  const c = cli.rq3.criteria_fail_fail.find((x: any) => x.task_id === task && x.item_id === item);
  await page.click(`#criterion-bars rect[data-key="${key}"]`);
  await page.waitForSelector("#clear-criterion", { timeout: 20_000 });
  // A pair counts once per criterion: the pairs in which it moved are its improved + regressed pairs.
  await page.waitForFunction(
    (n) => Number(document.querySelector("#pair-count")?.textContent) === n,
    c.improved + c.regressed,
    {
      timeout: 20_000,
    },
  );
  assert.match(page.url(), new RegExp(`ctask=${encodeURIComponent(task)}&citem=${encodeURIComponent(item)}`));
  await page.click("#clear-criterion");
  await page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, all, {
    timeout: 20_000,
  });
  // Category: click, note the count and URL, reload that URL: same filter, same count.
  const category = (await page.getAttribute("#category-bars rect[data-key]", "data-key"))!;
  await page.click(`#category-bars rect[data-key="${category}"]`);
  await page.waitForSelector("#clear-category", { timeout: 20_000 });
  await page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) !== n, all, {
    timeout: 20_000,
  });
  const filtered = await count(page);
  assert.ok(filtered > 0 && filtered < all, `${filtered} of ${all}`);
  const url = page.url();
  assert.match(url, /category=/);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
  const again = await openOffline(browser, url);
  await again.page.waitForSelector("#clear-category", { timeout: 60_000 });
  await again.page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, filtered, {
    timeout: 60_000,
  });
  await again.page.close();
});

test("the explorer's per-criterion McNemar p and BH q equal the library's (the CLI's RQ3 criteria)", async () => {
  const { page } = await openOffline(browser, `${origin}/explorer`);
  await page.waitForSelector("#criteria-table tbody tr td", { timeout: 60_000 });
  const ff = cli.rq3.pairs.filter((p: any) => p.transition === "FAIL→FAIL").length;
  await page
    .waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, ff, { timeout: 60_000 })
    .catch(() => {});
  await page.waitForTimeout(500);
  const header = await page.locator("#criteria-table thead th").allTextContents();
  const cells = await page.locator("#criteria-table tbody tr").first().locator("td").allTextContents();
  const col = (name: string) => cells[header.indexOf(name)];
  const row = cli.rq3.criteria_fail_fail.find((c: any) => c.task_id === col("task_id") && c.item_id === col("item_id"));
  assert.ok(row, `criterion ${col("task_id")}/${col("item_id")} in the CLI's JSON`);
  assert.equal(Number(col("improved")), row.improved);
  assert.equal(Number(col("regressed")), row.regressed);
  assert.ok(Math.abs(Number(col("mcnemar_p")) / row.mcnemar_p - 1) < 1e-3, `${col("mcnemar_p")} vs ${row.mcnemar_p}`);
  assert.ok(Math.abs(Number(col("bh_q")) / row.bh_q - 1) < 1e-3, `${col("bh_q")} vs ${row.bh_q}`);
  await page.close();
});

test("figures download as SVG and PNG with no network", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/rq1`);
  await page.waitForSelector(".download-svg", { timeout: 30_000 });
  const [svg] = await Promise.all([page.waitForEvent("download"), page.locator(".download-svg").first().click()]);
  const svgText = readFileSync((await svg.path())!, "utf8");
  assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg.suggestedFilename(), /^rq1-figure-1\.svg$/);
  const [png] = await Promise.all([page.waitForEvent("download"), page.locator(".download-png").first().click()]);
  const bytes = readFileSync((await png.path())!);
  assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "a PNG file");
  assert.deepEqual(problems.failed, []);
  await page.close();
});

/** WCAG 2 contrast ratio of two computed CSS colours ("rgb(r, g, b)"). */
function contrast(fg: string, bg: string): number {
  const lum = (c: string) => {
    const [r, g, b] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

/** Clicks the first pair of the explorer's table until its changed criteria show: under load the
 * table can still be re-rendering (DuckDB-wasm answering the URL's filter) when the first click lands. */
async function choosePairWithChanges(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.locator("form table tbody tr").first().locator("td").nth(2).click();
    const shown = await page
      .waitForSelector("#pair-detail tr.changed", { timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return;
    if (attempt === 3) throw new Error("no changed criteria shown after 3 clicks on the first pair");
  }
}

test("in dark mode the explorer's highlighted changed rows keep a contrast of at least 4.5:1", async () => {
  // Pairs with Δ ≥ 0.05 have changed criteria. "#pair-detail" exists before any choice (its
  // placeholder), so wait for the changed rows themselves, not for the element.
  const { page } = await openOffline(browser, `${origin}/explorer?min=0.05`, "networkidle", { colorScheme: "dark" });
  await page.waitForSelector("form table tbody tr", { timeout: 60_000 });
  await choosePairWithChanges(page);
  const rows = await page.locator("#pair-detail tr.changed td").evaluateAll((tds) =>
    tds.slice(0, 5).map((td) => {
      const s = getComputedStyle(td);
      const row = getComputedStyle(td.parentElement as Element);
      return [s.color, row.backgroundColor];
    }),
  );
  assert.ok(rows.length > 0, "a changed row to check");
  for (const [fg, bg] of rows) assert.ok(contrast(fg, bg) >= 4.5, `${fg} on ${bg}: ${contrast(fg, bg).toFixed(2)}`);
  await page.close();
});

test("the explorer filters pairs, shows a chosen pair's changed criteria, and renders hostile evidence as text", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/explorer`);
  await page.waitForSelector("#pair-count", { timeout: 60_000 });
  const ff = cli.rq3.transitions.find((t: any) => t.group === "FAIL→FAIL").n;
  // The count first renders before DuckDB-wasm has loaded the pairs: wait for the query's answer.
  await page
    .waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, ff, { timeout: 60_000 })
    .catch(() => {});
  const before = Number(await page.textContent("#pair-count"));
  assert.equal(before, ff, "unfiltered count equals the CLI's FAIL→FAIL n");
  const atLeast = page.locator("form", { hasText: "Δ at least" }).locator("input[type=number]");
  await atLeast.fill("0.05");
  await atLeast.dispatchEvent("input");
  await page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) !== n, before, {
    timeout: 20_000,
  });
  const after = Number(await page.textContent("#pair-count"));
  const expected = cli.rq3.pairs.filter((p: any) => p.transition === "FAIL→FAIL" && p.delta >= 0.05).length;
  assert.equal(after, expected);
  assert.ok(after > 0 && after < before);
  // A click on a row's cell (not its radio button) selects the pair.
  await choosePairWithChanges(page);
  const changed = Number(await page.textContent("#changed-count"));
  assert.ok(changed > 0, "a pair with Δ ≥ 0.05 has changed criteria");
  assert.equal(await page.locator("#pair-detail tr.changed").count(), changed);
  assert.ok(
    (await page.locator("#pair-detail td.evidence", { hasText: XSS }).count()) > 0,
    "evidence shown as literal text",
  );
  assert.equal(await page.locator("#pair-detail img").count(), 0, "no element injected");
  assert.deepEqual(problems.dialogs, []);
  // The filter and the selected pair are in the URL; opening that URL restores both (same count, same pair).
  assert.match(page.url(), /[?&]min=0\.05/);
  await page.waitForFunction(() => /[?&]pair=/.test(location.search), null, { timeout: 10_000 });
  const detail = await page.textContent("#pair-detail");
  const shared = await openOffline(browser, page.url());
  await shared.page.waitForFunction((n) => Number(document.querySelector("#pair-count")?.textContent) === n, expected, {
    timeout: 60_000,
  });
  assert.equal(Number(await shared.page.textContent("#pair-count")), expected);
  await shared.page.waitForSelector("#changed-count", { timeout: 20_000 });
  assert.equal(await shared.page.textContent("#pair-detail"), detail, "the shared URL selects the same pair");
  await shared.page.close();
  await page.close();
});

test("the Real evaluations page shows the registry uplift recomputed from the CSV (matched cells), with its CI", async () => {
  const csv = readFileSync(join(repo, "data/real/raw/skillsbench-registry/results-registry.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
  // Only (task, model) cells that ran both conditions enter an uplift (each holds 3 trials a side).
  const cell = (r: string[]) => `${r[0]}|${r[1]}`;
  const both = new Set(
    csv.filter((r) => r[5] === "No Skills" && csv.some((q) => q[5] === "With Skills" && cell(q) === cell(r))).map(cell),
  );
  const matched = csv.filter((r) => both.has(cell(r)));
  const sum = (cond: string, col: number) =>
    matched.filter((r) => r[5] === cond).reduce((n, r) => n + Number(r[col]), 0);
  const uplift = sum("With Skills", 8) / sum("With Skills", 7) - sum("No Skills", 8) / sum("No Skills", 7);
  const { page, problems } = await openOffline(browser, `${origin}/real`);
  await page.waitForSelector("#uplift");
  assert.equal(await page.textContent("#uplift"), `${(100 * uplift).toFixed(1)} pp`);
  assert.match((await page.textContent("#uplift-ci"))!, /^\[\d+\.\d, \d+\.\d\] pp$/);
  // Each real source in one screen: Terminal-Bench's published accuracy (droid + claude-4-1-opus: 235/400) and
  // its not-outcome-free GCPC; τ²'s outcome-free GCPC beside the flagged all-items row; the judges' agreement.
  const tb = (await page.textContent("#source-terminal-bench"))!;
  assert.match(tb, /droid \/ claude-4-1-opus\s*400\s*235\s*80\s*58\.8% \[/);
  assert.match(tb, /NO: the outcome is computed from these items/);
  const tau = (await page.textContent("#source-tau2-sft"))!;
  assert.match(tau, /gcpc \(all items\)[\s\S]*NO: the outcome is computed/);
  assert.match((await page.textContent("#source-tau2-judges"))!, /Krippendorff α \(nominal\) \d\.\d{3} \[/);
  assert.deepEqual(problems.failed, []);
  await page.close();
});

test("a second store built with the same cache shows itself, and a failed build keeps the previous output", async () => {
  const dist = join(tmp, "dist");
  // A second small store, with another name and seed (the first test store's cache is the same folder).
  const second = join(tmp, "second-store");
  const s = generateDemoStore({ seed: 8, scale: 0.1 });
  s.manifest.name = "second test store (synthetic)";
  await writeStore(second, s, "jsonl");
  buildSite(second, dist, join(tmp, "cache"));
  const index = readFileSync(join(dist, "index.html"), "utf8");
  assert.match(index, /<title>Overview \| GCPC workbench: second test store \(synthetic\)<\/title>/);
  assert.doesNotMatch(index, /site-test store/);
  const r = spawnSync(
    process.execPath,
    [
      join(repo, "bin/gcpc.js"),
      "site",
      join(repo, "test/fixtures/stores/malformed/unknown-label"),
      "--out",
      dist,
      "--cache",
      join(tmp, "cache"),
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 2);
  assert.equal(readFileSync(join(dist, "index.html"), "utf8"), index, "the previous site is unchanged");
});

/** A free TCP port on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((settle, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => settle(port));
    });
    server.on("error", fail);
  });
}

// Last in this file: the preview writes into the repo's src/ (its .observablehq cache, data/site.zip, the
// bundles), which the tests above check no build touches.
test("gcpc site --preview (npm run dev) serves the pages on the archive of the build with the same key, reused", async () => {
  const cache = join(tmp, "cache");
  const keyOf = () => siteKey({ store, seed: DEFAULT_SETTINGS.seed, interval: "percentile" }).key;
  const key = keyOf();
  // Built by before(): the preview of the same store and settings must find it, not compute another.
  const archive = join(cache, key, "src/data/site.zip");
  const builtAt = statSync(archive).mtimeMs;
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(repo, "bin/gcpc.js"), "site", store, "--preview", "--port", String(port), "--cache", cache],
    { cwd: repo, detached: true, stdio: "ignore" },
  );
  try {
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    while ((await fetch(`${origin}/rq1.html`).catch(() => undefined))?.ok !== true) {
      if (Date.now() > deadline) throw new Error("timed out after 120 s waiting for the preview server");
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(statSync(archive).mtimeMs, builtAt, "the build's archive was reused, not recomputed");
    assert.ok(readFileSync(join(repo, "src/data/site.zip")).equals(readFileSync(archive)));
    const html = await (await fetch(`${origin}/rq1.html`)).text();
    assert.match(html, /site-test store &lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /<img src=x/);
    // The page's data is this store's analysis: the CLI's figure for the same store and seed.
    const report = await (await fetch(`${origin}/_file/data/site/report.json`)).json();
    assert.equal(report.store.name, `site-test store ${XSS}`);
    assert.deepEqual(report.rq1.auc[0], cli.rq1.auc[0]);
    // What the preview wrote into src/ (archive, bundles) is not a source: the key is unchanged.
    assert.equal(keyOf(), key);
  } finally {
    process.kill(-child.pid!, "SIGTERM");
  }
});
