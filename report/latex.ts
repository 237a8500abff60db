import { max } from "d3";
import { stripControl } from "./strip-control.js";
import type { Section } from "./sections.js";

/**
 * `--format latex`: one standalone-compilable fragment per table, for a document that loads
 * booktabs and longtable. Every table is a longtable (it breaks across pages instead of
 * running off one); numeric columns are right-aligned; long text columns wrap.
 */
export const LATEX_PREAMBLE = [
  "\\usepackage[T1]{fontenc}",
  "\\usepackage[utf8]{inputenc}",
  "\\usepackage{booktabs}",
  "\\usepackage{longtable}",
  "\\usepackage{array}",
];

// Symbols that pdflatex cannot typeset as text: math mode or a text command.
const SYMBOLS: Record<string, string> = {
  Δ: "$\\Delta$",
  ρ: "$\\rho$",
  α: "$\\alpha$",
  σ: "$\\sigma$",
  μ: "$\\mu$",
  τ: "$\\tau$",
  ε: "$\\varepsilon$",
  "−": "$-$",
  "≠": "$\\neq$",
  "≤": "$\\leq$",
  "≥": "$\\geq$",
  "±": "$\\pm$",
  "×": "$\\times$",
  "·": "$\\cdot$",
  "½": "$\\frac{1}{2}$",
  "→": "$\\rightarrow$",
  "←": "$\\leftarrow$",
  "≈": "$\\approx$",
  "∞": "$\\infty$",
  "√": "$\\surd$",
  "—": "---",
  "–": "--",
  "…": "\\ldots{}",
  "“": "``",
  "”": "''",
  "‘": "`",
  "’": "'",
  "•": "\\textbullet{}",
  "€": "EUR",
};

/** Text → LaTeX: specials escaped, symbols mapped; any other character outside Latin-1 is shown as its code point. */
export function escapeLatex(x: unknown): string {
  let out = "";
  for (const ch of stripControl(String(x ?? "")).replace(/[\r\n\t]+/g, " ")) {
    if (ch in SYMBOLS) out += SYMBOLS[ch];
    else if (ch === "\\") out += "\\textbackslash{}";
    else if (ch === "~") out += "\\textasciitilde{}";
    else if (ch === "^") out += "\\textasciicircum{}";
    else if (ch === "<") out += "\\textless{}";
    else if (ch === ">") out += "\\textgreater{}";
    else if (ch === "|") out += "\\textbar{}";
    else if ("{}$&#_%".includes(ch)) out += `\\${ch}`;
    else if (ch.codePointAt(0)! > 0xff)
      out += `\\texttt{U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`;
    else out += ch;
  }
  return out;
}

const NUMERIC = /^(n\/a|[-−+]?\d[\d,]*(\.\d+)?(e[-+]?\d+)?%?( pp)?|\[[-−+\d., ]+\]( pp)?)$/i;

/** A column is numeric when every non-empty cell is a number, a percentage, an interval or n/a. */
function isNumericColumn(rows: Section["rows"], k: number): boolean {
  const cells = rows.map((r) => r[k]).filter((v) => v !== null && v !== "");
  return cells.length > 0 && cells.every((v) => typeof v === "number" || NUMERIC.test(String(v).trim()));
}

export function latexTable(s: Section): string {
  const spec = s.columns.map((_, k) => {
    if (isNumericColumn(s.rows, k)) return "r";
    const longest = Math.max(max(s.rows, (r) => String(r[k] ?? "").length) ?? 0, s.columns[k].length);
    return longest > 28 ? ">{\\raggedright\\arraybackslash}p{4.2cm}" : "l";
  });
  const head = `${s.columns.map(escapeLatex).join(" & ")} \\\\`;
  return [
    `% table ${s.id}: needs ${LATEX_PREAMBLE.join(" ")}`,
    "{\\small",
    `\\begin{longtable}{${spec.join("")}}`,
    `\\caption{${escapeLatex(s.title)}. ${escapeLatex(s.caption)}}` +
      `\\label{tab:${s.id.replace(/[^A-Za-z0-9:-]/g, "-")}}\\\\`,
    "\\toprule",
    head,
    "\\midrule",
    "\\endfirsthead",
    "\\toprule",
    head,
    "\\midrule",
    "\\endhead",
    "\\bottomrule",
    "\\endfoot",
    ...s.rows.map((r) => `${r.map(escapeLatex).join(" & ")} \\\\`),
    "\\end{longtable}",
    "}",
    "",
  ].join("\n");
}

export function renderLatex(sections: Section[]): string {
  return sections.map(latexTable).join("\n");
}
