// The uplift rows' columns: each matched cell's counts coded per group, the plain data an uplift job carries
// to a worker.
import type { Trajectory } from "../schema/tables.js";
import { compareCodePoints } from "../order.js";
import { denseRanks } from "./population-columns.js";
import { keptColumn } from "../kept-columns.js";

/** A trial's configuration (harness, model, source): the registry's unit beside the task. */
export const configuration = (t: Trajectory) => JSON.stringify([t.harness, t.model, t.source ?? null]);

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

/**
 * The uplift population as integer codes, computed once: each trial's arm and outcome, and the rank of
 * its task id and of its configuration key in code-point order. A group's clusters are then its ranks
 * renumbered densely in rank order, which is how `taskClusters` numbers the group's own keys (a Map and a
 * sort of key strings per group cost seconds over 8,700 per-task groups).
 */
export interface UpliftCodes {
  arm: Uint8Array;
  pass: Uint8Array;
  taskRank: Int32Array;
  configurationRank: Int32Array;
  weight?: Float64Array;
}

export function upliftCodes(pop: Trajectory[]): UpliftCodes {
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
export function rankInto(keys: string[], out: Int32Array): void {
  const rank = new Map([...new Set(keys)].sort(compareCodePoints).map((k, r) => [k, r]));
  for (let i = 0; i < keys.length; i++) out[i] = rank.get(keys[i])!;
}

/** The group's members (indices into the population, in population order) as an uplift job's columns. */
export function upliftColumns(codes: UpliftCodes, members: Int32Array, unit: "task" | "configuration"): UpliftColumns {
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
