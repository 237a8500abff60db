import { BAD_ROW, primaryAsNull } from "./judgments-sql.js";
import { binaryColumn, type BinaryColumn, type RowReader } from "./row-binary.js";
import { ROW_COLUMN, TASK_COLUMN } from "./table-layout.js";

/**
 * A ClickHouse store's label runs: its judgments joined to their checklist positions and grouped per (trajectory,
 * judge, run, `_task`), the judge and run normalised (contract rule 13), each run with its screen
 * (screenLabelRuns), in one pass over the judgments (issue 57.5: the checks and the grouping had read them five
 * times). The query starts from the Distributed trajectories table, so all of it runs on each shard: the shard's
 * own judgments are grouped, joined to its own items for their positions and to its own trajectories for their
 * `_row` and task (a task's rows sit on one shard), and only the runs travel. Joining the runs to the trajectories
 * on node 1 instead took half the query's CPU at scale 100 (5.4 s of server CPU against 3.0 s, alone).
 * A run whose trajectory is not on its shard (not in the store, or a row on the wrong shard) drops out of the
 * join: the screen then finds fewer rows than the judgments table holds.
 */

/** The checklist positions a packed run holds (store/label-vector-sql.ts PACKED_ITEMS, two numbers of 26). */
const PACKED_ITEMS = 52;

/** What the screen reads of a run, either form: its trajectory's `_row`, rows (`c`), and its flags. */
export interface ScreenedRun {
  trow: number;
  jj: string | null;
  rr: number;
  /** The run's first judgment row in the store (runs keep the folder reader's order: by their first row). */
  first: number;
  c: number;
  /** 1: the run breaks a rule the judgments' checks would name (screenLabelRuns). */
  odd: number;
  /** The length of its `_task`'s checklist. */
  size: number;
  /** 1: the run holds a grade or a NotApplicable label (coded runs only; packed runs hold none). */
  graded?: number;
}

/**
 * One run's verdicts coded, ordered by checklist position: label codes as one string ("Y", "N", "A", "-", or
 * "G" for a grade strictly between 0 and 1), the positions (1-based) when the run does not judge every item of its
 * checklist (else empty), the graded positions and their grades, and the evidence when asked.
 */
export interface CodedRunRow extends ScreenedRun {
  codes: string;
  ps: number[];
  gp: number[];
  gv: number[];
  ev?: (string | null)[];
}

/**
 * Each task's checklist positions in store order (`pos`, 1-based), and its length `n`, without window functions
 * (18.16 has none): the items' (_row, item_id) pairs sorted per task, then numbered. Read from `items`, a shard
 * table (the query that joins it runs on every shard).
 */
function positionsSql(db: string, items: string): string {
  return `SELECT task_id AS ${TASK_COLUMN}, item_id, pos, n FROM (
      SELECT task_id, arrayMap(x -> tupleElement(x, 2), arraySort(groupArray((${ROW_COLUMN}, item_id)))) AS ids,
        length(ids) AS n
      FROM ${db}.${items} GROUP BY task_id)
    ARRAY JOIN ids AS item_id, arrayEnumerate(ids) AS pos`;
}

/**
 * A run's own screen: it breaks a row rule or judges an item outside its `_task`'s checklist (`pos` 0: the join
 * found none); `repeats`, an item twice. A run whose rows name two `_task` values is two groups (`_task` is a key),
 * and at most one of them is its trajectory's task.
 */
const oddRun = (repeats: string) => `toUInt8(countIf(pos = 0) > 0 OR ${repeats} OR countIf(${BAD_ROW}) > 0)`;

/** The grouping's columns every form shares. */
const RUN_KEYS = (primaryJudge: string) =>
  `trajectory_id, ${primaryAsNull(primaryJudge)} AS jj, toInt64(ifNull(run, 1)) AS rr,
   toUInt32(min(${ROW_COLUMN})) AS first, toUInt32(count()) AS c, ${TASK_COLUMN} AS t, toUInt32(any(n)) AS size`;

/** The grouping's keys: a run, and the `_task` its rows name. */
const RUN_GROUP = `GROUP BY trajectory_id, jj, rr, ${TASK_COLUMN}`;

/** Where a store's label-run queries read: the database, and the shard tables of its judgments and items. */
export interface RunTables {
  db: string;
  judgments: string;
  items: string;
}

/**
 * The runs (grouped on each shard) joined there to the shard's trajectories: `trow` the trajectory's `_row`, and
 * `odd` also set when the trajectory's task is not the run's `_task`. `columns`: the grouping's own, passed on.
 */
function joinedToTrajectories(db: string, grouped: string, columns: string[]): string {
  return `SELECT toUInt32(${ROW_COLUMN}) AS trow, jj, rr, first, c, toUInt8(odd0 = 1 OR task_id != t) AS odd,
      ${columns.join(", ")}
    FROM ${db}.trajectories ALL INNER JOIN (${grouped}) USING (trajectory_id)`;
}

/**
 * A judgment's label as one number, by one lookup: Yes 1, No 2, Abstain 3 (the packed runs' two-bit codes, as the
 * folder's store/label-vector-sql.ts PACKED_CODE_SQL), NotApplicable 4, any other text or none 0.
 */
const LABEL_NUMBER = "transform(ifNull(label, ''), ['Yes', 'No', 'Abstain', 'NotApplicable'], [1, 2, 3, 4], 0)";

/**
 * The label runs packed (PackedRunColumns): integer sums only, whatever the checklist's length, so a run travels as a
 * few numbers however many items it judges (the bytes grow with the runs, not the judgments).
 *
 * Its screen asks of each row only what a store that packing can hold may still get wrong, so that each row costs a
 * lookup and two flags (the grouping on one shard of the scale-100 copy, alternated: 0.85–1.01 s of its CPU so,
 * 0.98–1.41 s with the full row rules, judgments-sql.ts BAD_ROW, and the carry test of repeats). A run that holds a
 * grade, a NotApplicable label or an item past the 52nd is `special` and the whole store is read again as label
 * codes, screened by the full rules (codedRunsSql); so here a grade is null, and a row breaks a row rule only by a
 * label that is none or not one of the contract's (`code` 0), by a run below 1 (`rr`, a key), or an empty trajectory
 * or item id (no store item has one: the items were validated first; its `pos` is then 0, an item outside the
 * checklist). An item repeats, or a row names no item of the checklist (`pos` 0), when fewer bits are set in the OR
 * of the rows' bits 1 << (k − 1) than there are rows: a row of no item sets none.
 */
export function packedRunsSql({ db, judgments, items }: RunTables, primaryJudge: string): string {
  const bit = `if(pos >= 1 AND pos <= ${PACKED_ITEMS}, toUInt64(bitShiftLeft(toUInt64(1), pos - 1)), toUInt64(0))`;
  const packed = (first: number, last: number) =>
    `sum(if(pos >= ${first} AND pos <= ${last}, toUInt64(bitShiftLeft(toUInt64(code), 2 * (pos - ${first}))),
      toUInt64(0)))`;
  // Bit 1: a row whose label is none or not the contract's; bit 2: what packing cannot hold.
  const flags = `groupBitOr(toUInt8((code = 0) + 2 * (grade IS NOT NULL OR code = 4 OR pos > ${PACKED_ITEMS})))`;
  const repeats = `c != length(bitmaskToArray(groupBitOr(${bit})))`;
  const grouped = `SELECT ${RUN_KEYS(primaryJudge)}, ${flags} AS flags,
      toUInt8(bitAnd(flags, 1) = 1 OR ${repeats} OR trajectory_id = '' OR rr < 1) AS odd0,
      ${packed(1, 26)} AS lo, ${packed(27, PACKED_ITEMS)} AS hi, toUInt8(bitAnd(flags, 2) = 2) AS special
    FROM (SELECT trajectory_id, item_id, judge, run, grade, ${ROW_COLUMN}, ${TASK_COLUMN}, ${LABEL_NUMBER} AS code
      FROM ${db}.${judgments})
    ANY LEFT JOIN (${positionsSql(db, items)}) USING (${TASK_COLUMN}, item_id)
    ${RUN_GROUP}`;
  return joinedToTrajectories(db, grouped, ["size", "lo", "hi", "special"]);
}

/** The columns of packedRunsSql's answer, in order. */
export const PACKED_RUN_COLUMNS: BinaryColumn[] = [
  ...screenColumns(),
  ["lo", "UInt64"],
  ["hi", "UInt64"],
  ["special", "UInt8"],
].map(([name, type]) => binaryColumn(name, type));

/** The columns joinedToTrajectories puts first. */
function screenColumns(): [string, string][] {
  return [
    ["trow", "UInt32"],
    ["jj", "Nullable(String)"],
    ["rr", "Int64"],
    ["first", "UInt32"],
    ["c", "UInt32"],
    ["odd", "UInt8"],
    ["size", "UInt32"],
  ];
}

/**
 * The label runs coded (CodedRunRow): what packing cannot hold (grades, NotApplicable labels, checklists past 52
 * items) and the evidence, at one byte a verdict.
 */
export function codedRunsSql({ db, judgments, items }: RunTables, primaryJudge: string, evidence: boolean): string {
  const code = `assumeNotNull(multiIf(grade IS NOT NULL AND grade = 1, 'Y', grade IS NOT NULL AND grade = 0, 'N',
    grade IS NOT NULL, 'G', label = 'NotApplicable', '-', label = 'Yes', 'Y', label = 'No', 'N', 'A'))`;
  const graded = "grade IS NOT NULL AND grade != 1 AND grade != 0";
  const byPosition = (x: string) =>
    `arrayMap(x -> tupleElement(x, 2), arraySort(x -> tupleElement(x, 1), groupArray((pos, ${x}))))`;
  const grouped = `SELECT ${RUN_KEYS(primaryJudge)}, ${oddRun("count() != uniqExact(pos)")} AS odd0,
      arrayStringConcat(${byPosition(code)}) AS codes,
      if(count() = any(n), emptyArrayUInt64(), arraySort(groupArray(toUInt64(pos)))) AS ps,
      groupArrayIf(toUInt64(pos), ${graded}) AS gp, groupArrayIf(assumeNotNull(grade), ${graded}) AS gv,
      toUInt8(countIf(grade IS NOT NULL OR label = 'NotApplicable') > 0) AS graded
      ${evidence ? `, ${byPosition("evidence")} AS ev` : ""}
    FROM ${db}.${judgments} ANY LEFT JOIN (${positionsSql(db, items)}) USING (${TASK_COLUMN}, item_id)
    ${RUN_GROUP}`;
  return joinedToTrajectories(db, grouped, ["size", "codes", "ps", "gp", "gv", "graded", ...(evidence ? ["ev"] : [])]);
}

/** The columns of codedRunsSql's answer, in order. */
export function codedRunColumns(evidence: boolean): BinaryColumn[] {
  const columns: [string, string][] = [
    ...screenColumns(),
    ["codes", "String"],
    ["ps", "Array(UInt64)"],
    ["gp", "Array(UInt64)"],
    ["gv", "Array(Float64)"],
    ["graded", "UInt8"],
  ];
  if (evidence) columns.push(["ev", "Array(Nullable(String))"]);
  return columns.map(([name, type]) => binaryColumn(name, type));
}

/** Label runs as columns: index k is the answer's k-th run. */
export interface RunColumns {
  length: number;
  trow: ArrayLike<number>;
  jj: (string | null)[];
  rr: ArrayLike<number>;
  first: ArrayLike<number>;
  c: ArrayLike<number>;
  odd: ArrayLike<number>;
  size: ArrayLike<number>;
  /** Coded runs only. */
  graded?: ArrayLike<number>;
}

/**
 * Packed runs as columns, each run packed as a folder's packed label runs are (store/packed-label-runs.ts): each
 * judgment's two-bit code (Yes 1, No 2, Abstain 3) summed at bits 2(k − 1) of `lo` for checklist position k ≤ 26,
 * of `hi` for 27–52. `special`: the run holds a grade, a NotApplicable label or an item past 52, which the packing
 * cannot hold.
 */
export interface PackedRunColumns extends RunColumns {
  lo: ArrayLike<number>;
  hi: ArrayLike<number>;
  special: Uint8Array;
}

/** Typed columns for `n` packed runs. */
function packedRunColumns(n: number) {
  return {
    length: n,
    trow: new Uint32Array(n),
    jj: [] as (string | null)[],
    rr: new Float64Array(n),
    first: new Uint32Array(n),
    c: new Uint32Array(n),
    odd: new Uint8Array(n),
    size: new Uint32Array(n),
    lo: new Float64Array(n),
    hi: new Float64Array(n),
    special: new Uint8Array(n),
  };
}

/**
 * A reader of packedRunsSql's answer into typed columns (connection.ts binaryRead), sized at its first run for
 * `expected()` runs and doubled when more come: an object per run cost the read at scale 100 485,000 objects to
 * make and collect.
 */
export function packedRunsReader(expected: () => number): { read: RowReader; result: () => PackedRunColumns } {
  let runs = packedRunColumns(0);
  let length = 0;
  const [TROW, JJ, RR, FIRST, C, ODD, SIZE, LO, HI, SPECIAL] = PACKED_RUN_COLUMNS;
  const read: RowReader = (cursor) => {
    const trow = cursor.uint32(TROW);
    const jj = cursor.value(JJ) as string | null;
    const rr = cursor.int64(RR);
    const first = cursor.uint32(FIRST);
    const c = cursor.uint32(C);
    const odd = cursor.uint8(ODD);
    const size = cursor.uint32(SIZE);
    const lo = cursor.uint64(LO);
    const hi = cursor.uint64(HI);
    const special = cursor.uint8(SPECIAL);
    // Kept only once the run's last value is read (a run cut by a piece's end is read again).
    if (length === runs.length)
      runs = length === 0 ? packedRunColumns(Math.max(expected(), 1024)) : grown(runs, length);
    runs.trow[length] = trow;
    runs.jj.push(jj);
    runs.rr[length] = rr;
    runs.first[length] = first;
    runs.c[length] = c;
    runs.odd[length] = odd;
    runs.size[length] = size;
    runs.lo[length] = lo;
    runs.hi[length] = hi;
    runs.special[length] = special;
    length++;
  };
  const result = (): PackedRunColumns => ({
    length,
    trow: runs.trow.subarray(0, length),
    jj: runs.jj,
    rr: runs.rr.subarray(0, length),
    first: runs.first.subarray(0, length),
    c: runs.c.subarray(0, length),
    odd: runs.odd.subarray(0, length),
    size: runs.size.subarray(0, length),
    lo: runs.lo.subarray(0, length),
    hi: runs.hi.subarray(0, length),
    special: runs.special.subarray(0, length),
  });
  return { read, result };
}

/** The columns in twice the room, the first `length` runs copied. */
function grown(runs: ReturnType<typeof packedRunColumns>, length: number) {
  const next = packedRunColumns(length * 2);
  next.jj = runs.jj;
  for (const key of ["trow", "rr", "first", "c", "odd", "size", "lo", "hi", "special"] as const)
    (next[key] as Uint8Array).set(runs[key] as Uint8Array);
  return next;
}

/** Coded runs (objects, with their codes) as RunColumns, for the screen and the order. */
export function runColumnsOf(rows: readonly CodedRunRow[]): RunColumns {
  const pick = <K extends keyof CodedRunRow>(key: K) => rows.map((r) => r[key]);
  return {
    length: rows.length,
    trow: pick("trow"),
    jj: pick("jj"),
    rr: pick("rr"),
    first: pick("first"),
    c: pick("c"),
    odd: pick("odd"),
    size: pick("size"),
    graded: rows.map((r) => r.graded ?? 0),
  };
}

/**
 * What the label runs say of the judgments' checks (judgments-sql.ts checkJudgments): `clean` when no run breaks
 * a row rule, repeats an item, judges an item outside its `_task`'s checklist or names a trajectory not of its
 * `_task`, and the runs hold every one of the table's `judgments` rows (a run whose trajectory is not on its shard
 * drops out of the join); then none of the checks would find anything, and `rows` and `graded` are theirs.
 */
export function screenLabelRuns(
  runs: RunColumns,
  judgments: number,
): { clean: boolean; rows: number; graded: boolean } {
  let rows = 0;
  let graded = false;
  let clean = true;
  for (let k = 0; k < runs.length; k++) {
    rows += runs.c[k];
    if (runs.graded?.[k] === 1) graded = true;
    if (runs.odd[k] === 1) clean = false;
  }
  return { clean: clean && rows === judgments, rows, graded };
}
