import { DEFAULT_JUDGE, type Item, type Label, type Trajectory } from "../schema/tables.js";
import type { Store, StoreFrame } from "../schema/store.js";
import { decodeLabels, labelVectorsFromRows, type LabelRun, type LabelVectors } from "../schema/label-vectors.js";
import {
  PLAIN,
  countAfterOutcomeStep,
  countsOfVariant,
  gcpcOf,
  routeCounts,
  type AbstentionRule,
  type OutcomeStep,
} from "../scoring/official-outcome.js";
import { metricsOfRouteCounts } from "../scoring/trajectory-metrics.js";
import { RouteCountsTable } from "../scoring/route-counts-table.js";
import { compareCodePoints } from "../order.js";
import { MetricsTable } from "../scoring/metrics-table.js";
import { gatedLabels, prerequisiteClosure } from "../scoring/gated-credit.js";
import { FRAME_FIELDS, trajectoryFrame, type TrajectoryFrame } from "./trajectory-frame.js";

/** Store counts reported with every output (dedup / non-binary / zero-evidence). */
export interface StoreCounts {
  tasks: number;
  items: number;
  trajectories: number;
  duplicates_dropped: number;
  unique_trajectories: number;
  binary: number;
  non_binary: number;
  zero_evidence: number;
  judgments: number;
  judges: string[];
}

/**
 * A store after deduplication with every trajectory's primary-run labels and
 * metrics: the shared input of RQ1–RQ5. Built once; pure.
 */
export interface PreparedStore extends Omit<TrajectoryFrame, "source" | "dropped"> {
  /** The store analysed, its judgments as label vectors (a row-shaped store's are built once, here). */
  store: StoreFrame;
  primaryJudge: string;
  /** Checklist of each task, in store order. */
  checklist: Map<string, Item[]>;
  /** Metrics under the primary judge, run 1 (the primary scoring); `atSlot(k)` reads trajectories[k]'s. */
  metrics: MetricsTable;
  counts: StoreCounts;
  /** Labels aligned with the task checklist for (trajectory, judge, run); undefined = not judged. */
  labelsOf(trajectoryId: string, judge?: string, run?: number): (Label | undefined)[] | undefined;
  /** (judge, run) combinations present for a trajectory. */
  runsOf(trajectoryId: string): { judge: string; run: number }[];
  /**
   * The runs of trajectories[k] (undefined: none), read by slot: what a loop over the trajectories uses
   * instead of `runsOf`, `labelsOf` and `score`, whose id lookups each miss the cache once there are
   * millions of trajectories.
   */
  runsAt(k: number): readonly LabelRun[] | undefined;
  /**
   * The label string (label-vectors.ts) of trajectories[k]'s run of `judge` (default primary) and `run`
   * (default 1), undefined when k is or it has none: what `labelsOf` decodes, read by slot.
   */
  labelsAt(k: number | undefined, judge?: string, run?: number): string | undefined;
  /** {@link score} of trajectories[k]. */
  scoreAt(k: number, step: OutcomeStep, abstention?: AbstentionRule, judge?: string, run?: number): number;
  /** GCPC under an arbitrary outcome step / abstention rule for the primary run. */
  score(trajectoryId: string, step: OutcomeStep, abstention?: AbstentionRule, judge?: string, run?: number): number;
  /** The same under several variants, the labels decoded once (RQ4 scores every trajectory under each). */
  scores(
    trajectoryId: string,
    variants: readonly { step: OutcomeStep; abstention?: AbstentionRule }[],
    judge?: string,
    run?: number,
  ): number[];
  /**
   * {@link scores} of every trajectory of a list (primary judge, run 1), one column per variant: what RQ4's
   * separations read. Equal to calling `scores` per trajectory, without its per-call lookups and arrays.
   */
  scoreColumns(
    trajectories: readonly Trajectory[],
    variants: readonly { step: OutcomeStep; abstention?: AbstentionRule }[],
    /** Each trajectory's slot, when the caller has it (the list's ids are then not looked up). */
    listSlots?: ArrayLike<number>,
  ): Float64Array[];
  /** True when the store holds at least one judgment (GCPC analyses are possible). */
  hasJudgments: boolean;
  /**
   * Items whose verdict enters the official outcome (items.determines_outcome) and the others. With both
   * kinds, GCPC is computed over the outcome-free items (the others are `left_out` of every score) and
   * `allItemsGcpc` holds plain GCPC over every item; with only outcome-determining items, GCPC is not
   * outcome-free.
   */
  outcomeItems: { determining: number; free: number };
  /** Plain GCPC over every item (outcome-determining ones included), by slot; only in a store of both kinds. */
  allItemsGcpc?: Float64Array;
  /**
   * Plain GCPC with the item weights dropped (the mean grade over applicable decided items), by slot; only in a
   * store whose items carry weights, where `gcpc` is the weighted form (schema_version 2).
   */
  unweightedGcpc?: Float64Array;
  /** Gated plain GCPC (analysis/scoring/gated-credit.ts), weighted as `gcpc` is, by slot; only with prerequisites. */
  gatedGcpc?: Float64Array;
}

/** Whether plain GCPC of this store is outcome-free: none of the items it counts enters the outcome. */
export const gcpcIsOutcomeFree = (p: Pick<PreparedStore, "outcomeItems">) =>
  p.outcomeItems.determining === 0 || p.outcomeItems.free > 0;

/**
 * The store prepared for RQ1–RQ5. `frame`, when given, is the store's trajectory frame built earlier
 * (the CLI builds it while the judgments are still being read); it must come from this store's tables.
 */
export function prepareStore(
  input: Store | StoreFrame,
  frame: TrajectoryFrame = trajectoryFrame(input),
): PreparedStore {
  const primaryJudge = input.manifest.primary_judge ?? DEFAULT_JUDGE;
  if (!framesStore(frame, input)) throw new Error("prepareStore: the trajectory frame was built from other tables");
  const { trajectories, dropped, slots, byId, tasks, testResults, storedScores } = frame;
  const { outcomeItems, mixed, checklist, weighted } = scoringChecklist(input);
  const store = storeFrameOf(input, byId, checklist, primaryJudge);
  const vectors = store.labels;
  // Every read of a run goes through the slot (an id is looked up once, in `slots`); decoded only on request.
  const runsBySlot = runsBySlotOf(store, frame, vectors);
  // The judges of the kept trajectories' runs (a dropped duplicate's runs are read by no slot).
  const judges = new Set<string>();
  for (const list of runsBySlot) for (const r of list ?? []) judges.add(r.judge);
  // Without a judge named, a trajectory is read as its scoring judge labelled it (scoringJudge).
  const judgeOf = (k: number) => scoringJudge(runsBySlot[k], primaryJudge);
  const labelsAt = (k: number | undefined, judge?: string, run = 1) => {
    if (k === undefined) return undefined;
    const who = judge ?? judgeOf(k);
    return runsBySlot[k]?.find((x) => x.judge === who && x.run === run)?.labels;
  };
  const labelsOf = (id: string, judge?: string, run = 1) => {
    const labels = labelsAt(slots.get(id), judge, run);
    return labels === undefined ? undefined : decodeLabels(labels);
  };
  const { primaryRuns, routes, metrics } = primaryRunMetrics(trajectories, slots, checklist, (k) => labelsAt(k));
  const scores: PreparedStore["scores"] = (id, variants, judge, run = 1) => {
    const k = slots.get(id);
    const labels = labelsAt(k, judge, run);
    if (k === undefined || labels === undefined) return variants.map(() => NaN);
    return variants.map(variantScorer(trajectories[k], labels, checklist, testResults));
  };
  return {
    store,
    primaryJudge,
    trajectories,
    slots,
    byId,
    tasks,
    checklist,
    metrics,
    counts: storeCounts(store, trajectories, metrics, dropped, judges, vectors.judgments),
    labelsOf,
    testResults,
    storedScores,
    hasJudgments: vectors.judgments > 0,
    outcomeItems,
    ...(mixed ? { allItemsGcpc: allItemsScores(store, trajectories, primaryRuns) } : {}),
    ...(weighted ? { unweightedGcpc: alternativeScores(trajectories, checklist, primaryRuns, "unweighted") } : {}),
    ...(input.items.some((it) => (it.prerequisites?.length ?? 0) > 0)
      ? { gatedGcpc: alternativeScores(trajectories, checklist, primaryRuns, "gated") }
      : {}),
    runsOf(id) {
      const k = slots.get(id);
      return (k === undefined ? [] : (runsBySlot[k] ?? [])).map(({ judge, run }) => ({ judge, run }));
    },
    runsAt: (k) => runsBySlot[k],
    labelsAt,
    scoreAt(k, step, abstention = "exclude", judge, run = 1) {
      const labels = labelsAt(k, judge, run);
      if (labels === undefined) return NaN;
      return variantScorer(trajectories[k], labels, checklist, testResults)({ step, abstention });
    },
    score(id, step, abstention = "exclude", judge, run = 1) {
      return scores(id, [{ step, abstention }], judge, run)[0];
    },
    scores,
    scoreColumns: (list, variants, listSlots) =>
      scoreColumnsOf({ list, listSlots, variants, slots, primaryRuns, routes, checklist, testResults }),
  };
}

/**
 * The judge whose labels score a trajectory (issue 45.2: in InfoBench-style data each model is judged by another
 * model, so a store's primary judge labelled only some of them): the primary judge when it labelled the
 * trajectory, else the one judge that did; with several other judges and not the primary, none (the trajectory
 * is unscored, and the overview says per arm which judge scored it). `gcpc leaderboard --judge` names one.
 */
export function scoringJudge(runs: readonly { judge: string }[] | undefined, primaryJudge: string): string {
  if (!runs || runs.length === 0 || runs.some((r) => r.judge === primaryJudge)) return primaryJudge;
  const judges = new Set(runs.map((r) => r.judge));
  return judges.size === 1 ? runs[0].judge : primaryJudge;
}

/**
 * Each kept trajectory's primary run (its scoring judge, run 1) and its route counts and metrics, by slot: looked
 * up and counted once here, where RQ4's score columns looked each trajectory up in two maps per call and
 * walked its labels again (6 s, then 8 s, at 100× the paper). The metrics are the counts' arithmetic
 * (metricsOfRouteCounts: trajectoryMetrics' values, tested).
 */
function primaryRunMetrics(
  trajectories: readonly Trajectory[],
  slots: ReadonlyMap<string, number>,
  checklist: Map<string, Item[]>,
  primaryLabelsAt: (k: number) => string | undefined,
) {
  const metrics = new MetricsTable(
    trajectories.map((t) => t.trajectory_id),
    slots,
  );
  const primaryRuns = new Array<string | undefined>(trajectories.length);
  const routes = new RouteCountsTable(trajectories.length);
  for (const [k, t] of trajectories.entries()) {
    const labels = (primaryRuns[k] = primaryLabelsAt(k));
    // No run: the empty label string, which reads as unjudged at every position (labelAt).
    const counts = routeCounts(checklist.get(t.task_id)!, labels ?? "");
    routes.set(k, counts);
    metrics.setSlot(k, metricsOfRouteCounts(counts, t.outcome));
  }
  return { primaryRuns, routes, metrics };
}

/**
 * Each kept trajectory's runs, by slot: from the reader's positions when it gave them for these very
 * trajectories (LabelVectors.byPosition), with no id lookup per slot; else looked up by id.
 */
function runsBySlotOf(store: StoreFrame, frame: TrajectoryFrame, vectors: LabelVectors): (LabelRun[] | undefined)[] {
  const out = new Array<LabelRun[] | undefined>(frame.trajectories.length);
  const byPosition = vectors.byPosition;
  const slotOf = byPosition?.of === store.trajectories ? frame.slotOfIndex : undefined;
  if (byPosition && slotOf) {
    for (let i = 0; i < slotOf.length; i++) if (slotOf[i] >= 0) out[slotOf[i]] = byPosition.runs[i];
  } else for (const [k, t] of frame.trajectories.entries()) out[k] = vectors.runs.get(t.trajectory_id);
  return out;
}

/** Whether a frame was built from these tables of the store (the same arrays, not equal copies). */
function framesStore(frame: TrajectoryFrame, store: Store | StoreFrame): boolean {
  return FRAME_FIELDS.every((k) => frame.source[k] === (store as Partial<StoreFrame>)[k]);
}

type Variant = { step: OutcomeStep; abstention?: AbstentionRule };

/**
 * GCPC of one run of trajectory t (its label string, counted in place) under a variant: what `scores`
 * and `scoreColumns` both compute, so they agree by construction.
 */
function variantScorer(
  t: Trajectory,
  labels: string,
  checklist: Map<string, Item[]>,
  testResults: PreparedStore["testResults"],
): (variant: Variant) => number {
  const tests = testResults.get(t.trajectory_id);
  const lookup = tests ? (ref: string) => tests.get(ref) : undefined;
  const items = checklist.get(t.task_id)!;
  // Counted once by route; only per-test propagation on a FAIL with test results walks the items again.
  const counts = routeCounts(items, labels);
  return ({ step, abstention = "exclude" }) =>
    gcpcOf(
      step.perTest && t.outcome === "FAIL" && lookup
        ? countAfterOutcomeStep(items, labels, t.outcome, step, abstention, lookup)
        : countsOfVariant(counts, t.outcome, step, abstention),
    );
}

/**
 * Variant scores as columns (PreparedStore.scoreColumns): per trajectory, one lookup of its run and its
 * label string counted in place, with no array per call (RQ4 calling `scores` per trajectory
 * was 9 s of its 25 s at 100× the paper).
 */
function scoreColumnsOf(o: {
  list: readonly Trajectory[];
  listSlots?: ArrayLike<number>;
  variants: readonly Variant[];
  slots: ReadonlyMap<string, number>;
  primaryRuns: readonly (string | undefined)[];
  routes: RouteCountsTable;
  checklist: Map<string, Item[]>;
  testResults: PreparedStore["testResults"];
}): Float64Array[] {
  const { list, variants } = o;
  const columns = variants.map(() => new Float64Array(list.length).fill(NaN));
  for (let i = 0; i < list.length; i++) {
    const t = list[i];
    const slot = o.listSlots ? o.listSlots[i] : o.slots.get(t.trajectory_id);
    const labels = slot === undefined ? undefined : o.primaryRuns[slot];
    if (labels === undefined) continue;
    // Per-test propagation on a FAIL with test results walks the items (each item's test decides);
    // every other variant is arithmetic on the route counts counted when the store was prepared.
    if (t.outcome === "FAIL" && o.testResults.size > 0 && o.testResults.has(t.trajectory_id)) {
      const score = variantScorer(t, labels, o.checklist, o.testResults);
      for (let v = 0; v < variants.length; v++) columns[v][i] = score(variants[v]);
      continue;
    }
    const counts = o.routes.at(slot!);
    for (let v = 0; v < variants.length; v++) {
      const { step, abstention = "exclude" } = variants[v];
      columns[v][i] = gcpcOf(countsOfVariant(counts, t.outcome, step, abstention));
    }
  }
  return columns;
}

/**
 * The store as the analyses read it: a store read from disk already is one; a row-shaped store's judgment
 * rows become label vectors, with the judge's evidence (the site's explorer shows it), the other tables the
 * same arrays.
 */
function storeFrameOf(
  store: Store | StoreFrame,
  byId: PreparedStore["byId"],
  checklist: Map<string, Item[]>,
  primaryJudge: string,
): StoreFrame {
  if (!("judgments" in store)) return store;
  const { judgments, ...tables } = store;
  const checklistOf = (id: string) => {
    const t = byId.get(id);
    return t ? checklist.get(t.task_id) : undefined;
  };
  return { ...tables, labels: labelVectorsFromRows(judgments, checklistOf, primaryJudge, { evidence: true }) };
}

function storeCounts(
  store: StoreFrame,
  trajectories: Trajectory[],
  metrics: MetricsTable,
  dropped: number,
  judges: Set<string>,
  judgments: number,
): StoreCounts {
  const binary = trajectories.filter(isBinary).length;
  const zeroEvidence = trajectories.filter((_, k) => metrics.atSlot(k).zero_evidence).length;
  return {
    tasks: store.tasks.length,
    items: store.items.length,
    trajectories: store.trajectories.length,
    duplicates_dropped: dropped,
    unique_trajectories: trajectories.length,
    binary,
    non_binary: trajectories.length - binary,
    zero_evidence: zeroEvidence,
    judgments,
    judges: [...judges].sort(compareCodePoints),
  };
}

export function isBinary(t: Trajectory): t is Trajectory & { outcome: "PASS" | "FAIL" } {
  return t.outcome === "PASS" || t.outcome === "FAIL";
}

/**
 * Each task's checklist in store order; in a store of both kinds the outcome-determining items keep their
 * label position but leave the score (`left_out`).
 */
function scoringChecklist(store: Pick<Store, "items" | "tasks">) {
  const outcomeItems = countOutcomeItems(store.items);
  const mixed = outcomeItems.determining > 0 && outcomeItems.free > 0;
  const checklist = itemsByTask(store, (it) =>
    mixed && it.determines_outcome ? ({ ...it, left_out: true } as Item) : it,
  );
  const weighted = store.items.some((it) => it.weight != null);
  if (weighted) for (const [task, items] of checklist) checklist.set(task, weightsThatSum(items));
  return { outcomeItems, mixed, checklist, weighted };
}

/**
 * A task's items with weights whose sum cannot overflow: when the task's largest weight times its item count
 * passes 2^1000, every weight is divided by the power of two at or above the largest, which is exact in binary
 * floating point, so every ratio of weighted sums (a credit, the endpoint's mean weight) is the one the weights
 * as given define (issue 57.2: weights of 1e307 summed to Infinity, and `report` stopped with a stack trace).
 * Weights too small to matter beside the largest may round to 0 on the way, where they changed no sum anyway.
 */
export function weightsThatSum(items: Item[]): Item[] {
  let largest = 0;
  for (const it of items) largest = Math.max(largest, it.weight ?? 1);
  if (!(largest * items.length > 2 ** 1000)) return items;
  const scale = 2 ** -Math.ceil(Math.log2(largest));
  // An item without a weight weighs 1 beside the others, so it is scaled alike.
  return items.map((it) => ({ ...it, weight: (it.weight ?? 1) * scale }));
}

/**
 * Plain GCPC of each trajectory's primary run under another reading of the checklist, by slot: unweighted
 * (weights dropped) or gated (analysis/scoring/gated-credit.ts). NaN when nothing is decided.
 */
function alternativeScores(
  trajectories: readonly Trajectory[],
  checklist: Map<string, Item[]>,
  primaryRuns: readonly (string | undefined)[],
  how: "unweighted" | "gated",
): Float64Array {
  const items = new Map<string, Item[]>();
  const closures = new Map<string, number[][]>();
  for (const [task, list] of checklist) {
    items.set(task, how === "unweighted" ? list.map((it) => ({ ...it, weight: null })) : list);
    if (how === "gated") closures.set(task, prerequisiteClosure(list));
  }
  return Float64Array.from(trajectories, (t, k) => {
    const labels = primaryRuns[k] ?? "";
    const read = how === "gated" ? gatedLabels(labels, closures.get(t.task_id)!) : labels;
    return gcpcOf(countsOfVariant(routeCounts(items.get(t.task_id)!, read), t.outcome, PLAIN));
  });
}

/** Each task's items in store order (through `each`); items of a task the store lacks are dropped. */
function itemsByTask(
  store: Pick<Store, "items" | "tasks">,
  each: (it: Item) => Item = (it) => it,
): Map<string, Item[]> {
  const byTask = new Map<string, Item[]>();
  for (const t of store.tasks) byTask.set(t.task_id, []);
  for (const it of store.items) byTask.get(it.task_id)?.push(each(it));
  return byTask;
}

function countOutcomeItems(items: readonly Item[]): { determining: number; free: number } {
  let determining = 0;
  for (const it of items) if (it.determines_outcome) determining++;
  return { determining, free: items.length - determining };
}

/** Plain GCPC over every item of the task's checklist (none left out), by slot; NaN when nothing is decided. */
function allItemsScores(
  store: Pick<Store, "items" | "tasks">,
  trajectories: readonly Trajectory[],
  primaryRuns: readonly (string | undefined)[],
): Float64Array {
  const full = itemsByTask(store);
  return Float64Array.from(trajectories, (t, k) =>
    gcpcOf(countsOfVariant(routeCounts(full.get(t.task_id)!, primaryRuns[k] ?? ""), t.outcome, PLAIN)),
  );
}
