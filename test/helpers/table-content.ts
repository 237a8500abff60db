/**
 * A table's rows as comparable text: absent, null and empty-list fields dropped (Parquet,
 * JSONL and in-memory rows spell "absent" differently) and keys sorted.
 */
export function tableContent(rows: object[] | undefined): string {
  return JSON.stringify(
    (rows ?? []).map((r) =>
      Object.fromEntries(
        Object.entries(r)
          .filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    ),
  );
}
