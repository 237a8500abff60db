// The site of a real store: τ²-bench base vs fine-tuned gpt-4.1. The Compare page's arms mode runs gcpc compare
// in the browser; its printed digits equal the CLI's on the same real store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import type { Browser } from "playwright-core";
import type { Server } from "node:http";
import { launch, openOffline, serve } from "./browser/harness.js";
import { tau2Site } from "./browser/site-fixture.js";
import { readStore } from "../store/read-store.js";
import { assertArmsDigits, gcpcCompareJson } from "./browser/arms-digits.js";

const repo = new URL("..", import.meta.url).pathname;
const store = join(repo, "data/real/tau2-sft");
const FINETUNED = "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm";
let origin: string, server: Server, browser: Browser;

before(async () => {
  // Built once per run, for this file and site-walk.test.ts (which walks every page of it).
  const { dist, buildStderr } = await tau2Site();
  // Not silent while Framework builds: its stages, with the time elapsed.
  assert.match(buildStderr, /gcpc \[[\d.]+ s\] Framework: \d+ pages parsed; \d+ files written/);
  ({ server, origin } = await serve(dist));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test("on the real τ² store the Compare page's arms mode prints the CLI's pass-rate Δ, interval and McNemar p", async () => {
  const query = `?arm=model&arm_a=gpt-4.1&arm_b=${encodeURIComponent(FINETUNED)}`;
  const { page, problems } = await openOffline(browser, `${origin}/compare${query}`);
  await page.waitForSelector("#arms-result");
  const expected = gcpcCompareJson(store, "model=gpt-4.1", `model=${FINETUNED}`);
  assert.equal(await page.textContent("#arms-pairing"), "trial");
  assert.equal(Number(await page.textContent("#arms-pairs")), 140);
  await assertArmsDigits(page, expected);
  assert.equal(await page.locator("#arms-transitions tbody tr").count(), 4);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.failed, []);
  await page.close();
});

test("the first page is the store's arms: the CLI's leaderboard rows, what the store cannot answer, no RQ3 in the sidebar", async () => {
  const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "leaderboard", store, "--format", "json"], {
    encoding: "utf8",
  });
  const board = JSON.parse(r.stdout);
  const { page, problems } = await openOffline(browser, `${origin}/index.html`);
  await page.waitForSelector("#arms-pass-rate table");
  const rows = await page.locator("#arms-pass-rate tbody tr").allTextContents();
  assert.equal(rows.length, board.rows.length);
  board.rows.forEach((x: { arm: string; value: number }, i: number) => {
    assert.ok(rows[i].includes(x.arm), `row ${i}: ${rows[i]}`);
    assert.ok(rows[i].includes(`${(100 * x.value).toFixed(1)}%`), `row ${i}: ${rows[i]}`);
  });
  assert.match(
    (await page.textContent("#capabilities")) ?? "",
    /RQ3 Skill effects — not for this store: no runs both without/,
  );
  const sidebar = await page.locator("#observablehq-sidebar").textContent();
  assert.ok(sidebar!.includes("Overview: your runs") && !sidebar!.includes("RQ3 Skill effects"), sidebar!);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("Compare drills down to the evidence: a τ² task's attempts side by side, each verdict with the judge's words", async () => {
  const { store: frame } = await readStore(store, { evidence: true });
  // A base-model simulation with an NL assertion and a justification, and its task.
  const base = frame.trajectories.find(
    (t) =>
      t.model === "gpt-4.1" &&
      t.harness === "llm_agent" &&
      frame.labels.runs.get(t.trajectory_id)?.[0]?.evidence?.some((e) => e),
  )!;
  const run = frame.labels.runs.get(base.trajectory_id)![0];
  const k = run.evidence!.findIndex((e) => e);
  const query = `?arm=model&arm_a=gpt-4.1&arm_b=${encodeURIComponent(FINETUNED)}&where=harness&where_value=llm_agent&task=${encodeURIComponent(base.task_id)}`;
  const { page, problems } = await openOffline(browser, `${origin}/compare.html${query}`);
  await page.waitForSelector("#task-drill table");
  const text = (await page.textContent("#task-drill")) ?? "";
  assert.ok(text.includes(run.evidence![k]!.slice(0, 60)), "the judge's evidence is shown");
  assert.ok(/outcome\s*(PASS|FAIL)/.test(text.replace(/\s+/g, " ")));
  assert.ok(page.url().includes(`task=${encodeURIComponent(base.task_id)}`), "the task is kept in the URL");
  assert.equal((await page.locator("#arms-scatter svg").count()) > 0, true);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("Compare on τ² has no outcome-free pair of methods: one line says so, naming the methods that are not", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/compare.html?a=gcpc&b=gcpc_outcome`);
  await page.waitForSelector("#methods-hidden");
  assert.match((await page.textContent("#methods-hidden")) ?? "", /gcpc_outcome, not outcome-free/);
  assert.equal(await page.locator("#compare-table, #compare-busy").count(), 0);
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});

test("the Checklists page's items to fix are gcpc items's, and a task opens its drill-down on Compare (issue 58.1)", async () => {
  const r = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "items", store, "--format", "json"], {
    encoding: "utf8",
  });
  const cli = JSON.parse(r.stdout);
  const { page, problems } = await openOffline(browser, `${origin}/checklists`);
  await page.waitForSelector("#items-summary");
  const summary = await page.textContent("#items-summary");
  assert.ok(summary!.includes(`${cli.items} items; ${cli.constant} constant`), summary!);
  assert.ok(summary!.includes(`${cli.informative} of ${cli.tested} informative`), summary!);
  assert.ok(summary!.includes(`seed ${cli.settings.seed}`), summary!);
  const first = page.locator("a.fix-task").first();
  assert.equal(await first.textContent(), cli.to_fix[0].task_id);
  const href = await first.getAttribute("href");
  assert.equal(href, `./compare?task=${encodeURIComponent(cli.to_fix[0].task_id)}#task-drill`);
  // The link opens Compare at that task: its drill-down where the page's arms both ran it, else a line saying so.
  await Promise.all([page.waitForURL(/\/compare\?task=/), first.click()]);
  await page.waitForSelector("#task-drill");
  await page.waitForFunction((task) => {
    const drill = document.querySelector("#task-drill");
    return (
      drill?.getAttribute("data-task") === task ||
      (drill?.textContent ?? "").includes(`Task ${task} has no matched unit`)
    );
  }, cli.to_fix[0].task_id);
  assert.deepEqual(problems.consoleErrors, []);
  assert.deepEqual(problems.failed, []);
  await page.close();
});

test("the Explorer on a store without with/without-skill pairs says so instead of showing empty tables", async () => {
  const { page, problems } = await openOffline(browser, `${origin}/explorer`);
  await page.waitForSelector("#no-pairs");
  assert.match((await page.textContent("#no-pairs"))!, /This store has no FAIL→FAIL pair/);
  // The count is an inline expression of its own cell: wait until it has rendered, not only the note above it.
  await page.waitForFunction(() => (document.querySelector("#pair-count")?.textContent ?? "") !== "");
  assert.equal(await page.textContent("#pair-count"), "0");
  assert.deepEqual(problems.consoleErrors, []);
  await page.close();
});
