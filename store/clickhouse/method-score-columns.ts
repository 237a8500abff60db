import type { MethodScoreColumns } from "../../analysis/schema/method-score-columns.js";
import type { ClickhouseConnection } from "./connection.js";
import { binaryColumn, type RowReader } from "./row-binary.js";
import { ROW_COLUMN } from "./table-layout.js";
import { storeOrder } from "./row-order.js";
import { countHint } from "./count-hint.js";

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
 * `trajectoriesRead`: the trajectories as read (`plain`: every row valid, the ids distinct; unless so, the row path
 * is taken), and each one's position by its `_row`.
 */
export async function clickhouseMethodScoreColumns(
  conn: ClickhouseConnection,
  db: string,
  trajectoriesOnShard: string,
  trajectoriesRead: Promise<{
    plain: boolean;
    rows: readonly unknown[];
    positionOf: (row: number) => number | undefined;
  }>,
): Promise<MethodScoreColumns | undefined> {
  const counted = conn.rows<{ n: string }>(`SELECT count() AS n FROM ${db}.method_scores`);
  const named = conn.rows<{ h: number; name: string; names: string }>(
    `SELECT ${HASH} AS h, any(method) AS name, uniqExact(method) AS names FROM ${db}.method_scores GROUP BY h`,
  );
  named.catch(() => {});
  // The count sizes the columns the answer is decoded into as it arrives (they grow if it is short).
  const expected = countHint(counted, ([{ n }]) => Number(n));
  const [raw, names] = await Promise.all([
    conn.binaryRead(methodScoreSql(db, trajectoriesOnShard), () => rawScoresReader(expected)),
    named,
  ]);
  const trajectories = await trajectoriesRead;
  if (!trajectories.plain || raw.length === 0) return undefined;
  if (names.some((n) => Number(n.names) !== 1)) return undefined;
  const nameOf = new Map(names.map((n) => [Number(n.h), n.name]));
  return columnsOf(raw, { positionOf: trajectories.positionOf, nameOf }, trajectories.rows.length);
}

// Each method by a 32-bit hash of its name, named once by a second query; two names of one hash send the read
// down the row path. A _row as 32 bits (a store of 4 G rows is far past what a read holds in memory).
const HASH = "toUInt32(bitAnd(cityHash64(method), 4294967295))";

/** Every score with its trajectory's `_row` (joined on the shard), its method's hash, and whether it keeps the rule. */
export function methodScoreSql(db: string, trajectoriesOnShard: string): string {
  const ok = `trajectory_id != '' AND method != '' AND isFinite(score) AND score >= 0 AND score <= 1`;
  return `SELECT toUInt32(trow) AS trow, ${HASH} AS h, score, toUInt32(${ROW_COLUMN}) AS r,
      toUInt8(known = 1 AND ${ok}) AS ok FROM ${db}.method_scores
    ANY LEFT JOIN (SELECT trajectory_id, ${ROW_COLUMN} AS trow, toUInt8(1) AS known FROM ${trajectoriesOnShard})
    USING (trajectory_id)`;
}

/** The columns of methodScoreSql's answer, in order. */
export const METHOD_SCORE_COLUMNS = [
  binaryColumn("trow", "UInt32"),
  binaryColumn("h", "UInt32"),
  binaryColumn("score", "Float64"),
  binaryColumn("r", "UInt32"),
  binaryColumn("ok", "UInt8"),
];
const [TROW, HASH_COLUMN, SCORE, ROW, OK] = METHOD_SCORE_COLUMNS;

/** methodScoreSql's answer as typed columns, in the answer's order. */
interface RawScores {
  length: number;
  trow: Uint32Array;
  hash: Uint32Array;
  score: Float64Array;
  row: Uint32Array;
  ok: Uint8Array;
}

/**
 * A reader of methodScoreSql's answer into typed arrays (connection.ts binaryRead), sized at its first row for
 * `expected()` rows and doubled if more come: no object, string or copy of the answer per row.
 */
function rawScoresReader(expected: () => number): { read: RowReader; result: () => RawScores } {
  let raw = rawScores(0);
  let length = 0;
  const read: RowReader = (cursor) => {
    const trow = cursor.uint32(TROW);
    const hash = cursor.uint32(HASH_COLUMN);
    const score = cursor.float64(SCORE);
    const row = cursor.uint32(ROW);
    const ok = cursor.uint8(OK);
    if (length === raw.length) raw = length === 0 ? rawScores(Math.max(expected(), 1024)) : grown(raw, length);
    raw.trow[length] = trow;
    raw.hash[length] = hash;
    raw.score[length] = score;
    raw.row[length] = row;
    raw.ok[length] = ok;
    length++;
  };
  const result = (): RawScores => ({
    length,
    trow: raw.trow.subarray(0, length),
    hash: raw.hash.subarray(0, length),
    score: raw.score.subarray(0, length),
    row: raw.row.subarray(0, length),
    ok: raw.ok.subarray(0, length),
  });
  return { read, result };
}

const rawScores = (n: number): RawScores => ({
  length: n,
  trow: new Uint32Array(n),
  hash: new Uint32Array(n),
  score: new Float64Array(n),
  row: new Uint32Array(n),
  ok: new Uint8Array(n),
});

function grown(raw: RawScores, length: number): RawScores {
  const next = rawScores(length * 2);
  next.trow.set(raw.trow);
  next.hash.set(raw.hash);
  next.score.set(raw.score);
  next.row.set(raw.row);
  next.ok.set(raw.ok);
  return next;
}

/**
 * The answer's rows (trajectory's _row, method hash, score, _row, ok) as columns in store order (by `_row`),
 * methods numbered in order of first appearance. Undefined at the first row the row path would report (unknown
 * trajectory, broken rule) or a repeated key.
 */
function columnsOf(
  raw: RawScores,
  by: { positionOf: (row: number) => number | undefined; nameOf: Map<number, string> },
  trajectories: number,
): MethodScoreColumns | undefined {
  const total = raw.length;
  const trajectory = new Int32Array(total);
  const { hash: hashes, score, row } = raw;
  for (let k = 0; k < total; k++) {
    const at = raw.ok[k] === 1 ? by.positionOf(raw.trow[k]) : undefined;
    if (at === undefined) return undefined;
    trajectory[k] = at;
  }
  const order = storeOrder(row);
  const codes = new Map<number, number>();
  const columns: MethodScoreColumns = {
    length: total,
    trajectory: new Int32Array(total),
    method: new Int32Array(total),
    methods: [],
    score: new Float64Array(total),
  };
  for (let to = 0; to < total; to++) {
    const from = order[to];
    let code = codes.get(hashes[from]);
    if (code === undefined) {
      const name = by.nameOf.get(hashes[from]);
      if (name === undefined) return undefined;
      code = columns.methods.length;
      codes.set(hashes[from], code);
      columns.methods.push(name);
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
