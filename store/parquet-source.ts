/**
 * A Parquet file as a DuckDB table expression: `read_parquet('…')` with the path's quotes doubled, and
 * with `rowNumbers` the file's 0-based row as a `file_row_number` column (what a problem's row, a
 * trajectory's position and a checklist's order are read from).
 */
export function parquetSource(path: string, o: { rowNumbers: boolean }): string {
  const quoted = `'${path.replaceAll("'", "''")}'`;
  return o.rowNumbers ? `read_parquet(${quoted}, file_row_number = true)` : `read_parquet(${quoted})`;
}
