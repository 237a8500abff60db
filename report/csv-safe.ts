import { guardFormula } from "./formula-guard.js";

/** Applies the CSV formula-injection guard to every text cell of the rows (numbers untouched). */
export function protectCsvFormulas(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" ? guardFormula(v) : v])),
  );
}
