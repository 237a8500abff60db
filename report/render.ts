import { guardFormula } from "./formula-guard.js";
import type { Section } from "./sections.js";
import { stripControl } from "./strip-control.js";
import { TIDY_COLUMNS, type TidyRow } from "./tidy.js";

/**
 * Escapes text for Markdown (cells, headings, captions): store text is untrusted, so anything that could open
 * HTML becomes an entity (`&`, and a `<` before a letter, `/`, `!` or `?`: a tag, closing tag, comment or
 * declaration, CommonMark §6.6), Markdown syntax is backslash-escaped, pipes cannot end a cell, newlines cannot
 * end a block, and control characters are dropped. A `>` is left as it is: without a `<` it opens nothing, and
 * an escaped line never starts with it (a blockquote); "Δ > 0.10" printed as "Δ &gt; 0.10" in the terminal.
 */
export function escapeMarkdownCell(x: unknown): string {
  return stripControl(String(x ?? ""))
    .replaceAll("&", "&amp;")
    .replace(/<(?=[A-Za-z/!?])/g, "&lt;")
    .replace(/[\\`*_#|]/g, (c) => `\\${c}`)
    .replaceAll("](", "]\\(") // no [text](url) link can form; intervals like [0.1, 0.2] stay readable
    .replace(/[\r\n\t]+/g, " ");
}

/** CSV cell (RFC 4180) protected against formula injection: cells starting with = + - @ (or tab/CR) get a leading '. */
export function csvCell(x: unknown): string {
  // Store text may carry terminal escape codes: a CSV keeps none (it is printed and opened as text).
  const s = guardFormula(x === null || x === undefined ? "" : stripControl(String(x)));
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function renderMarkdown(sections: Section[], header: string): string {
  const out = [header, ""];
  for (const s of sections) {
    out.push(`## ${escapeMarkdownCell(s.title)}`, "", `_${escapeMarkdownCell(s.caption)}_`, "");
    out.push(`| ${s.columns.map(escapeMarkdownCell).join(" | ")} |`, `|${s.columns.map(() => "---").join("|")}|`);
    for (const r of s.rows) out.push(`| ${r.map(escapeMarkdownCell).join(" | ")} |`);
    out.push("");
  }
  return out.join("\n");
}

/** A tidy CSV value: a number bare, null empty, text as {@link csvCell}. */
export const csvValue = (v: string | number | null): string =>
  v === null ? "" : typeof v === "number" ? String(v) : csvCell(v);

/** Tidy CSV (RFC 4180): one row per figure (see tidy.ts); numbers bare, text cells formula-guarded. */
export function renderTidyCsv(rows: TidyRow[]): string {
  const lines = rows.map((r) => TIDY_COLUMNS.map((c) => csvValue(r[c])).join(","));
  return `${[TIDY_COLUMNS.join(","), ...lines].join("\n")}\n`;
}
