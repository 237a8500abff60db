import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import type { Browser } from "playwright-core";
import type { Server } from "node:http";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeStore } from "../store/write-store.js";
import { treeHash } from "./helpers/run-cli.js";
import { buildSite, offLoopbackConnections, openOffline, PAGES, until } from "./browser/harness.js";
import { tempDir } from "./helpers/temp-dir.js";
import { FRAMEWORK_NPM_PINS } from "../cli/site-guard.js";
import { siteKey } from "../cli/site.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { siteFixture, XSS } from "./browser/site-fixture.js";

const repo = new URL("..", import.meta.url).pathname;
let tmp: string, store: string, dist: string, cache: string, origin: string, server: Server, browser: Browser;
let cli: any, offline: boolean;

const repoCaches = () =>
  ["src/.observablehq", ".site-cache"]
    .map((d) => (existsSync(join(repo, d)) ? treeHash(join(repo, d)) : "absent"))
    .join(" ");
let repoCachesBefore: string;

before(async () => {
  repoCachesBefore = repoCaches();
  // The hostile store's site, built once per run for this file and site-explorer.test.ts: a store and a
  // cache never built before, built inside a network namespace (unshare -n) where the machine has one.
  ({ store, dist, cache, origin, server, browser, cli, offline } = await siteFixture());
  tmp = tempDir("gcpc-site-");
});

after(async () => {
  await browser?.close();
  server?.close();
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

test("the site was built with no network at all (unshare -n), for a store and a cache never built before", (t) => {
  if (!offline) {
    t.skip("NOT PROVEN HERE: `unshare -n` is unavailable (needs root or user namespaces), so the build had a network");
    return;
  }
  // The fresh cache names only the pinned versions (cli/site-guard.ts): no `@latest` was resolved, which
  // would have needed the registry, and nothing else was fetched into it.
  const workspace = readdirSync(cache).find((d) => !d.startsWith("_vendor"))!;
  const npm = join(cache, workspace, "src/.observablehq/cache/_npm");
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
  const index = readFileSync(join(dist, "index.html"), "utf8");
  assert.match(
    index,
    /<title>Overview \| GCPC workbench: site-test store &lt;img src=x onerror=alert\(1\)&gt;<\/title>/,
  );
  assert.doesNotMatch(index, /<img src=x/);
  assert.equal(JSON.parse(readFileSync(join(dist, ".gcpc-site.json"), "utf8")).store, `site-test store ${XSS}`);
  assert.equal(
    repoCaches(),
    repoCachesBefore,
    "the repo's caches (src/.observablehq, .site-cache) are untouched by the tests",
  );
});

test("the test browser is offline: a request off 127.0.0.1, by name or by address, fails and is recorded", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/design`);
  const before = offLoopbackConnections(browser);
  const urls = ["http://example.com/x", "http://93.184.216.34/y", "http://localhost:8080/z"];
  await page.evaluate(`Promise.allSettled(${JSON.stringify(urls)}.map((u) => fetch(u)))`);
  // The failures reach the test through the browser's events: wait until each is recorded.
  await until(() => urls.every((u) => problems.failed.some((f) => f.startsWith(u))));
  for (const url of urls)
    assert.ok(
      problems.failed.some((f) => f.startsWith(url)),
      `${url} failed and was recorded: ${problems.failed}`,
    );
  // They went to the proxy that hangs up, not out: a machine with a network fails them the same way.
  assert.ok(offLoopbackConnections(browser) >= before + urls.length, "each reached the hang-up proxy");
  await page.close();
});

test("a page a test closes is the next test's page: it sees only its own document's problems, and still records them", async () => {
  // A loopback server that takes requests and never answers: the first page's request is still in flight when
  // its test closes the page, and is aborted by whatever the page loads next.
  const hang = createServer(() => {});
  await new Promise<void>((listening) => hang.listen(0, "127.0.0.1", listening));
  const late = `http://127.0.0.1:${(hang.address() as { port: number }).port}/late`;
  try {
    const first = await openOffline(browser, `${origin}/design`);
    await first.page.evaluate(`console.error("from the page before"); fetch(${JSON.stringify(late)}); 1`);
    await first.page.close();
    const next = await openOffline(browser, `${origin}/design`);
    assert.equal(next.page, first.page, "the closed page is reused (no new renderer)");
    const { page, problems } = next;
    await page.evaluate(`fetch("http://example.com/now").catch(() => {})`);
    await until(() => problems.failed.some((f) => f.startsWith("http://example.com/now")));
    const before = [...problems.failed, ...problems.consoleErrors].filter((f) => /late|page before/.test(f));
    assert.deepEqual(before, [], "nothing of the page before reaches the next test");
    await page.close();
  } finally {
    hang.close();
  }
});

test("every page declares the site's icon and the build ships it (no page asks a host for /favicon.ico)", () => {
  for (const path of PAGES) {
    const file = path === "/" ? "index.html" : `${path.slice(1)}.html`;
    const html = readFileSync(join(dist, file), "utf8");
    const icon = html.match(/<link rel="icon" href="\.\/(_file\/favicon\.[0-9a-f]+\.svg)"/);
    assert.ok(icon, `${file}: a <link rel="icon"> to the shipped file`);
    assert.ok(statSync(join(dist, icon[1])).size > 0, `${file}: ${icon[1]} is in the build`);
  }
});

test("every sidebar link works on a plain python3 -m http.server (no clean-URL rewrites)", async () => {
  const port = await freePort();
  const py = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "-d", dist], {
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
      await page.waitForSelector("#synthetic-banner, #real-banner");
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

test("the History page: versions by first run, each step's verdict as gcpc history gives it, linking to Compare", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/history`);
  await page.waitForSelector("#history-steps tbody tr");
  const by = /Versions by (\w+)/.exec((await page.textContent("#history-caption")) ?? "")![1];
  const r = spawnSync(
    process.execPath,
    [join(repo, "bin/gcpc.js"), "history", store, "--order", "started_at", "--by", by, "--format", "json"],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  const h = JSON.parse(r.stdout);
  const rows = await page.locator("#history-steps tbody tr").allTextContents();
  assert.equal(rows.length, h.steps.length);
  h.steps.forEach((s: { from: string; to: string; check: { verdict: string } }, i: number) => {
    assert.ok(rows[i].includes(`${s.from} → ${s.to}`) && rows[i].includes(s.check.verdict), rows[i]);
  });
  const href = await page.locator("a.history-compare").first().getAttribute("href");
  const q = new URL(href!, `${origin}/history`).searchParams;
  assert.deepEqual([q.get("arm"), q.get("arm_a"), q.get("arm_b")], [by, h.steps[0].from, h.steps[0].to]);
  assert.equal((await page.locator("#history-sparklines figure").count()) > 0, true);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("the Checklists page's judge error rates are gcpc consensus's, each rate with its interval (issue 58.2)", async () => {
  const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "consensus", store, "--format", "json"], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout).consensus;
  assert.ok(c && c.rates.length > 0, "the hostile store holds two judges");
  const { page, problems } = await openOffline(browser, `${origin}/checklists`);
  await page.waitForSelector("#consensus-rates tbody tr");
  const f = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));
  const iv = (v: [number, number] | null) => (v ? ` [${v[0].toFixed(3)}, ${v[1].toFixed(3)}]` : " ");
  const rows = await page
    .locator("#consensus-rates tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent)));
  assert.deepEqual(
    rows,
    c.rates.map((x: any) => [
      x.judge,
      x.category,
      String(x.decided),
      `${f(x.sensitivity)}${iv(x.sensitivity_ci)}`,
      `${f(x.specificity)}${iv(x.specificity_ci)}`,
    ]),
  );
  const summary = (await page.textContent("#consensus-summary"))!;
  assert.ok(summary.includes(`of ${c.majority_decided} units where both decide, ${c.majority_disagreements} disagree`));
  assert.ok(summary.includes(`mean consensus credit is ${f(c.mean_consensus_credit)}`), summary);
  assert.match((await page.textContent("#consensus-caption"))!, /200 resamples, seed 20260101:consensus:rates/);
  assert.deepEqual(problems.consoleErrors, []);
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
  assert.match(tb, /droid \/ claude-4-1-opus\s*58\.8% \[49\.0%, 68\.5%\]\s*400\s*235\s*80/);
  assert.match(tb, /NO: the outcome is computed from these items/);
  const tau = (await page.textContent("#source-tau2-sft"))!;
  assert.match(tau, /gcpc \(all items\)[\s\S]*NO: the outcome is computed/);
  assert.match((await page.textContent("#source-tau2-judges"))!, /Krippendorff α \(nominal\) \d\.\d{3} \[/);
  assert.deepEqual(problems.failed, []);
  await page.close();
});

test("a second store built with the same cache shows itself, and a failed build keeps the previous output", async () => {
  // The shared build's output and cache, copied: a second build into them must not change what the other
  // files of the run read. A second small store, with another name and seed, built with the first one's cache.
  const own = join(tmp, "dist");
  const ownCache = join(tmp, "cache");
  cpSync(dist, own, { recursive: true, verbatimSymlinks: true });
  cpSync(cache, ownCache, { recursive: true, verbatimSymlinks: true });
  const second = join(tmp, "second-store");
  const s = generateDemoStore({ seed: 8, scale: 0.1 });
  s.manifest.name = "second test store (synthetic)";
  await writeStore(second, s, "jsonl");
  buildSite(second, own, ownCache);
  const index = readFileSync(join(own, "index.html"), "utf8");
  assert.match(index, /<title>Overview \| GCPC workbench: second test store \(synthetic\)<\/title>/);
  assert.doesNotMatch(index, /site-test store/);
  const r = spawnSync(
    process.execPath,
    [
      join(repo, "bin/gcpc.js"),
      "site",
      join(repo, "test/fixtures/stores/malformed/unknown-label"),
      "--out",
      own,
      "--cache",
      ownCache,
    ],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 2);
  assert.equal(readFileSync(join(own, "index.html"), "utf8"), index, "the previous site is unchanged");
});

// Last in this file: the preview writes into the repo's src/ (its .observablehq cache, data/site.zip, the
// bundles), which the tests above check no build touches.
test("gcpc site --preview (npm run dev) serves the pages on the archive of the build with the same key, reused", async () => {
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
