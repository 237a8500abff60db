/**
 * Protects CSV exports against formula injection (OWASP "CSV Injection"): a text cell
 * starting with = + - @ (or tab / CR) gets a leading apostrophe. Numbers are left alone.
 */
export function protectCsvFormulas(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v])));
}
