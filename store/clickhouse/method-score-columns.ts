import type { MethodScoreColumns } from "../../analysis/schema/method-score-columns.js";
import type { ClickhouseConnection } from "./connection.js";
import { binaryColumn, Cursor } from "./row-binary.js";
import { ROW_COLUMN } from "./table-layout.js";
import { ON_EACH_SHARD } from "./judgments-sql.js";

/**
 * A ClickHouse store's method scores as columns, as a folder's are read (store/method-score-table.ts), when the
 * server's screen finds nothing the row path would report; undefined otherwise (the caller then reads and checks
 * the rows, so every problem keeps its wording and place).
 *
 * The screen restates the contract's row rule (MethodScoreRow: non-empty ids, a finite score in [0, 1]) and its
 * keys: a trajectory_id not among the trajectories, a (trajectory_id, method) twice. It runs on each shard alone
 * (issue 57.5): a score sits on its trajectory's task's shard, so a trajectory the shard does not hold (not in the
 * store, or a row on the wrong shard) is flagged there, and a key is counted by its 64-bit hash per shard (a
 * collision only sends the read down the row path). `trajectoriesRead`: whether every trajectory row is valid, how
 * many distinct ids they hold, and their `_row`s in store order; unless all are valid and distinct, the row path
 * is taken. At scale 10, 146,138 rows had been as many objects, each checked by zod.
 */
export async function clickhouseMethodScoreColumns(
  conn: ClickhouseConnection,
  db: string,
  trajectoriesOnShard: string,
  trajectoriesRead: Promise<{ valid: boolean; ids: number; rows: readonly number[] }>,
): Promise<MethodScoreColumns | undefined> {
  const t = `${db}.method_scores`;
  // The rows are asked for with the screen (and dropped when it finds something): each names its trajectory by
  // the trajectory's `_row`, joined on its shard, not by its id (146,138 id strings at scale 10).
  const [[screen], [{ repeated }], body] = await Promise.all([
    conn.rows<{ total: string; flagged: string }>(
      `SELECT count() AS total, countIf(NOT (trajectory_id != '' AND method != '' AND isFinite(score)
         AND score >= 0 AND score <= 1 AND trajectory_id IN (SELECT trajectory_id FROM ${trajectoriesOnShard})))
         AS flagged FROM ${t}`,
    ),
    conn.rows<{ repeated: string }>(
      `SELECT count() AS repeated FROM (
         SELECT cityHash64(trajectory_id, method) AS k, count() AS c FROM ${t} GROUP BY k HAVING c > 1)`,
      ON_EACH_SHARD,
    ),
    conn.binaryBody(
      `SELECT trow, method, score, ${ROW_COLUMN} FROM ${t}
       ANY INNER JOIN (SELECT trajectory_id, ${ROW_COLUMN} AS trow FROM ${trajectoriesOnShard}) USING (trajectory_id)`,
    ),
  ]);
  const trajectories = await trajectoriesRead;
  const total = Number(screen.total);
  if (total === 0 || Number(screen.flagged) > 0 || Number(repeated) > 0) return undefined;
  if (!trajectories.valid || trajectories.ids !== trajectories.rows.length) return undefined;
  return columnsOf(body, total, positionsByRow(trajectories.rows));
}

/** Position k of each `_row` rows[k], as a lookup (the identity when the rows are 0, 1, 2, …, as a copy writes). */
function positionsByRow(rows: readonly number[]): (row: number) => number | undefined {
  if (rows.every((r, k) => r === k)) return (row) => (row < rows.length ? row : undefined);
  const index = new Map(rows.map((r, k) => [r, k]));
  return (row) => index.get(row);
}

const [TROW, METHOD, SCORE, ROW] = [
  binaryColumn("trow", "UInt64"),
  binaryColumn("method", "String"),
  binaryColumn("score", "Float64"),
  binaryColumn(ROW_COLUMN, "UInt64"),
];

/**
 * The RowBinary rows (trajectory's _row, method, score, _row) as columns in store order (by `_row`), methods
 * numbered in order of first appearance; decoded straight into typed arrays, no object per row. A score's place is
 * its `_row` when those are 0 … total − 1 (as a copy writes them), else found by sorting.
 */
function columnsOf(
  body: Buffer,
  total: number,
  positionOf: (row: number) => number | undefined,
): MethodScoreColumns | undefined {
  const trajectory = new Int32Array(total);
  const names = new Array<string>(total);
  const score = new Float64Array(total);
  const row = new Float64Array(total);
  const cursor = new Cursor(body);
  let k = 0;
  for (; cursor.offset < body.length && k < total; k++) {
    const at = positionOf(cursor.value(TROW) as number);
    // The trajectories changed between the screen and this read: the row path says what.
    if (at === undefined) return undefined;
    trajectory[k] = at;
    names[k] = cursor.value(METHOD) as string;
    score[k] = cursor.value(SCORE) as number;
    row[k] = cursor.value(ROW) as number;
  }
  if (k !== total || cursor.offset !== body.length) return undefined;
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
  return columns;
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
