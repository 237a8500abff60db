import { guardFormula } from "./formula-guard.js";
import type { Section } from "./sections.js";

/** Escapes text for a Markdown table cell: HTML-significant characters and pipes (store text is untrusted). */
export function escapeMarkdownCell(x: unknown): string {
  return String(x ?? "")
    .replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** CSV cell (RFC 4180) protected against formula injection: cells starting with = + - @ (or tab/CR) get a leading '. */
export function csvCell(x: unknown): string {
  const s = guardFormula(x === null || x === undefined ? "" : String(x));
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function escapeLatex(x: unknown): string {
  return String(x ?? "").replace(/[\\{}$&#^_%~]/g, (c) => (c === "\\" ? "\\textbackslash{}" : c === "~" ? "\\textasciitilde{}" : c === "^" ? "\\textasciicircum{}" : `\\${c}`));
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

/** Long CSV: one line per cell with its section and column, so every table fits one file. */
export function renderCsv(sections: Section[]): string {
  const lines = ["section,row,column,value"];
  for (const s of sections) s.rows.forEach((r) => r.forEach((v, k) => { if (k > 0) lines.push([s.id, r[0], s.columns[k], v].map(csvCell).join(",")); }));
  return lines.join("\n") + "\n";
}

export function renderLatex(sections: Section[]): string {
  const out: string[] = [];
  for (const s of sections) {
    out.push("\\begin{table}[t]", "\\centering", `\\caption{${escapeLatex(s.title)}. ${escapeLatex(s.caption)}}`, `\\begin{tabular}{${"l".repeat(s.columns.length)}}`, "\\hline");
    out.push(s.columns.map(escapeLatex).join(" & ") + " \\\\", "\\hline");
    for (const r of s.rows) out.push(r.map(escapeLatex).join(" & ") + " \\\\");
    out.push("\\hline", "\\end{tabular}", "\\end{table}", "");
  }
  return out.join("\n");
}
