import { StringPool } from "./string-pool.js";
import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBDataChunk } from "@duckdb/node-api";
import type { LabelRun, LabelVectors } from "../analysis/schema/label-vectors.js";
import { gradeChar } from "../analysis/schema/grades.js";

// The judgments table's label vectors, built in DuckDB (store/judgment-table.ts loads and checks the
// table): each trajectory run's labels in checklist order, packed while a checklist fits 52 items.

/** Label vectors under way (startLabelVectors): DuckDB computes while the caller runs JavaScript. */
export interface LabelVectorsUnderWay {
  /** Reads and decodes the runs; the vectors. */
  finish(): Promise<LabelVectors>;
  /** Waits for DuckDB's part and drops the result (the store turned out invalid). */
  abandon(): Promise<void>;
}

/**
 * Label vectors of every trajectory run, in SQL: each run's labels in checklist (store) order, one
 * character per item ("." not judged); runs of a trajectory in the order they first appear in the
 * file. With `evidence`, each run also carries the judge's evidence per item (for the site).
 * `trajectories` are the ones loaded into ref_trajectories, in its order (loadReferenceTables): the
 * query returns a run's trajectory as its position there, and the run takes the id string already read,
 * so no id crosses from DuckDB again (a text cell costs about 1 µs to bring into JavaScript).
 *
 * In two steps: this returns once DuckDB has the grouping query in hand (the bulk of the work, on its own
 * threads), so the caller's synchronous checks run meanwhile; `finish` takes the vectors. The
 * database must run nothing else until `finish` or `abandon` returns: the join order is set globally.
 */
export async function startLabelVectors(
  conn: DuckDBConnection,
  primaryJudge: string,
  trajectories: readonly { trajectory_id: string }[],
  options: {
    evidence?: boolean;
    /** The table holds grades or NotApplicable labels (schema_version 2): read through the listed runs. */
    graded?: boolean;
    bucketJudgments?: number;
    strings?: StringPool;
    /**
     * The judgments table's rows and the longest checklist of ref_items, when the caller knows them (each is
     * otherwise one more query: a few milliseconds, which is most of a small store's read).
     */
    known?: { judgments: number; longestChecklist: number };
  } = {},
): Promise<LabelVectorsUnderWay> {
  // Judges and label strings repeat (a label string is one of few patterns): one copy each.
  const strings = options.strings ?? new StringPool();
  const judgments = options.known?.judgments ?? (await judgmentRows(conn));
  // DuckDB's join-order optimizer joined the trajectories to every item of their task first (3.8 M rows at
  // scale 100) and the judgments to that; in the order written (judgments ⋈ trajectories ⋈ items, each
  // hash table built on the smaller side) the joins took 1.2 → 0.3 s. The setting is global only: a read
  // running at the same time in this process (its database shares the instance, store/duck-session.ts)
  // plans its joins unreordered meanwhile, which changes its speed, not its rows (its ordered reads say
  // ORDER BY).
  await conn.run("SET GLOBAL disabled_optimizers = 'join_order'");
  const reset = () => conn.run("RESET GLOBAL disabled_optimizers");
  try {
    if (
      !options.evidence &&
      !options.graded &&
      (options.known?.longestChecklist ?? (await longestChecklist(conn))) <= PACKED_ITEMS
    ) {
      const packed = await startPackedLabelRuns(conn, primaryJudge, trajectories, strings);
      return {
        finish: async () => {
          try {
            return await packed.finish(judgments);
          } finally {
            await reset();
          }
        },
        abandon: async () => {
          await packed.abandon();
          await reset();
        },
      };
    }
    const listed = { ...options, strings, judgments };
    const runs = await listedLabelRuns(conn, primaryJudge, trajectories, listed);
    await reset();
    return { finish: async () => ({ judgments, runs }), abandon: async () => {} };
  } catch (e) {
    await reset();
    throw e;
  }
}

/** The label runs with lists and maps (and the judge's evidence per item when asked). */
async function listedLabelRuns(
  conn: DuckDBConnection,
  primaryJudge: string,
  trajectories: readonly { trajectory_id: string }[],
  options: { evidence?: boolean; graded?: boolean; bucketJudgments?: number; strings: StringPool; judgments: number },
): Promise<Map<string, LabelRun[]>> {
  const { strings, judgments } = options;
  // Trajectories are taken in hash buckets of about 2 M judgments: the aggregate below holds a bucket's
  // runs at once, not the whole table's (at 100× the paper, 16 M judgments, that was 3 GiB). A
  // trajectory's runs all fall in one bucket. Each bucket scans the whole table: buckets of 1 M lowered
  // the read's peak at scale 100 by ≈ 150 MB at the same speed, but cost 35 → 57 s at 100× the paper.
  const buckets = Math.max(1, Math.ceil(judgments / (options.bucketJudgments ?? 2_000_000)));
  const entries: { firstLoc: number; id: string; runs: LabelRun[] }[] = [];
  const entryOf = new Array<{ firstLoc: number; id: string; runs: LabelRun[] } | undefined>(trajectories.length);
  for (let b = 0; b < buckets; b++) {
    const result = await conn.stream(labelVectorSql(options), { primary: primaryJudge, buckets, bucket: b });
    // Read chunk by chunk (≈ 2,048 runs each): the result is never held whole twice, by DuckDB and as
    // JavaScript arrays.
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [indices, judges, runNumbers, firstLocs, labels, evidence, grades] =
        chunk.convertColumns(JSDuckDBValueConverter);
      for (let i = 0; i < indices.length; i++) {
        const idx = indices[i] as number;
        const text = options.graded ? gradedLabels(labels[i] as string, grades[i] as (number | null)[]) : labels[i];
        const run: LabelRun = {
          judge: strings.intern("judge", judges[i] as string),
          run: runNumbers[i] as number,
          labels: strings.intern("labels", text as string),
        };
        if (options.evidence) run.evidence = evidence[i] as (string | null)[];
        const entry = entryOf[idx];
        if (entry) entry.runs.push(run);
        else {
          const created = { firstLoc: Number(firstLocs[i]), id: trajectories[idx].trajectory_id, runs: [run] };
          entryOf[idx] = created;
          entries.push(created);
        }
      }
    }
  }
  // Trajectories in the order of their first judgment in the file, as one unbucketed query returns them.
  if (buckets > 1) entries.sort((a, b) => a.firstLoc - b.firstLoc);
  return new Map(entries.map((e) => [e.id, e.runs]));
}

/** A run's label string with each graded position ("G") given its grade's own character (grades.ts). */
function gradedLabels(labels: string, grades: readonly (number | null)[]): string {
  if (!labels.includes("G")) return labels;
  let out = "";
  for (let k = 0; k < labels.length; k++) out += labels[k] === "G" ? gradeChar(grades[k]!) : labels[k];
  return out;
}

/**
 * Where placedJudgmentsSql reads: the judgments (trajectory_id, item_id, judge, run, _loc, …), the
 * trajectories (trajectory_id, task_id, _idx) and the items (task_id, item_id, in store order by
 * `itemOrder`): the tables loaded for the read, or the one pass's files (store/judgment-pass.ts).
 */
export interface PlacedSources {
  judgments: string;
  trajectories: string;
  items: string;
  itemOrder: string;
}

const LOADED_TABLES: PlacedSources = {
  judgments: "judgments",
  trajectories: "ref_trajectories",
  items: "ref_items",
  itemOrder: "_pos",
};

/**
 * The CTEs the label-vector queries start from: `idx`, each checklist item's position k (1-based, store
 * order) and its task's checklist size n; and `placed`, each judgment with its trajectory's position
 * (_idx), its normalised judge and run, its row, k and n, plus the `columns` given (expressions over j),
 * restricted by `where`. The joins run in the order written (see startLabelVectors).
 */
export function placedJudgmentsSql(columns: string, where = "", from: PlacedSources = LOADED_TABLES): string {
  return `idx AS (SELECT task_id, item_id, row_number() OVER (PARTITION BY task_id ORDER BY ${from.itemOrder}) AS k,
                         count(*) OVER (PARTITION BY task_id) AS n FROM ${from.items}),
     placed AS (
       SELECT t._idx, coalesce(j.judge, $primary) AS judge, coalesce(j.run, 1) AS run, j._loc, idx.k, idx.n,
              ${columns}
       FROM ${from.judgments} j JOIN ${from.trajectories} t USING (trajectory_id)
       JOIN idx ON idx.task_id = t.task_id AND idx.item_id = j.item_id
       ${where})`;
}

/** A judgment's label as its packed two-bit code (Yes 1, No 2, Abstain 3), a column of `placed`. */
export const PACKED_CODE_SQL = "CASE j.label WHEN 'Yes' THEN 1 WHEN 'No' THEN 2 ELSE 3 END::BIGINT AS code";

/**
 * Each judgment is placed at its checklist position k (1-based), then each run's string is read off a
 * position → label map, "." where the run has no judgment (2× faster than a gap-filling join); runs in
 * the order of their first row in the file.
 */
function labelVectorSql(options: { evidence?: boolean; graded?: boolean }): string {
  // A grade strictly between 0 and 1 is "G" here, its value in the grades list; 1 and 0 are Y and N.
  const placed = placedJudgmentsSql(
    `CASE WHEN j.grade IS NOT NULL AND j.grade NOT IN (0, 1) THEN 'G'
          WHEN j.label = 'Yes' OR j.grade = 1 THEN 'Y' WHEN j.label = 'No' OR j.grade = 0 THEN 'N'
          WHEN j.label = 'NotApplicable' THEN '-' ELSE 'A' END AS c, j.evidence, j.grade`,
    "WHERE hash(j.trajectory_id) % $buckets::UBIGINT = $bucket::UBIGINT",
  );
  const graded = options.graded === true;
  return `WITH ${placed},
     runs AS (SELECT _idx, judge, run, min(_loc) AS first_loc, any_value(n) AS n,
                     map_from_entries(list((k, c))) AS m
                     ${options.evidence ? ", map_from_entries(list((k, evidence))) AS e" : ""}
                     ${graded ? ", map_from_entries(list((k, grade))) AS g" : ""}
              FROM placed GROUP BY _idx, judge, run)
     SELECT _idx::INTEGER AS idx, judge, run::INTEGER AS run, first_loc,
            array_to_string(list_transform(range(1, n + 1), x -> coalesce(m[x], '.')), '') AS labels,
            ${options.evidence ? "list_transform(range(1, n + 1), x -> e[x])" : "NULL"} AS evidence
            ${graded ? ", list_transform(range(1, n + 1), x -> g[x]) AS grades" : ""}
     FROM runs ORDER BY first_loc`;
}

/** Items a packed label run holds: two numbers of 26 two-bit codes each, exact below 2⁵³. */
export const PACKED_ITEMS = 52;

/** Rows of the read's judgments table. */
async function judgmentRows(conn: DuckDBConnection): Promise<number> {
  const count = await conn.runAndReadAll("SELECT count(*)::BIGINT AS n FROM judgments");
  return Number((count.getColumnsObjectJS() as Record<string, bigint[]>).n[0]);
}

/** The most items a task's checklist holds, in `items` (a table or a file's table expression). */
export async function longestChecklist(conn: DuckDBConnection, items = "ref_items"): Promise<number> {
  const r = await conn.runAndReadAll(
    `SELECT coalesce(max(n), 0)::INTEGER AS n FROM (SELECT count(*) AS n FROM ${items} GROUP BY task_id)`,
  );
  return (r.getColumnsObjectJS() as Record<string, number[]>).n[0];
}

/**
 * Label vectors without evidence, grouped with sums only: each judgment adds its label's two-bit code
 * (Yes 1, No 2, Abstain 3) at its checklist position k, so a run's labels are two numbers (items 1–26 and
 * 27–52), decoded here ("." where no judgment added a code). In a valid store a run holds at most one
 * judgment per item, so the sums never carry (with a duplicate the read is refused and the runs dropped).
 * Integer sums are DuckDB's cheapest aggregate, and a group holds three numbers whatever its checklist, so
 * no buckets are needed: with the joins in the order written, scale 100's label vectors took 1.7 s instead
 * of 3.1 s. The same runs, in the same order (each run's first judgment in the file), as
 * `labelVectorSql` (tested).
 */
async function startPackedLabelRuns(
  conn: DuckDBConnection,
  primaryJudge: string,
  trajectories: readonly { trajectory_id: string }[],
  strings: StringPool,
): Promise<PackedRunsUnderWay> {
  const judges = await createJudgeCodes(conn, "SELECT judge FROM judgments", primaryJudge);
  const sql = `WITH ${placedJudgmentsSql(PACKED_CODE_SQL)},
     ${packedRunsSql(false)}
     SELECT idx, judge, run, n, lo, hi FROM packed ORDER BY first_loc`;
  return startPackedStream(conn, sql, { primary: primaryJudge }, judges, trajectories, strings);
}

/**
 * judge_codes: each normalised judge of `judges` (a query with a `judge` column; omitted = the primary
 * judge) numbered in code-point order, for packedRunsSql. Returns the judges by code. A judge crosses into
 * JavaScript as its code: a text cell costs about 1 µs to bring over.
 */
export async function createJudgeCodes(
  conn: DuckDBConnection,
  judges: string,
  primaryJudge: string,
): Promise<string[]> {
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE judge_codes AS SELECT judge, (row_number() OVER (ORDER BY judge) - 1)::INTEGER AS code
     FROM (SELECT DISTINCT coalesce(judge, $primary) AS judge FROM (${judges}))`,
    { primary: primaryJudge },
  );
  return (await conn.runAndReadAll("SELECT judge FROM judge_codes ORDER BY code")).getColumnsObjectJS()
    .judge as string[];
}

/**
 * The CTEs `runs` and `packed` that group `placed` (a CTE of judgments with _idx, judge, run, _loc, k, n and
 * their label's code) into packed runs: idx, judge code (judge_codes), run, n, lo, hi and first_loc. With
 * `checks`, each run also counts its judgments (`judged`), the distinct items they judge (`distinct_items`:
 * fewer when a key repeats) and those `placed` marks `bad` (store/judgment-pass.ts).
 */
export function packedRunsSql(checks: boolean): string {
  return `runs AS (
       SELECT _idx, judge, run, min(_loc) AS first_loc, any_value(n) AS n,
              sum(CASE WHEN k <= 26 THEN code << (2 * (k - 1)) ELSE 0 END)::DOUBLE AS lo,
              sum(CASE WHEN k > 26 THEN code << (2 * (k - 27)) ELSE 0 END)::DOUBLE AS hi
              ${checks ? CHECK_AGGREGATES : ""}
       FROM placed GROUP BY _idx, judge, run),
     packed AS (
       SELECT _idx::INTEGER AS idx, c.code AS judge, run::INTEGER AS run, n::INTEGER AS n, lo, hi, first_loc
              ${checks ? ", judged, distinct_items, bad" : ""}
       FROM runs JOIN judge_codes c USING (judge))`;
}

/** A run's items are distinct when the bits 1 << (k − 1) of its judgments are (k ≤ PACKED_ITEMS < 64). */
const CHECK_AGGREGATES = `, count(*)::BIGINT AS judged,
              bit_count(bit_or(1::BIGINT << (k - 1)))::BIGINT AS distinct_items,
              count_if(bad)::BIGINT AS bad`;

/** Packed runs being computed (startPackedStream). */
export interface PackedRunsUnderWay {
  /** The label vectors, of `judgments` rows. */
  finish(judgments: number): Promise<LabelVectors>;
  abandon(): Promise<void>;
}

/**
 * Starts `sql` (idx, judge code, run, n, lo, hi, in run order) and decodes it on `finish`. DuckDB answers a
 * stream once its first chunk is ready, which takes the whole grouping and sort. The statement is prepared
 * first, so that the execution itself starts now, not awaited: it is computed while the caller runs (a
 * continuation would wait for the caller to yield).
 */
export async function startPackedStream(
  conn: DuckDBConnection,
  sql: string,
  params: Record<string, string>,
  judges: readonly string[],
  trajectories: readonly { trajectory_id: string }[],
  strings: StringPool,
): Promise<PackedRunsUnderWay> {
  const pooled = judges.map((j) => strings.intern("judge", j));
  const prepared = await conn.prepare(sql);
  if (Object.keys(params).length > 0) prepared.bind(params);
  const streaming = prepared.stream().finally(() => prepared.destroySync());
  // Handled here too: a failure before `finish` or `abandon` awaits it is not an unhandled rejection.
  streaming.catch(() => undefined);
  return {
    finish: async (judgments) => {
      const result = await streaming;
      const { byPosition, firstSeen } = await decodePackedRuns(
        () => result.fetchChunk(),
        pooled,
        trajectories,
        strings,
      );
      return labelVectorsByPosition(judgments, trajectories, byPosition, firstSeen);
    },
    abandon: async () => {
      await streaming.catch(() => undefined);
    },
  };
}

/**
 * The packed query's runs, chunk by chunk, decoded into label runs by trajectory position; `firstSeen` lists
 * the positions in the order of their first run.
 */
async function decodePackedRuns(
  next: () => Promise<DuckDBDataChunk | null>,
  judges: readonly string[],
  trajectories: readonly { trajectory_id: string }[],
  strings: StringPool,
): Promise<{ byPosition: (LabelRun[] | undefined)[]; firstSeen: number[] }> {
  const byPosition = new Array<LabelRun[] | undefined>(trajectories.length);
  const firstSeen: number[] = [];
  const decode = new PackedLabels(strings);
  for (let chunk = await next(); chunk && chunk.rowCount > 0; chunk = await next()) {
    const [indices, judgeCodes, runNumbers, sizes, los, his] = [0, 1, 2, 3, 4, 5].map((c) => chunk.getColumnVector(c));
    const rows = chunk.rowCount; // a native call: read once, not once per row
    for (let i = 0; i < rows; i++) {
      const run: LabelRun = {
        judge: judges[judgeCodes.getItem(i) as number],
        run: runNumbers.getItem(i) as number,
        labels: decode.labels(sizes.getItem(i) as number, los.getItem(i) as number, his.getItem(i) as number),
      };
      const at = indices.getItem(i) as number;
      const list = byPosition[at];
      if (list) list.push(run);
      else {
        byPosition[at] = [run];
        firstSeen.push(at);
      }
    }
  }
  return { byPosition, firstSeen };
}

/**
 * Label vectors held by trajectory position. The Map by id is built on first use, in the order of each
 * trajectory's first run (as the listed path builds it): the report reads runs by position only, and
 * 471,105 Map entries cost 0.8 s of the main thread at scale 100. The object must not be
 * spread: that would build the Map.
 */
export function labelVectorsByPosition(
  judgments: number,
  trajectories: readonly { trajectory_id: string }[],
  byPosition: (LabelRun[] | undefined)[],
  firstSeen: readonly number[],
): LabelVectors {
  let runs: Map<string, LabelRun[]> | undefined;
  return {
    judgments,
    get runs() {
      runs ??= new Map(firstSeen.map((at) => [trajectories[at].trajectory_id, byPosition[at]!]));
      return runs;
    },
    byPosition: { of: trajectories, runs: byPosition },
  };
}

/** Label strings from packed codes, each distinct one built once (a run's labels are one of few patterns). */
class PackedLabels {
  private readonly built = new Map<number, Map<number, string>>();

  constructor(private readonly strings: StringPool) {}

  labels(n: number, lo: number, hi: number): string {
    // n ≤ 26 (hi = 0) is the common case: cached by (n, lo); longer checklists are built and pooled.
    if (hi !== 0 || n > 26) return this.strings.intern("labels", decodePacked(n, lo) + decodePacked(n - 26, hi));
    let byCode = this.built.get(n);
    if (!byCode) this.built.set(n, (byCode = new Map()));
    let labels = byCode.get(lo);
    if (labels === undefined) byCode.set(lo, (labels = this.strings.intern("labels", decodePacked(n, lo))));
    return labels;
  }
}

const PACKED_CHAR = [".", "Y", "N", "A"];

/** The first min(n, 26) labels of a packed number (two bits an item, item 1 lowest). */
function decodePacked(n: number, packed: number): string {
  let out = "";
  for (let k = 0; k < Math.min(n, 26); k++) {
    const code = packed % 4;
    out += PACKED_CHAR[code];
    packed = (packed - code) / 4;
  }
  return out;
}
