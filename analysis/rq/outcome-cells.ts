// The registry's matched cells (a configuration's trials of a task, without and with skills) and each cell's
// outcome transition: what the outcome-level analysis (outcome-level.ts) counts and resamples.
import type { Trajectory } from "../schema/tables.js";
import { compareCodePoints } from "../order.js";
import type { UpliftCodes } from "./uplift-columns.js";

/**
 * The trials of the cells (task, harness, model, source) that ran both conditions, with their codes (ranks
 * kept, so groups number clusters as before) and, when some cell's arms hold different trial counts, a
 * weight per trial: m_c / n_{c,arm} with m_c = (n_{c,none} + n_{c,curated}) / 2, so both arms weight each
 * cell alike and a difference in which cells or how many trials each arm ran cannot make an uplift
 * (direct standardisation; Rothman, Greenland & Lash 2008, ch. 4). Balanced cells weigh 1 per trial.
 */
export function matchedCells(candidates: Trajectory[], all: UpliftCodes) {
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
export function cellNumbers(codes: UpliftCodes): { cell: Int32Array; cells: number } {
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
 * Groups (sorted by code point) that hold both conditions, an uplift needs both arms: each with its
 * members as indices into the population, in population order. `key` must be a function of `rank` (a
 * task's or a configuration's): it is called once per rank, on the rank's first member, and the members
 * are then grouped with integer work (a key string per trial and a Map of arrays cost seconds
 * at 100× the paper, before the other thread had any job).
 */
export function groupsWithBothArms(
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

export type CellState = "FAIL-only" | "mixed" | "PASS-only";

export const STATES: CellState[] = ["FAIL-only", "mixed", "PASS-only"];

/**
 * Each (task, harness, model, source) cell's state without and with skills, and the 3 × 3 transition counts.
 * A cell is a (task rank, configuration rank) pair of the uplift codes, and its passes and trials per arm
 * are counted in typed arrays (a JSON key and a nested Map per trial cost 1.8 s at scale 100,
 * after the bootstrap jobs, when the other thread has nothing left to do).
 */
export function cellTransitions(codes: UpliftCodes) {
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
