import { estimatorNaming, type BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { isBinary } from "./prepared.js";
import type { TrajectoryFrame } from "./trajectory-frame.js";
import { keptColumn } from "../kept-columns.js";
import { matchedCells, groupsWithBothArms, cellTransitions, type CellState } from "./outcome-cells.js";
import { upliftCodes, upliftColumns } from "./uplift-columns.js";
import { UPLIFT_ESTIMATOR, upliftRow, type UpliftJob, type UpliftRow } from "./uplift-row.js";

export type { CellState } from "./outcome-cells.js";
export type { UpliftColumns } from "./uplift-columns.js";
export { upliftRow } from "./uplift-row.js";
export type { UpliftJob, UpliftRow } from "./uplift-row.js";

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
  // Jobs are the rows that draw; the per-task rows' score intervals draw nothing (uplift-row.ts SCORE_INTERVALS), so
  // they are computed when the result is assembled rather than shipped to a thread as jobs.
  const jobs = [
    job("all", all, "outcomes:overall"),
    ...domains.map(([k, members]) => job(k, members, `outcomes:domain:${k}`)),
    ...models.map(([k, members]) => job(k, members, `outcomes:model:${k}`)),
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
      by_model: rows.slice(1 + domains.length),
      by_task: tasks.map(([k, members]) => upliftRow(job(k, members, `outcomes:task:${k}`, "configuration"))),
      ...transitions,
    };
  };
  return { jobs, assemble };
}
