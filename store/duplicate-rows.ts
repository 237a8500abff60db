/**
 * Rows whose key repeats an earlier row's key, each with the first row holding that key, in row order.
 * A key is the row's `parts`, compared as text (null and undefined as "", as Array.join does).
 *
 * Why not a Map from joined key text to the first row: at 100× the paper the method scores' keys
 * (trajectory / method) were 6.3 M new strings and Map entries, ≈ 0.5 GiB held during the read
 *. Here each part's distinct values get small integer codes, a row's key becomes one
 * number, and one native sort of (key, row) numbers puts equal keys side by side: the memory is one
 * Float64Array per row plus a Map per part's distinct values.
 */
export function duplicateRows<R>(rows: readonly R[], parts: ((r: R) => unknown)[]): { row: number; first: number }[] {
  const n = rows.length;
  const codes = new Float64Array(n);
  let radix = 1;
  for (const part of parts) {
    const ids = new Map<string, number>();
    const partCodes = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = part(rows[i]);
      const text = v === null || v === undefined ? "" : String(v);
      let id = ids.get(text);
      if (id === undefined) ids.set(text, (id = ids.size));
      partCodes[i] = id;
    }
    radix *= ids.size || 1;
    // Keys and row indices must stay exact integers in a double (2⁵³) once combined below.
    if (radix * n >= 2 ** 53) return duplicateRowsByText(rows, parts);
    for (let i = 0; i < n; i++) codes[i] = codes[i] * (ids.size || 1) + partCodes[i];
  }
  // key · n + row: sorting these numbers orders rows by key, then by row.
  for (let i = 0; i < n; i++) codes[i] = codes[i] * n + i;
  codes.sort();
  // For an integer c < 2⁵³, c % n and c − c % n are exact: the row, and the key times n.
  const out: { row: number; first: number }[] = [];
  let runStart = 0;
  for (let s = 1; s < n; s++) {
    const keyHere = codes[s] - (codes[s] % n);
    if (keyHere !== codes[s - 1] - (codes[s - 1] % n)) runStart = s;
    else out.push({ row: codes[s] % n, first: codes[runStart] % n });
  }
  return out.sort((a, b) => a.row - b.row);
}

/** The same with a Map from joined key text (keys too many to code as numbers). */
function duplicateRowsByText<R>(rows: readonly R[], parts: ((r: R) => unknown)[]): { row: number; first: number }[] {
  const seen = new Map<string, number>();
  const out: { row: number; first: number }[] = [];
  for (const [i, r] of rows.entries()) {
    const key = parts.map((p) => p(r)).join("\u0000");
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else out.push({ row: i, first });
  }
  return out;
}
