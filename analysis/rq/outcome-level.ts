import { shareAbove } from "../stats/bootstrap.js";
import { ClusteredProportions, ratesOfSumsMany } from "../stats/clustered-proportion.js";
import type { Trajectory } from "../schema/tables.js";
import {
  bootstrapIntervals,
  degenerateMark,
  estimatorNaming,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../estimates/not-defined.js";
/** One uplift row as a job (analysis/rq/jobs.ts). */
export interface UpliftJob {
  kind: "uplift";
  group: string;
  columns: UpliftColumns;
  figure: string;
  unit: "task" | "configuration";
  settings: BootstrapSettings;
}
import { compareCodePoints } from "../order.js";
import { isBinary } from "./prepared.js";
import type { TrajectoryFrame } from "./trajectory-frame.js";
import { denseRanks } from "./population-columns.js";
import { keptColumn } from "../kept-columns.js";

export interface UpliftRow {
  group: string;
  tasks: number;
  /** Matched (task, harness, model, source) cells in the group: only cells that ran both conditions enter. */
  cells: number;
  /** What the bootstrap resamples: tasks (overall, per domain, per model) or configurations (per task). */
  cluster_unit: "task" | "configuration";
  clusters: number;
  trials_none: number;
  passes_none: number;
  rate_none: number | null;
  rate_none_ci: [number, number] | null;
  trials_curated: number;
  passes_curated: number;
  rate_curated: number | null;
  rate_curated_ci: [number, number] | null;
  /**
   * Pass rate with curated skills − without over the matched cells, each cell weighted alike in both arms
   * (see `outcomePlan`); CI from the same clustered draws.
   */
  uplift: number | null;
  uplift_ci: [number, number] | null;
  positive_share: number | null;
  bootstrap: BootstrapDescriptor | null;
  /** Fewer than 10 clusters (contract rule 14): the intervals are shown, but their coverage falls below nominal. */
  few_clusters: boolean;
  /** Some interval of the row is a point (every draw equals the estimate; `bootstrap.degenerate` says which). */
  degenerate?: true;
}

export type CellState = "FAIL-only" | "mixed" | "PASS-only";

export interface OutcomeLevelResult {
  estimator: string;
  /**
   * The matching every row rests on: trials in a (task, harness, model, source) cell that ran only one
   * condition are left out (counted here), so no uplift compares different task sets.
   */
  matched: {
    rule: string;
    cells: number;
    trials_none: number;
    trials_curated: number;
    unmatched_trials_none: number;
    unmatched_trials_curated: number;
    /** Cells whose two arms hold different trial counts (their trials are reweighted, see the estimator). */
    unbalanced_cells: number;
  };
  overall: UpliftRow;
  by_domain: UpliftRow[];
  by_model: UpliftRow[];
  /** Per task; its CI resamples the task's harness/model/source configurations (a task is one cluster). */
  by_task: UpliftRow[];
  /** Cells = (task, harness, model, source); state of the without-skill side → state of the with-skill side. */
  cell_transitions: { from: CellState; to: CellState; cells: number }[];
  cells_paired: number;
  gained: number;
  lost: number;
}

/**
 * The binary view that GCPC refines: pass rate without and with
 * curated skills, overall, per domain and per harness/model, with
 * task-clustered percentile CIs; and cell-level transitions between
 * FAIL-only, mixed and PASS-only cells. Works on any store with binary
 * outcomes, judgments or not.
 */
export function outcomeLevel(
  p: Pick<TrajectoryFrame, "trajectories" | "tasks">,
  settings: BootstrapSettings,
): OutcomeLevelResult | NotAvailable {
  const plan = outcomePlan(p, settings);
  return "available" in plan ? plan : plan.assemble(plan.jobs.map(upliftRow));
}

/**
 * The binary outcome view as jobs (one per uplift row, analysis/rq/jobs.ts) and the function that
 * builds the result from their results, in order. It reads the trajectories and tasks only, so the CLI
 * starts it from the trajectory frame while the judgments are still being read.
 */
export function outcomePlan(
  p: Pick<TrajectoryFrame, "trajectories" | "tasks">,
  settings: BootstrapSettings,
): NotAvailable | { jobs: UpliftJob[]; assemble: (results: readonly unknown[]) => OutcomeLevelResult } {
  const candidates = p.trajectories.filter((t) => isBinary(t) && (t.condition === "none" || t.condition === "curated"));
  if (!candidates.some((t) => t.condition === "none") || !candidates.some((t) => t.condition === "curated")) {
    return notAvailable("needs binary-outcome trajectories in both conditions (none and curated)");
  }
  const m = matchedCells(candidates, upliftCodes(candidates));
  if (m.pop.length === 0)
    return notAvailable("no (task, harness, model, source) cell holds binary trials in both conditions");
  const { pop, codes } = m;
  const job = (group: string, members: Int32Array, figure: string, unit: "task" | "configuration" = "task") => ({
    kind: "uplift" as const,
    group,
    columns: upliftColumns(codes, members, unit),
    figure,
    unit,
    settings,
  });
  const all = keptColumn(Int32Array, pop.length);
  for (let i = 0; i < pop.length; i++) all[i] = i;
  // Each key is a function of the task (domain, task id) or of the configuration (harness / model).
  const domains = groupsWithBothArms(pop, codes, codes.taskRank, (t) => p.tasks.get(t.task_id)?.domain ?? undefined);
  const models = groupsWithBothArms(pop, codes, codes.configurationRank, (t) => `${t.harness} / ${t.model}`);
  const tasks = groupsWithBothArms(pop, codes, codes.taskRank, (t) => t.task_id);
  const jobs = [
    job("all", all, "outcomes:overall"),
    ...domains.map(([k, members]) => job(k, members, `outcomes:domain:${k}`)),
    ...models.map(([k, members]) => job(k, members, `outcomes:model:${k}`)),
    ...tasks.map(([k, members]) => job(k, members, `outcomes:task:${k}`, "configuration")),
  ];
  // The cell transitions are counted when the result is assembled: the jobs start without waiting for them.
  const assemble = (results: readonly unknown[]): OutcomeLevelResult => {
    const rows = results as UpliftRow[];
    const transitions = cellTransitions(codes);
    return {
      estimator: estimatorNaming(UPLIFT_ESTIMATOR, settings.interval),
      matched: m.summary,
      overall: rows[0],
      by_domain: rows.slice(1, 1 + domains.length),
      by_model: rows.slice(1 + domains.length, 1 + domains.length + models.length),
      by_task: rows.slice(1 + domains.length + models.length),
      ...transitions,
    };
  };
  return { jobs, assemble };
}

const UPLIFT_ESTIMATOR =
  "pass rate per condition over the matched (task, harness, model, source) cells only (cells that ran both " +
  "conditions), each cell weighted by its mean trials per condition in both arms (direct standardisation; " +
  "= passes / trials when every matched cell holds as many trials in each condition); uplift = curated − none; " +
  "CIs resample tasks (2-sided percentile)";

/**
 * The trials of the cells (task, harness, model, source) that ran both conditions, with their codes (ranks
 * kept, so groups number clusters as before) and, when some cell's arms hold different trial counts, a
 * weight per trial: m_c / n_{c,arm} with m_c = (n_{c,none} + n_{c,curated}) / 2, so both arms weight each
 * cell alike and a difference in which cells or how many trials each arm ran cannot make an uplift
 * (direct standardisation; Rothman, Greenland & Lash 2008, ch. 4). Balanced cells weigh 1 per trial.
 */
function matchedCells(candidates: Trajectory[], all: UpliftCodes) {
  const { cell, cells } = cellNumbers(all);
  const trials = new Float64Array(2 * cells);
  for (let i = 0; i < candidates.length; i++) trials[2 * cell[i] + all.arm[i]]++;
  const keep: number[] = [];
  let unmatchedNone = 0;
  let unmatchedCurated = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (trials[2 * cell[i]] > 0 && trials[2 * cell[i] + 1] > 0) keep.push(i);
    else if (all.arm[i] === 0) unmatchedNone++;
    else unmatchedCurated++;
  }
  let matched = 0;
  let unbalanced = 0;
  for (let c = 0; c < cells; c++) {
    if (trials[2 * c] > 0 && trials[2 * c + 1] > 0) matched++;
    if (trials[2 * c] > 0 && trials[2 * c + 1] > 0 && trials[2 * c] !== trials[2 * c + 1]) unbalanced++;
  }
  const pick = <T extends Uint8Array | Int32Array>(a: T): T => {
    const out = new (a.constructor as new (n: number) => T)(keep.length);
    for (let k = 0; k < keep.length; k++) out[k] = a[keep[k]];
    return out;
  };
  const codes: UpliftCodes = {
    arm: pick(all.arm),
    pass: pick(all.pass),
    taskRank: pick(all.taskRank),
    configurationRank: pick(all.configurationRank),
  };
  if (unbalanced > 0) {
    codes.weight = new Float64Array(keep.length);
    keep.forEach((i, k) => {
      const c = cell[i];
      codes.weight![k] = (trials[2 * c] + trials[2 * c + 1]) / 2 / trials[2 * c + all.arm[i]];
    });
  }
  let trialsNone = 0;
  for (let k = 0; k < keep.length; k++) trialsNone += codes.arm[k] === 0 ? 1 : 0;
  const summary = {
    rule: "a trial enters only when its (task, harness, model, source) cell holds binary trials in both conditions",
    cells: matched,
    trials_none: trialsNone,
    trials_curated: keep.length - trialsNone,
    unmatched_trials_none: unmatchedNone,
    unmatched_trials_curated: unmatchedCurated,
    unbalanced_cells: unbalanced,
  };
  return { pop: keep.map((i) => candidates[i]), codes, summary };
}

/** Each trial's cell (task rank × configuration rank) numbered densely in first-seen order. */
function cellNumbers(codes: UpliftCodes): { cell: Int32Array; cells: number } {
  const n = codes.arm.length;
  let configurations = 0;
  for (let i = 0; i < n; i++) configurations = Math.max(configurations, codes.configurationRank[i] + 1);
  const cellOf = new Map<number, number>();
  const cell = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = codes.taskRank[i] * configurations + codes.configurationRank[i];
    let c = cellOf.get(key);
    if (c === undefined) cellOf.set(key, (c = cellOf.size));
    cell[i] = c;
  }
  return { cell, cells: cellOf.size };
}

/**
 * A group's trials as columns (what an uplift job carries to another thread, analysis/rq/jobs.ts): arm
 * 0 without skills, 1 with curated skills; pass 1/0; the cluster of each trial (its task, or its
 * harness/model/source configuration), numbered by `taskClusters`; and the group's distinct tasks.
 */
export interface UpliftColumns {
  arm: Uint8Array;
  pass: Uint8Array;
  /** Each trial's weight (matchedCells), when some matched cell is unbalanced; else every trial weighs 1. */
  weight?: Float64Array;
  /** Matched cells among the group's trials. */
  cells: number;
  clusterOf: Int32Array;
  clusters: number;
  tasks: number;
}

const configuration = (t: Trajectory) => JSON.stringify([t.harness, t.model, t.source ?? null]);

/**
 * The uplift population as integer codes, computed once: each trial's arm and outcome, and the rank of
 * its task id and of its configuration key in code-point order. A group's clusters are then its ranks
 * renumbered densely in rank order, which is how `taskClusters` numbers the group's own keys (a Map and a
 * sort of key strings per group cost seconds over 8,700 per-task groups).
 */
interface UpliftCodes {
  arm: Uint8Array;
  pass: Uint8Array;
  taskRank: Int32Array;
  configurationRank: Int32Array;
  weight?: Float64Array;
}

function upliftCodes(pop: Trajectory[]): UpliftCodes {
  // Kept: the closures that build the jobs and assemble the result share the scope that holds them.
  const codes = {
    arm: keptColumn(Uint8Array, pop.length),
    pass: keptColumn(Uint8Array, pop.length),
    taskRank: keptColumn(Int32Array, pop.length),
    configurationRank: keptColumn(Int32Array, pop.length),
  };
  // Configuration keys are built once per distinct (harness, model, source), not once per trial.
  const keyOf = new Map<string, Map<string, Map<Trajectory["source"], string>>>();
  const configurationKey = (t: Trajectory) => {
    const byModel = keyOf.get(t.harness) ?? keyOf.set(t.harness, new Map()).get(t.harness)!;
    const bySource = byModel.get(t.model) ?? byModel.set(t.model, new Map()).get(t.model)!;
    return bySource.get(t.source) ?? bySource.set(t.source, configuration(t)).get(t.source)!;
  };
  const taskIds = new Array<string>(pop.length);
  const configurations = new Array<string>(pop.length);
  for (let i = 0; i < pop.length; i++) {
    const t = pop[i];
    codes.arm[i] = t.condition === "none" ? 0 : 1;
    codes.pass[i] = t.outcome === "PASS" ? 1 : 0;
    taskIds[i] = t.task_id;
    configurations[i] = configurationKey(t);
  }
  rankInto(taskIds, codes.taskRank);
  rankInto(configurations, codes.configurationRank);
  return codes;
}

/** Each key's rank among the distinct keys in code-point order. */
function rankInto(keys: string[], out: Int32Array): void {
  const rank = new Map([...new Set(keys)].sort(compareCodePoints).map((k, r) => [k, r]));
  for (let i = 0; i < keys.length; i++) out[i] = rank.get(keys[i])!;
}

/** The group's members (indices into the population, in population order) as an uplift job's columns. */
function upliftColumns(codes: UpliftCodes, members: Int32Array, unit: "task" | "configuration"): UpliftColumns {
  const n = members.length;
  const arm = keptColumn(Uint8Array, n);
  const pass = keptColumn(Uint8Array, n);
  const rank = unit === "task" ? codes.taskRank : codes.configurationRank;
  const cells = new Set<number>();
  const configurations = codes.configurationRank.length + 1;
  for (let k = 0; k < n; k++) {
    arm[k] = codes.arm[members[k]];
    pass[k] = codes.pass[members[k]];
    cells.add(codes.taskRank[members[k]] * configurations + codes.configurationRank[members[k]]);
  }
  const { dense, distinct } = denseRanks(rank, members);
  const weight = codes.weight ? Float64Array.from(members, (i) => codes.weight![i]) : undefined;
  return {
    arm,
    pass,
    ...(weight ? { weight } : {}),
    cells: cells.size,
    clusterOf: dense,
    clusters: distinct,
    tasks: unit === "task" ? distinct : denseRanks(codes.taskRank, members).distinct,
  };
}

/** Pass rates without and with curated skills in one group, their uplift, and CIs resampling `unit`. */
export function upliftRow(o: {
  group: string;
  columns: UpliftColumns;
  figure: string;
  unit: "task" | "configuration";
  settings: BootstrapSettings;
}): UpliftRow {
  const { unit } = o;
  const { arm, pass, clusterOf, clusters, weight } = o.columns;
  const props = new ClusteredProportions(clusters);
  const a = { trials: 0, successes: 0 };
  const b = { trials: 0, successes: 0 };
  for (let i = 0; i < arm.length; i++) {
    const w = weight ? weight[i] : 1;
    props.add(arm[i], clusterOf[i], pass[i] * w, w);
    const counts = arm[i] === 0 ? a : b;
    counts.trials++;
    counts.successes += pass[i];
  }
  const ones = new Float64Array(clusters).fill(1);
  const rn = props.rate(0, ones);
  const rc = props.rate(1, ones);
  const row: UpliftRow = {
    group: o.group,
    tasks: o.columns.tasks,
    cells: o.columns.cells,
    cluster_unit: unit,
    clusters,
    trials_none: a.trials,
    passes_none: a.successes,
    rate_none: Number.isFinite(rn) ? rn : null,
    rate_none_ci: null,
    trials_curated: b.trials,
    passes_curated: b.successes,
    rate_curated: Number.isFinite(rc) ? rc : null,
    rate_curated_ci: null,
    uplift: Number.isFinite(rn) && Number.isFinite(rc) ? rc - rn : null,
    uplift_ci: null,
    positive_share: null,
    bootstrap: null,
    few_clusters: clusters < FEW_CLUSTERS,
  };
  if (clusters < 2 || row.uplift === null) return row;
  const r = new Float64Array(2);
  const res = bootstrapIntervals({
    settings: o.settings,
    figure: o.figure,
    clusters,
    estimator:
      `pass rate over matched cells (standardised; passes / trials when balanced); ${unit}-clustered ` +
      "percentile bootstrap (type-7); " +
      "uplift on the same draw",
    // Statistics run in the order given on each draw (clusterBootstrap): the first computes both rates once.
    statistics: { none: (w) => props.rates2(w, r)[0], curated: () => r[1], uplift: () => r[1] - r[0] },
    // The same three from each draw's successes and trials (faster than weights, the same values).
    sums: {
      table: props.sums2(),
      statistics: (t, count, out) =>
        ratesOfSumsMany(t, count, { rate0: out.none, rate1: out.curated, difference: out.uplift }),
    },
  });
  return {
    ...row,
    rate_none_ci: res.ci.none,
    rate_curated_ci: res.ci.curated,
    uplift_ci: res.ci.uplift,
    positive_share: shareAbove(res.draws.uplift),
    bootstrap: res.bootstrap,
    ...degenerateMark(res.bootstrap),
  };
}

/**
 * Groups (sorted by code point) that hold both conditions, an uplift needs both arms: each with its
 * members as indices into the population, in population order. `key` must be a function of `rank` (a
 * task's or a configuration's): it is called once per rank, on the rank's first member, and the members
 * are then grouped with integer work (a key string per trial and a Map of arrays cost seconds
 * at 100× the paper, before the other thread had any job).
 */
function groupsWithBothArms(
  pop: Trajectory[],
  codes: UpliftCodes,
  rank: Int32Array,
  key: (t: Trajectory) => string | undefined,
) {
  let ranks = 0;
  for (let i = 0; i < rank.length; i++) ranks = Math.max(ranks, rank[i] + 1);
  const groupOfRank = new Int32Array(ranks).fill(-2);
  const groupOf = new Map<string, number>();
  const keys: string[] = [];
  for (let i = 0; i < pop.length; i++) {
    if (groupOfRank[rank[i]] !== -2) continue;
    const k = key(pop[i]);
    let g = k === undefined ? -1 : groupOf.get(k);
    if (g === undefined) {
      g = keys.length;
      groupOf.set(k as string, g);
      keys.push(k as string);
    }
    groupOfRank[rank[i]] = g;
  }
  // Members counted per group, then placed by offsets (a counting sort keeps population order).
  const start = new Int32Array(keys.length + 1);
  const arms = new Uint8Array(keys.length);
  for (let i = 0; i < pop.length; i++) {
    const g = groupOfRank[rank[i]];
    if (g < 0) continue;
    start[g + 1]++;
    arms[g] |= 1 << codes.arm[i];
  }
  for (let g = 0; g < keys.length; g++) start[g + 1] += start[g];
  const members = new Int32Array(start[keys.length]);
  const next = start.slice(0, keys.length);
  for (let i = 0; i < pop.length; i++) {
    const g = groupOfRank[rank[i]];
    if (g >= 0) members[next[g]++] = i;
  }
  return keys
    .map((k, g) => [k, g] as const)
    .filter(([, g]) => arms[g] === 3)
    .sort((a, b) => compareCodePoints(a[0], b[0]))
    .map(([k, g]) => [k, members.slice(start[g], start[g + 1])] as const);
}

const STATES: CellState[] = ["FAIL-only", "mixed", "PASS-only"];

/**
 * Each (task, harness, model, source) cell's state without and with skills, and the 3 × 3 transition counts.
 * A cell is a (task rank, configuration rank) pair of the uplift codes, and its passes and trials per arm
 * are counted in typed arrays (a JSON key and a nested Map per trial cost 1.8 s at scale 100,
 * after the bootstrap jobs, when the other thread has nothing left to do).
 */
function cellTransitions(codes: UpliftCodes) {
  const n = codes.arm.length;
  const { cell, cells } = cellNumbers(codes);
  const cellOf = { size: cells };
  // [trials, passes] per cell and arm (arm 0: none, 1: curated).
  const trials = new Float64Array(2 * cellOf.size);
  const passes = new Float64Array(2 * cellOf.size);
  for (let i = 0; i < n; i++) {
    const at = 2 * cell[i] + codes.arm[i];
    trials[at]++;
    passes[at] += codes.pass[i];
  }
  const state = (at: number): CellState | undefined =>
    trials[at] === 0 ? undefined : passes[at] === 0 ? "FAIL-only" : passes[at] === trials[at] ? "PASS-only" : "mixed";
  const counts = new Map<string, number>();
  let paired = 0;
  for (let c = 0; c < cellOf.size; c++) {
    const from = state(2 * c);
    const to = state(2 * c + 1);
    if (!from || !to) continue;
    paired++;
    counts.set(`${from}>${to}`, (counts.get(`${from}>${to}`) ?? 0) + 1);
  }
  const get = (from: CellState, to: CellState) => counts.get(`${from}>${to}`) ?? 0;
  return {
    cell_transitions: STATES.flatMap((from) => STATES.map((to) => ({ from, to, cells: get(from, to) }))),
    cells_paired: paired,
    gained: get("FAIL-only", "mixed") + get("FAIL-only", "PASS-only"),
    lost: get("PASS-only", "FAIL-only") + get("mixed", "FAIL-only") + get("PASS-only", "mixed"),
  };
}
