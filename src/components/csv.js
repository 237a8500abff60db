// CSV downloads of the page's tables: RFC 4180 cells with the workbench's one rule for untrusted text (the CLI's
// report/render.ts csvCell: control characters dropped, a text cell starting with = + - @, tab or CR prefixed
// with an apostrophe so that a spreadsheet shows it as text). Repeated here, not imported: the site's components
// are plain files Framework serves, and the bundle built from analysis/ holds no report/ code;
// test/site-csv.test.ts checks the two agree on hostile values.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** One CSV cell: numbers bare, null empty, text stripped of control characters and formula-guarded. */
export function csvCell(x) {
  if (x === null || x === undefined) return "";
  if (typeof x === "number") return Number.isFinite(x) ? String(x) : "";
  const s0 = String(x).replace(CONTROL, "");
  const s = /^[=+\-@\t\r]/.test(s0) && !/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(s0) ? `'${s0}` : s0;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows (objects) → CSV text with a header of `columns` (default: the first row's keys). */
export function toCsv(rows, columns = Object.keys(rows[0] ?? {})) {
  const lines = rows.map((r) => columns.map((c) => csvCell(r[c])).join(","));
  return `${[columns.map(csvCell).join(","), ...lines].join("\n")}\n`;
}

/** A "download CSV" button that saves `rows()` (called on click, so it holds the table as shown then). */
export function csvButton(rows, name, columns) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "download-csv";
  button.textContent = "download CSV";
  button.onclick = () => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([toCsv(rows(), columns)], { type: "text/csv" }));
    a.download = `${name}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  return button;
}
