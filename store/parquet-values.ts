/**
 * A row read from Parquet through DuckDB, as the row schemas expect it: a null cell is an absent
 * (optional) field, and BIGINT cells arrive as bigint and become numbers (out-of-range integers are
 * then rejected by the schema as unsafe). `omit` drops bookkeeping columns such as `_loc`.
 */
export function parquetValues(row: Record<string, unknown>, omit: readonly string[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined || omit.includes(k)) continue;
    values[k] = typeof v === "bigint" ? Number(v) : v;
  }
  return values;
}
