import type { Task, Trajectory } from "../schema/tables.js";
import type { StoreFrame } from "../schema/store.js";
import type { MethodScoreColumns } from "../schema/method-score-columns.js";
import { compareCodePoints, sortByCodePoints } from "../order.js";
import { ScoreColumn, trajectorySlots, type ScoreLookup } from "./score-column.js";
import { keptInOrder } from "../schema/trajectory-order.js";

/** The store's fields a frame is built from: none of them holds judgments. */
export const FRAME_FIELDS = [
  "trajectories",
  "tasks",
  "method_scores",
  "method_score_columns",
  "verifier_results",
  "trajectory_order",
] as const satisfies readonly (keyof StoreFrame)[];

export type FrameTables = Pick<StoreFrame, (typeof FRAME_FIELDS)[number]>;

/**
 * What the analyses need of a store that does not depend on its judgments: the deduplicated trajectories
 * and their slots, the tasks, the verifier's per-test results and the stored method scores. The binary
 * outcome view and the stored methods' AUCs read nothing else, so the CLI builds a frame as soon as these
 * tables are read and starts those intervals on the other thread while the judgments are still being read
 * (the worker sat idle through the read). `prepareStore` builds the same frame when none is
 * given, so both routes give the same report.
 */
export interface TrajectoryFrame {
  /** The tables it was built from (a prepared store checks that they are its own). */
  source: FrameTables;
  /** Deduplicated trajectories in code-point order of trajectory_id. */
  trajectories: Trajectory[];
  /** Trajectories dropped as repeats of a log_hash. */
  dropped: number;
  /** Position of each kept trajectory in `trajectories`: the index of every per-trajectory column. */
  slots: ReadonlyMap<string, number>;
  /** The slot of `source.trajectories[i]` (−1: dropped), when the frame was built from a trajectory order. */
  slotOfIndex?: Int32Array;
  byId: Pick<ReadonlyMap<string, Trajectory>, "get" | "has" | "size">;
  tasks: Map<string, Task>;
  /** Per-test verifier results of a trajectory (test_id → status), if the store has them. */
  testResults: Map<string, Map<string, "passed" | "failed" | "skipped" | "other">>;
  /** Each stored method's scores (paper baselines first), then `verifier_tests` when the store has tests. */
  storedScores: ReadonlyMap<string, ScoreLookup>;
}

export function trajectoryFrame(source: FrameTables): TrajectoryFrame {
  const { trajectories, dropped, slotOf } = source.trajectory_order
    ? keptInOrder(source.trajectories, source.trajectory_order)
    : { ...dedupByLogHash(source.trajectories), slotOf: undefined };
  // One id → position map serves the trajectory lookup, the metric columns and the score columns
  // (a Map per purpose held one entry per trajectory each). Built on first use: the uplift rows
  // do not read it, and start on the other thread before it is (0.7 s at scale 100, on this thread only).
  let slotMap: ReadonlyMap<string, number> | undefined;
  const slotsOf = () => (slotMap ??= trajectorySlots(trajectories));
  const byId = {
    get: (id: string) => {
      const k = slotsOf().get(id);
      return k === undefined ? undefined : trajectories[k];
    },
    has: (id: string) => slotsOf().has(id),
    size: trajectories.length,
  };
  const tasks = new Map(source.tasks.map((t) => [t.task_id, t]));
  const testResults = testResultsOf(source, byId);
  // Built on first use: the uplift rows, which do not read it, start before (analysis/rq/early-jobs.ts).
  let stored: ReadonlyMap<string, ScoreLookup> | undefined;
  return {
    source,
    trajectories,
    dropped,
    ...(slotOf ? { slotOfIndex: slotOf } : {}),
    get slots() {
      return slotsOf();
    },
    byId,
    tasks,
    testResults,
    get storedScores() {
      if (!stored) {
        scoresRead.add(source);
        stored = storedScoresOf(source, slotsOf(), testResults, slotOf);
      }
      return stored;
    },
  };
}

/** The sources of frames whose stored scores were read: their method scores can no longer be attached. */
const scoresRead = new WeakSet<FrameTables>();

/**
 * Gives a frame built before the method scores were read its method score tables (the CLI's first early
 * start, analysis/rq/early-jobs.ts, needs none of them): the frame then stands for the whole store, as if
 * built after them. Only before its stored scores are first read (which read the method scores). It writes
 * into the object the frame was built from: build such a frame from an object of its own (the CLI's
 * frameWatch makes one per call), not from a store.
 */
export function attachMethodScores(
  frame: TrajectoryFrame,
  tables: Pick<FrameTables, "method_scores" | "method_score_columns">,
): void {
  if (scoresRead.has(frame.source))
    throw new Error("attachMethodScores: the frame's stored scores were read before its method scores came");
  frame.source.method_scores = tables.method_scores;
  frame.source.method_score_columns = tables.method_score_columns;
}

/** Deduplication by log_hash (paper §4.1): sorted by trajectory_id, the first of each hash is kept. */
function dedupByLogHash(all: Trajectory[]): { trajectories: Trajectory[]; dropped: number } {
  const sorted = sortByCodePoints(all, (t) => t.trajectory_id);
  const seenHash = new Set<string>();
  const trajectories: Trajectory[] = [];
  for (const t of sorted) {
    if (t.log_hash != null) {
      if (seenHash.has(t.log_hash)) continue;
      seenHash.add(t.log_hash);
    }
    trajectories.push(t);
  }
  return { trajectories, dropped: sorted.length - trajectories.length };
}

/** Each kept trajectory's verifier results, test_id → status. */
function testResultsOf(source: FrameTables, byId: TrajectoryFrame["byId"]): TrajectoryFrame["testResults"] {
  const testResults: TrajectoryFrame["testResults"] = new Map();
  for (const r of source.verifier_results ?? []) {
    if (!byId.has(r.trajectory_id)) continue;
    const m = testResults.get(r.trajectory_id) ?? new Map();
    if (m.size === 0) testResults.set(r.trajectory_id, m);
    m.set(r.test_id, r.status);
  }
  return testResults;
}

/** Paper baselines first (Table 3A order), then any other stored method by name. */
const PAPER_ORDER = ["holistic", "generic", "tick", "tick_adapted"];

/** The stored method scores of the kept trajectories, one column per method, then the verifier's test share. */
function storedScoresOf(
  source: FrameTables,
  slots: ReadonlyMap<string, number>,
  testResults: TrajectoryFrame["testResults"],
  slotOfIndex: Int32Array | undefined,
): Map<string, ScoreLookup> {
  const stored = new Map<string, ScoreColumn>();
  for (const row of source.method_scores ?? []) {
    if (!slots.has(row.trajectory_id)) continue;
    let m = stored.get(row.method);
    if (!m) stored.set(row.method, (m = new ScoreColumn(slots)));
    m.set(row.trajectory_id, row.score);
  }
  const columns = source.method_score_columns;
  if (columns) storedFromColumns(columns, slotOfIndex ?? slotsOfRows(source.trajectories, slots), slots, stored);
  const out = new Map<string, ScoreLookup>();
  for (const name of baselineOrder([...stored.keys()])) out.set(name, stored.get(name)!);
  const tests = verifierTestShare({ testResults });
  if (tests.size > 0 && !out.has("verifier_tests")) out.set("verifier_tests", tests);
  return out;
}

/**
 * The same from a store's method score columns: each trajectory's slot is looked up once per trajectory
 * rather than once per score row (a Map lookup of its id each), and a method's column is created at its
 * first row, as the row loop above creates it.
 */
function storedFromColumns(
  c: MethodScoreColumns,
  slotOf: Int32Array,
  slots: ReadonlyMap<string, number>,
  stored: Map<string, ScoreColumn>,
): void {
  const byMethod: (ScoreColumn | undefined)[] = c.methods.map(() => undefined);
  for (let k = 0; k < c.length; k++) {
    const slot = slotOf[c.trajectory[k]];
    if (slot < 0) continue;
    const m = c.method[k];
    let column = byMethod[m];
    if (!column) stored.set(c.methods[m], (column = byMethod[m] = new ScoreColumn(slots)));
    column.setSlot(slot, c.score[k]);
  }
}

/**
 * The slot of each row of the trajectories table (−1: dropped), by id: what a frame built from a trajectory
 * order holds already as `slotOfIndex` (then no id is looked up: 471,105 Map lookups at scale 100).
 */
function slotsOfRows(trajectories: readonly Trajectory[], slots: ReadonlyMap<string, number>): Int32Array {
  const slotOf = new Int32Array(trajectories.length);
  for (let k = 0; k < trajectories.length; k++) slotOf[k] = slots.get(trajectories[k].trajectory_id) ?? -1;
  return slotOf;
}

function baselineOrder(names: string[]): string[] {
  const known = PAPER_ORDER.filter((n) => names.includes(n));
  const rest = names.filter((n) => !PAPER_ORDER.includes(n)).sort(compareCodePoints);
  return [...known, ...rest];
}

/**
 * Log-free partial credit from the official verifier: share of the
 * trajectory's verifier tests that passed, passed / (passed + failed + other);
 * skipped tests are not counted. Only trajectories with at least one counted
 * test get a score. Note: it reads the verifier, so it is not outcome-free.
 */
export function verifierTestShare(p: Pick<TrajectoryFrame, "testResults">): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, tests] of p.testResults) {
    let passed = 0,
      counted = 0;
    for (const status of tests.values()) {
      if (status === "skipped") continue;
      counted++;
      if (status === "passed") passed++;
    }
    if (counted > 0) out.set(id, passed / counted);
  }
  return out;
}
