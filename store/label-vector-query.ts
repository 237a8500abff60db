import { StringPool } from "./string-pool.js";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { LabelRun, LabelVectors } from "../analysis/schema/label-vectors.js";
import { gradeChar } from "../analysis/schema/grades.js";
import { labelVectorSql, PACKED_ITEMS, judgmentRows, longestChecklist } from "./label-vector-sql.js";
import { startPackedLabelRuns } from "./packed-label-runs.js";

export {
  placedJudgmentsSql,
  PACKED_CODE_SQL,
  PACKED_ITEMS,
  longestChecklist,
  createJudgeCodes,
  packedRunsSql,
} from "./label-vector-sql.js";
export type { PlacedSources } from "./label-vector-sql.js";
export { startPackedStream, labelVectorsByPosition } from "./packed-label-runs.js";
export type { PackedRunsUnderWay } from "./packed-label-runs.js";

// table): each trajectory run's labels in checklist order, packed while a checklist fits 52 items.

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
  const { JSDuckDBValueConverter } = await import("@duckdb/node-api");
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
