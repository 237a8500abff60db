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

/**
 * Column specs that fit the text block: every column is a paragraph column whose width is its share of
 * \linewidth, in proportion to what it needs (its longest unbreakable word, or its longest cell up to 30
 * characters), less its own padding, so the columns add up to the line and a long cell wraps instead of
 * running past the margin; the font size is the largest whose line holds the columns' needs. Numeric
 * columns are right-aligned, text left-aligned.
 */
function columnLayout(s: Section): { specs: string[]; size: string } {
  const cells = (k: number) => [s.columns[k], ...s.rows.map((r) => String(r[k] ?? ""))];
  // A column needs its longest word (measured a little wide: capitals, digits and symbols are wider than an
  // average character) and would like its longest cell up to 30 characters.
  const least = s.columns.map((_, k) =>
    Math.ceil(1.5 * Math.max(...cells(k).flatMap((c) => c.split(/\s+/).map(textUnits))) + 1),
  );
  const wish = s.columns.map((_, k) => Math.max(least[k], Math.min(30, Math.max(...cells(k).map((c) => c.length))), 4));
  const need = least.reduce((a, b) => a + b, 0);
  // Characters a 17 cm line holds at each size (A4, about 2 cm margins), roughly: the largest size that holds
  // every column's least, then what is left goes to the columns that wish for more, in proportion.
  const size = SIZES.find((z) => z.chars >= need) ?? SIZES[SIZES.length - 1];
  const extra = wish.map((w, k) => w - least[k]);
  const room = Math.max(0, size.chars - need);
  const wanted = extra.reduce((a, b) => a + b, 0);
  const widths = least.map((l, k) => Math.round(10 * (l + (wanted ? (room * extra[k]) / wanted : 0))));
  const sum = widths.reduce((a, b) => a + b, 0);
  // Each column's share of the line left after every column's padding: (\linewidth − 2n\tabcolsep)·w / Σw.
  const free = `(\\linewidth-${2 * s.columns.length}\\tabcolsep)`;
  const specs = widths.map((w, k) => {
    const align = isNumericColumn(s.rows, k) ? "\\raggedleft" : "\\raggedright";
    return `>{${align}\\arraybackslash}p{\\dimexpr${free}*${w}/${sum}\\relax}`;
  });
  return { specs, size: size.command };
}

/** A word's width in average characters: a symbol set in math mode (→, ≤, Δ…) is about three. */
const textUnits = (word: string) => [...word].reduce((n, ch) => n + (ch in SYMBOLS ? 3 : 1), 0);

const SIZES = [
  { command: "\\small", chars: 95 },
  { command: "\\footnotesize", chars: 115 },
  { command: "\\scriptsize", chars: 150 },
  { command: "\\tiny", chars: 190 },
];

export function latexTable(s: Section): string {
  const { specs: spec, size } = columnLayout(s);
  const head = `${s.columns.map(escapeLatex).join(" & ")} \\\\`;
  return [
    `% table ${s.id}: needs ${LATEX_PREAMBLE.join(" ")}`,
    `{${size}\\setlength{\\tabcolsep}{3pt}`,
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
