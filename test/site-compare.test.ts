// The Compare page as a user drives it, in Chromium, on the bundled Terminal-Bench store (issue 46): matched units
// only, state through a resize, the per-task table and its CSV, click-through from the chart, the differing-items
// filter and the item × arm heat map.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { launch, openOffline, serve, settled } from "./browser/harness.js";
import { terminalBenchSite } from "./browser/site-fixture.js";
import { gcpcCompareJson } from "./browser/arms-digits.js";

let server: Server;
let origin: string;
let browser: Browser;
let store: string;

before(async () => {
  const site = await terminalBenchSite();
  store = site.store;
  ({ server, origin } = await serve(site.dist));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

const DROID_GOOSE = "?arm=harness&arm_a=droid&arm_b=goose";

async function openCompare(query: string, width = 1280): Promise<Page> {
  const { page, problems } = await openOffline(browser, `${origin}/compare${query}`, "networkidle", { width });
  await page.waitForSelector("#arms-result");
  assert.deepEqual(await page.locator(".observablehq--error").allTextContents(), []);
  assert.deepEqual(problems.consoleErrors, []);
  return page;
}

const taskSelect = (page: Page) =>
  page.locator("form", { has: page.locator("label", { hasText: /^Task$/ }) }).locator("select");
/** The chosen option's text (Inputs.select's options carry their index as value). */
const chosenOption = (page: Page) =>
  taskSelect(page).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
const drillTask = (page: Page) => page.locator("#task-drill").getAttribute("data-task");
const urlTask = (page: Page) => new URL(page.url()).searchParams.get("task");

test("droid vs goose: the rates beside the Δ are the matched units' (the CLI's), the drill-down shows matched attempts only", async () => {
  const cli = gcpcCompareJson(store, "harness=droid", "harness=goose");
  const page = await openCompare(DROID_GOOSE);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  assert.equal(await page.textContent("#arms-rate-a"), pct(cli.pass_rate_delta.rate_a));
  assert.equal(await page.textContent("#arms-rate-b"), pct(cli.pass_rate_delta.rate_b));
  // The all-runs rates are there, labelled as such.
  assert.match(
    (await page.textContent("#arms-all-runs")) ?? "",
    /^All runs, matched or not \(not what the Δ compares\): a 53\.9%/,
  );
  assert.equal(Number(await page.textContent("#task-count")), cli.matched.tasks);
  // A task: every column is one side's attempt in a matched cell, headed by the side and the full arm name.
  const task = (await taskSelect(page).locator("option").nth(1).textContent())!;
  await taskSelect(page).selectOption(task);
  await page.waitForFunction((t) => document.querySelector("#task-drill")?.getAttribute("data-task") === t, task);
  const heads = (await page.locator("#task-drill thead th").allTextContents()).slice(1);
  assert.ok(heads.length > 0);
  const model = (h: string) => h.split(" · ")[1].split(" / ").slice(1).join(" / ");
  const aModels = new Set(heads.filter((h) => h.startsWith("a · droid")).map(model));
  const bModels = new Set(heads.filter((h) => h.startsWith("b · goose")).map(model));
  assert.equal(
    heads.filter((h) => !h.startsWith("a · droid") && !h.startsWith("b · goose")).length,
    0,
    heads.join("|"),
  );
  // Matched on the model (everything else equal): the two sides hold the same models, and each is named.
  assert.deepEqual([...aModels].sort(), [...bModels].sort());
  assert.ok([...aModels].every((m) => m.length > 0));
  await page.close();
});

test("a resize keeps the task: select, drill-down and URL agree before and after", async () => {
  const page = await openCompare(DROID_GOOSE);
  const task = (await taskSelect(page).locator("option").nth(3).textContent())!;
  await taskSelect(page).selectOption(task);
  await page.waitForFunction((t) => document.querySelector("#task-drill")?.getAttribute("data-task") === t, task);
  for (const width of [390, 1280, 700]) {
    await page.setViewportSize({ width, height: 900 });
    await settled(page);
    assert.equal(await chosenOption(page), task, `select at ${width} px`);
    assert.equal(await drillTask(page), task, `drill-down at ${width} px`);
    assert.equal(urlTask(page), task, `URL at ${width} px`);
  }
  // A link copied now opens the same task.
  const again = await openCompare(new URL(page.url()).search);
  assert.equal(await drillTask(again), task);
  await Promise.all([page.close(), again.close()]);
});

test("the per-task table: filters, search, a task link opens the task, and its CSV holds the rows shown", async () => {
  const page = await openCompare(DROID_GOOSE);
  const total = Number(await page.textContent("#task-count"));
  const counts: Record<string, number> = {};
  for (const filter of ["regressions", "improvements", "ties"]) {
    await page.getByLabel(filter, { exact: true }).check();
    await settled(page);
    counts[filter] = Number(await page.textContent("#task-count"));
  }
  assert.equal(counts.regressions + counts.improvements + counts.ties, total, JSON.stringify(counts));
  await page.getByLabel("all", { exact: true }).check();
  // Search one task id.
  const first = (await page.locator("#task-table a.task-link").first().textContent())!;
  await page.getByPlaceholder("search task ids").fill(first);
  await page.waitForFunction(() => document.querySelector("#task-count")?.textContent !== null);
  await settled(page);
  const shown = Number(await page.textContent("#task-count"));
  assert.ok(shown >= 1 && shown < total, `${shown} of ${total}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.locator("#task-count").locator("..").getByRole("button", { name: "download CSV" }).click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\n");
  assert.equal(csv.length, shown + 1);
  assert.match(csv[0], /^task,units,pass a,pass b,Δ pass \(pp\),gcpc a,gcpc b,Δ gcpc$/);
  assert.ok(csv.slice(1).some((line) => line.startsWith(`${first},`)));
  await page.locator("#task-table a.task-link", { hasText: first }).first().click();
  await page.waitForFunction((t) => document.querySelector("#task-drill")?.getAttribute("data-task") === t, first);
  assert.equal(await chosenOption(page), first);
  assert.equal(urlTask(page), first);
  await page.close();
});

test("a click on a dot of the chart opens one of its tasks", async () => {
  const page = await openCompare(DROID_GOOSE);
  const dot = page.locator("#arms-scatter svg circle").first();
  await dot.scrollIntoViewIfNeeded();
  const box = (await dot.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await settled(page);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(() => (document.querySelector("#task-drill")?.getAttribute("data-task") ?? "") !== "");
  const task = await drillTask(page);
  assert.equal(await chosenOption(page), task);
  assert.equal(urlTask(page), task);
  // The dot under the pointer holds that task (the first of its tasks by name).
  const value = await page.locator("#arms-scatter figure").evaluate((f: any) => f.value);
  assert.equal(value.first, task);
  assert.ok(value.names.split(", ").includes(task));
  await page.close();
});

test("only items that differ: the rows left are exactly those whose verdicts differ between the attempts", async () => {
  const page = await openCompare(DROID_GOOSE);
  // A task with some differing and some equal items.
  const options = (await taskSelect(page).locator("option").allTextContents()).slice(1);
  let chosen: string | null = null;
  let before = { rows: 0, differing: 0 };
  for (const task of options) {
    await taskSelect(page).selectOption(task);
    await page.waitForFunction((t) => document.querySelector("#task-drill")?.getAttribute("data-task") === t, task);
    const rows = await page.locator("#task-drill tbody tr").count();
    const differing = await page.locator("#task-drill tbody tr.differs").count();
    if (differing > 0 && differing < rows - 2) {
      chosen = task;
      before = { rows: rows - 2, differing }; // less the outcome and score rows
      break;
    }
  }
  assert.ok(chosen, "a task with differing and equal items");
  await page.getByLabel("Only items that differ").check();
  await page.waitForFunction(
    (n) => document.querySelectorAll("#task-drill tbody tr").length === n + 2,
    before.differing,
  );
  assert.equal(await page.locator("#task-drill tbody tr:not(.differs)").count(), 2);
  assert.equal(new URL(page.url()).searchParams.get("differ"), "1");
  // Verdict chips carry their colour class.
  const classes = await page
    .locator("#task-drill .verdict")
    .evaluateAll((els) => [...new Set(els.map((e) => e.className))]);
  assert.ok(
    classes.every((c) => /^verdict verdict-(yes|no|abstain|grade|na)$/.test(c)),
    classes.join(),
  );
  assert.ok(before.rows > before.differing);
  await page.close();
});

test("the item × arm heat map: one cell per row and arm, marks only where an interval excludes the others' rate", async () => {
  const page = await openCompare("?arm=harness");
  await page.waitForSelector("#item-heat svg");
  const arms = await page
    .locator("form", { has: page.locator("label", { hasText: /^Arm a$/ }) })
    .locator("option")
    .count();
  const rects = await page.locator("#item-heat svg g[aria-label='cell'] rect").count();
  assert.ok(rects > 0 && rects % arms === 0, `${rects} cells for ${arms} arms`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.locator("#item-heat").locator("xpath=following::button[normalize-space()='download CSV'][1]").click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8")
    .trim()
    .split("\n");
  assert.match(csv[0], /^item,task_id,item_id,requirement,arm,yes,decided,abstain,rate,ci_low,ci_high,differs$/);
  assert.equal((csv.length - 1) % arms, 0);
  await page.close();
});

test("the drill-down collapses a side's attempts into one column per arm, their verdicts counted (issue 55.3)", async () => {
  const page = await openCompare(`${DROID_GOOSE}&collapse=1`);
  const task = (await taskSelect(page).locator("option").nth(1).textContent())!;
  await taskSelect(page).selectOption(task);
  await page.waitForFunction((t) => document.querySelector("#task-drill")?.getAttribute("data-task") === t, task);
  const heads = (await page.locator("#task-drill thead th").allTextContents()).slice(1);
  assert.equal(heads.length, 2, heads.join(" | "));
  assert.match(heads[0], /^a · droid .* · \d+ attempt\(s\)$/);
  assert.match(heads[1], /^b · goose .* · \d+ attempt\(s\)$/);
  // The outcome cell counts each side's attempts: the counts add up to the side's attempts.
  const attempts = heads.map((h) => Number(/(\d+) attempt/.exec(h)![1]));
  const outcomes = await page.locator("#task-drill tbody tr").first().locator("td").allTextContents();
  outcomes.slice(1).forEach((cell, i) => {
    const total = [...cell.matchAll(/(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    assert.equal(total, attempts[i], cell);
  });
  await page.close();
});

test("the heat map keeps its text legible on a phone and its row labels distinct (issue 55.3)", async () => {
  for (const width of [390, 1280]) {
    const page = await openCompare("?arm=harness", width);
    await page.waitForSelector("#item-heat svg g[aria-label='cell'] rect");
    // The chart keeps its own size (its box scrolls sideways) instead of shrinking: rendered width = its width.
    const sizes = await page.evaluate(
      `(() => { const svg = [...document.querySelectorAll("#item-heat svg")].find((s) => s.querySelector("g[aria-label='cell']")); return [svg.getBoundingClientRect().width, Number(svg.getAttribute("width"))]; })()`,
    );
    const [rendered, own] = sizes as [number, number];
    assert.ok(Math.abs(rendered - own) < 1, `at ${width} px the chart is drawn at ${rendered} of its ${own} px`);
    const labels = await page.locator("#item-heat svg g[aria-label='y-axis tick label'] text").allTextContents();
    assert.ok(labels.length > 1);
    assert.equal(new Set(labels).size, labels.length, `distinct row labels at ${width} px: ${labels.join(" | ")}`);
    await page.close();
  }
});

test("Terminal-Bench has no outcome-free pair of methods: the methods comparison says so in one line and runs nothing", async () => {
  const page = await openCompare(DROID_GOOSE);
  assert.match(
    (await page.textContent("#methods-hidden")) ?? "",
    /^No methods comparison: this store has no outcome-free/,
  );
  assert.equal(await page.locator("#compare-table, #compare-busy").count(), 0);
  await page.close();
});
