// One page of a built site through the views that matter (390 px and 1280 px, light and dark), checked for what a
// reader would see go wrong: used by test/site-walk.test.ts (the suite's stores) and scripts/walk-stores.ts (every
// bundled store, run by hand).
import type { Browser } from "playwright-core";
import { openOffline, settled } from "./harness.js";
import { lowContrastText } from "./contrast.js";

export const VIEWS = [
  { width: 1280, colorScheme: "light" as const },
  { width: 390, colorScheme: "light" as const },
  { width: 390, colorScheme: "dark" as const },
  { width: 1280, colorScheme: "dark" as const },
];

/**
 * In-page code, as text (tsx's helpers do not exist in the page): every table whose rows hold another number of
 * cells (colspans counted) than its header, as "table K (first header cells): row R has n cells, header m". A
 * row built with its values in one cell (issue 55.3: the Overview's five judge-corrected values in one span)
 * is such a row.
 */
const MISALIGNED_TABLES = `(() => {
  const width = (tr) => [...tr.cells].reduce((n, c) => n + (c.colSpan || 1), 0);
  const out = [];
  [...document.querySelectorAll("table")].forEach((table, k) => {
    const rows = [...table.rows];
    if (rows.length < 2) return;
    const header = table.tHead && table.tHead.rows.length ? table.tHead.rows[table.tHead.rows.length - 1] : rows[0];
    const m = width(header);
    const name = [...header.cells].slice(0, 3).map((c) => c.textContent.trim()).join(" | ");
    for (const tr of rows) {
      if (tr.parentElement === table.tHead) continue;
      if (tr === header) continue;
      // Inputs.table's empty state: one cell spanning rows, "No results." (a placeholder, not a data row).
      if ([...tr.cells].some((c) => c.rowSpan > 1 && c.textContent.trim() === "No results.")) continue;
      const n = width(tr);
      if (n !== m) { out.push("table " + k + " (" + name + "): row " + tr.rowIndex + " has " + n + " cells, header " + m); break; }
    }
  });
  return out;
})()`;

export async function misalignedTables(page: import("playwright-core").Page): Promise<string[]> {
  return (await page.evaluate(MISALIGNED_TABLES)) as string[];
}

/** What one view of a page showed wrong, each as a line; empty when nothing. */
export interface ViewFindings {
  where: string;
  problems: string[];
}

/**
 * Loads one page once, then takes it through {@link VIEWS} in place (Framework re-renders on resize; the CSS media
 * queries re-evaluate): failed requests, console errors, dialogs, error cells, low-contrast text, sideways scroll
 * (wide tables scroll inside their own box), and misaligned tables.
 */
export async function walkPage(
  browser: Browser,
  origin: string,
  path: string,
  o: { synthetic: boolean; views?: typeof VIEWS },
): Promise<ViewFindings[]> {
  const { page, problems } = await openOffline(browser, `${origin}${path}`, "networkidle", VIEWS[0]);
  // A synthetic store's pages say so in a banner, rendered once the page's data is in.
  if (o.synthetic) await page.waitForSelector("#synthetic-banner, #real-banner");
  if (path === "/explorer") await page.waitForSelector("#engine-status:has-text('ready')");
  await settled(page);
  const findings: ViewFindings[] = [];
  for (const view of o.views ?? VIEWS) {
    const where = `${path} at ${view.width} px, ${view.colorScheme}`;
    await page.setViewportSize({ width: view.width, height: 900 });
    await page.emulateMedia({ colorScheme: view.colorScheme });
    // Two animation frames: the resize observers' re-render and the restyle are in by then.
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    const seen: string[] = [];
    const scheme = await page.evaluate(`matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"`);
    if (scheme !== view.colorScheme) seen.push(`the page sees ${scheme}`);
    const width = await page.evaluate("innerWidth");
    if (width !== view.width) seen.push(`the page has width ${width}`);
    for (const e of await page.locator(".observablehq--error").allTextContents()) seen.push(`error cell: ${e}`);
    for (const f of problems.failed) seen.push(`failed request: ${f}`);
    for (const e of problems.consoleErrors) seen.push(`console error: ${e}`);
    for (const d of problems.dialogs) seen.push(`dialog: ${d}`);
    for (const t of await lowContrastText(page)) seen.push(`low contrast: ${t}`);
    const overflow = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
    if (overflow > 5) seen.push(`the page is ${overflow} px wider than the screen`);
    for (const t of await misalignedTables(page)) seen.push(`misaligned ${t}`);
    findings.push({ where, problems: seen });
  }
  await page.close();
  return findings;
}

/** Runs `each` over `items`, at most `width` at a time. */
export async function pool<T>(items: T[], width: number, each: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
    }),
  );
}
