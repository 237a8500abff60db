// htl's html`` returns one node: a template whose top level holds several nodes comes back wrapped in a <span>.
// Table cells built that way land in one span inside the row (the Overview's judge-corrected table printed its
// five value cells in one <span> under "judge only": issue 55.3). Cells go in as an array of one-cell templates.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const src = new URL("../src/", import.meta.url).pathname;

/** Every html`…` literal of a page that starts with a cell and holds a second cell at its top level. */
export function severalCellTemplates(text: string): string[] {
  // A literal's text up to its first `${`-free closing backtick is enough: the cells of one literal are siblings.
  const found: string[] = [];
  for (const m of text.matchAll(/html`\s*(<t[dh][\s>][^`]*)/g)) {
    const body = m[1];
    // Top-level cells: a cell that opens right after a cell closes (whitespace between) is a sibling.
    if (/<\/t[dh]>\s*<t[dh][\s>]/.test(body.replace(/\$\{[^{}]*\}/g, ""))) found.push(body.slice(0, 80));
  }
  return found;
}

test("the check finds the old Overview row (five cells in one template) and passes the array of one-cell templates", () => {
  // Written with § for $ (a "$" and "{" in a plain string reads as a mistaken template to the linter).
  const page = (text: string) => text.replaceAll("§", "$");
  const old = page(
    '§{e ? html`<td>§{fmt(a)} §{fmtCI(b)}</td><td><strong>§{fmt(c)}</strong></td>` : html`<td colspan="5">x</td>`}',
  );
  assert.equal(severalCellTemplates(old).length, 1);
  const fixed = page(
    '§{e ? [html`<td>§{fmt(a)} §{fmtCI(b)}</td>`, html`<td><strong>§{fmt(c)}</strong></td>`] : html`<td colspan="5">x</td>`}',
  );
  assert.deepEqual(severalCellTemplates(fixed), []);
});

test("no page builds several table cells in one html`` template", () => {
  const pages = readdirSync(src).filter((f) => f.endsWith(".md"));
  const offenders = pages.flatMap((f) =>
    severalCellTemplates(readFileSync(join(src, f), "utf8")).map((x) => `${f}: ${x}`),
  );
  assert.deepEqual(offenders, []);
});
