// A store's rows put back in order on the client: a ClickHouse table keeps none, and the reads ask for none
// (an ORDER BY on the server cost more than this; stored-tables.ts).

/** Position k of each `_row` rows[k], as a lookup (the identity when the rows are 0, 1, 2, …, as a copy writes). */
export function positionsByRow(rows: readonly number[]): (row: number) => number | undefined {
  if (rows.every((r, k) => r === k)) return (row) => (row < rows.length ? row : undefined);
  const index = new Map(rows.map((r, k) => [r, k]));
  return (row) => index.get(row);
}

/** The indices of `row` in increasing order: placed by value when the values are 0 … n − 1 once each, else sorted. */
export function storeOrder(row: ArrayLike<number>): Int32Array {
  const n = row.length;
  const order = new Int32Array(n).fill(-1);
  let placed = true;
  for (let k = 0; k < n && placed; k++) {
    const r = row[k];
    if (Number.isInteger(r) && r >= 0 && r < n && order[r] === -1) order[r] = k;
    else placed = false;
  }
  if (placed) return order;
  return Int32Array.from(Array.from({ length: n }, (_, k) => k).sort((a, b) => row[a] - row[b]));
}
