import type { MethodScoreColumns } from "../../analysis/schema/method-score-columns.js";
import type { ClickhouseConnection } from "./connection.js";
import { binaryColumn, Cursor } from "./row-binary.js";
import { ROW_COLUMN } from "./table-layout.js";

/**
 * A ClickHouse store's method scores as columns, as a folder's are read (store/method-score-table.ts), when
 * nothing in them is what the row path would report; undefined otherwise (the caller then reads and checks the
 * rows, so every problem keeps its wording and place).
 *
 * One query, on each shard alone (issue 57.5): every score with its trajectory's `_row`, joined on the shard that
 * holds the score (a score sits on its trajectory's task's shard, so a trajectory the shard lacks, not in the store
 * or on another shard, comes back unknown), and whether it keeps the contract's row rule (MethodScoreRow: non-empty
 * ids, a finite score in [0, 1]). Repeated (trajectory, method) keys are found here, on positions. A screen of
 * three queries (rule, references, keys hashed per shard) before it had cost 7.4 s of each shard's CPU at scale 100.
 * `trajectoriesRead`: whether every trajectory row is valid, how many distinct ids they hold, and their `_row`s in
 * store order; unless all are valid and distinct, the row path is taken.
 */
export async function clickhouseMethodScoreColumns(
  conn: ClickhouseConnection,
  db: string,
  trajectoriesOnShard: string,
  trajectoriesRead: Promise<{ valid: boolean; ids: number; rows: readonly number[] }>,
): Promise<MethodScoreColumns | undefined> {
  const ok = `toUInt8(trajectory_id != '' AND method != '' AND isFinite(score) AND score >= 0 AND score <= 1)`;
  const body = await conn.binaryBody(
    `SELECT trow, known, method, score, ${ROW_COLUMN}, ${ok} AS ok FROM ${db}.method_scores
     ANY LEFT JOIN (SELECT trajectory_id, ${ROW_COLUMN} AS trow, toUInt8(1) AS known FROM ${trajectoriesOnShard})
     USING (trajectory_id)`,
  );
  const trajectories = await trajectoriesRead;
  if (!trajectories.valid || trajectories.ids !== trajectories.rows.length || body.length === 0) return undefined;
  return columnsOf(body, positionsByRow(trajectories.rows), trajectories.rows.length);
}

/** Position k of each `_row` rows[k], as a lookup (the identity when the rows are 0, 1, 2, …, as a copy writes). */
function positionsByRow(rows: readonly number[]): (row: number) => number | undefined {
  if (rows.every((r, k) => r === k)) return (row) => (row < rows.length ? row : undefined);
  const index = new Map(rows.map((r, k) => [r, k]));
  return (row) => index.get(row);
}

const [TROW, KNOWN, METHOD, SCORE, ROW, OK] = [
  binaryColumn("trow", "UInt64"),
  binaryColumn("known", "UInt8"),
  binaryColumn("method", "String"),
  binaryColumn("score", "Float64"),
  binaryColumn(ROW_COLUMN, "UInt64"),
  binaryColumn("ok", "UInt8"),
];

/**
 * The RowBinary rows (trajectory's _row, known, method, score, _row, ok) as columns in store order (by `_row`),
 * methods numbered in order of first appearance; decoded straight into typed arrays, no object per row. Undefined
 * at the first row the row path would report (unknown trajectory, broken rule) or a repeated key.
 */
function columnsOf(
  body: Buffer,
  positionOf: (row: number) => number | undefined,
  trajectories: number,
): MethodScoreColumns | undefined {
  const trajectory: number[] = [];
  const names: string[] = [];
  const score: number[] = [];
  const row: number[] = [];
  const cursor = new Cursor(body);
  while (cursor.offset < body.length) {
    const trow = cursor.value(TROW) as number;
    const known = cursor.value(KNOWN) === 1;
    names.push(cursor.value(METHOD) as string);
    score.push(cursor.value(SCORE) as number);
    row.push(cursor.value(ROW) as number);
    const at = known && cursor.value(OK) === 1 ? positionOf(trow) : undefined;
    if (at === undefined) return undefined;
    trajectory.push(at);
  }
  const total = row.length;
  const order = storeOrder(row);
  const codes = new Map<string, number>();
  const columns: MethodScoreColumns = {
    length: total,
    trajectory: new Int32Array(total),
    method: new Int32Array(total),
    methods: [],
    score: new Float64Array(total),
  };
  for (let to = 0; to < total; to++) {
    const from = order[to];
    let code = codes.get(names[from]);
    if (code === undefined) {
      code = columns.methods.length;
      codes.set(names[from], code);
      columns.methods.push(names[from]);
    }
    columns.trajectory[to] = trajectory[from];
    columns.method[to] = code;
    columns.score[to] = score[from];
  }
  return repeatsAKey(columns, trajectories) ? undefined : columns;
}

/** Whether a (trajectory, method) pair comes twice: marks in a bitmap of trajectories × methods, or a sort. */
function repeatsAKey(c: MethodScoreColumns, trajectories: number): boolean {
  const methods = c.methods.length;
  const key = (k: number) => c.trajectory[k] * methods + c.method[k];
  if (trajectories * methods <= 1 << 28) {
    const seen = new Uint8Array(Math.ceil((trajectories * methods) / 8));
    for (let k = 0; k < c.length; k++) {
      const x = key(k);
      const bit = 1 << (x & 7);
      if (seen[x >> 3] & bit) return true;
      seen[x >> 3] |= bit;
    }
    return false;
  }
  const keys = Float64Array.from({ length: c.length }, (_, k) => key(k)).sort();
  return keys.some((x, k) => k > 0 && keys[k - 1] === x);
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
