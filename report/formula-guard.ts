/**
 * CSV formula-injection guard (OWASP "CSV Injection"): a text cell starting with
 * = + - @, tab or CR gets a leading apostrophe so spreadsheets show it as text.
 * Plain numbers (including negatives) are left alone. One rule for every CSV export.
 */
export function guardFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(s) ? `'${s}` : s;
}
