// Packed label runs streamed out of DuckDB and decoded by trajectory position.
import type { StringPool } from "./string-pool.js";
import type { DuckDBConnection, DuckDBDataChunk } from "@duckdb/node-api";
import type { LabelRun, LabelVectors } from "../analysis/schema/label-vectors.js";
import { placedJudgmentsSql, PACKED_CODE_SQL, createJudgeCodes, packedRunsSql } from "./label-vector-sql.js";

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
export async function startPackedLabelRuns(
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
export async function decodePackedRuns(
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
export class PackedLabels {
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

export const PACKED_CHAR = [".", "Y", "N", "A"];

/** The first min(n, 26) labels of a packed number (two bits an item, item 1 lowest). */
export function decodePacked(n: number, packed: number): string {
  let out = "";
  for (let k = 0; k < Math.min(n, 26); k++) {
    const code = packed % 4;
    out += PACKED_CHAR[code];
    packed = (packed - code) / 4;
  }
  return out;
}
