// `gcpc gate --sequential` (issue 56.3): early stopping that stays valid. Tasks enter in the order they completed;
// after each one, an anytime-valid confidence sequence for the mean paired per-task difference says continue, or
// stops with better, not worse, worse or equivalent within the margin. Looking after every task costs no validity.
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { bettingConfidenceSequence } from "../../stats/betting-cs.js";
import type { PreparedStore } from "../prepared.js";
import { armMatchedUnits, armTable, type Selector } from "./compare-arms.js";

export type SequentialDecision = "continue" | "better" | "not worse" | "worse" | "equivalent";

/**
 * What the team waits for: "any" stops at the first look with a decision; "better" only at better or worse (a
 * "not worse" or "equivalent" look goes on while the upper end is above 0, since better is still possible). The
 * confidence sequence holds at every look at once, so any stopping rule keeps its level (Howard et al. 2021).
 */
export type SequentialGoal = "any" | "better";

/** Whether a look's decision ends the run for a goal. */
export function stopsFor(goal: SequentialGoal, decision: SequentialDecision): boolean {
  if (decision === "continue") return false;
  return goal === "any" || decision === "better" || decision === "worse";
}

export interface SequentialLook {
  /** Tasks used so far, the last one's id, when it completed (null: file order). */
  tasks: number;
  task: string;
  completed_at: string | null;
  /** The running confidence sequence for the mean per-task Δ (candidate − baseline), on [−1, 1]. */
  lower: number;
  upper: number;
  mean: number;
  decision: SequentialDecision;
}

export interface SequentialGateResult {
  metric: "pass_rate" | "gcpc";
  margin: number;
  alpha: number;
  goal: SequentialGoal;
  /** The first look whose decision the goal stops at (null: none by the last task), and the decision there. */
  stopped_at: number | null;
  decision: SequentialDecision;
  /** The tasks the fixed design would use: every matched task. */
  fixed_design_tasks: number;
  order: string;
  looks: SequentialLook[];
  method: string;
}

/** A look's decision from the running interval [L, U] of Δ (the order: worse, better, equivalent, not worse). */
export function sequentialDecision(lower: number, upper: number, margin: number): SequentialDecision {
  if (upper < 0) return "worse";
  if (lower > 0) return "better";
  if (margin > 0 && lower > -margin && upper < margin) return "equivalent";
  if (margin > 0 && lower > -margin) return "not worse";
  return "continue";
}

/** Per matched task, the mean over its units of (mean of b's values − mean of a's values), and when it completed. */
function taskDifferences(
  p: PreparedStore,
  o: { baseline: Selector; candidate: Selector; where?: Selector; metric: "pass_rate" | "gcpc" },
): { task: string; d: number; completed: string | null; first: number }[] | NotAvailable {
  const table = armTable(p, "gcpc");
  if ("available" in table) return table;
  const units = armMatchedUnits(table, { a: o.baseline, b: o.candidate, where: o.where, pair: "task" });
  if ("available" in units) return units;
  const value = (k: number) => {
    const r = table.rows[k];
    return o.metric === "pass_rate" ? (r.outcome === null ? NaN : r.outcome === "PASS" ? 1 : 0) : (r.score ?? NaN);
  };
  const mean = (ks: number[]) => {
    const xs = ks.map(value).filter(Number.isFinite);
    return xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : NaN;
  };
  const byTask = new Map<string, { sum: number; n: number; completed: string | null; first: number }>();
  for (const u of units.units) {
    const d = mean(u.b) - mean(u.a);
    if (!Number.isFinite(d)) continue;
    const cell = byTask.get(u.task) ?? { sum: 0, n: 0, completed: null, first: Number.POSITIVE_INFINITY };
    cell.sum += d;
    cell.n++;
    for (const k of [...u.a, ...u.b]) {
      const s = p.slots.get(table.rows[k].id)!;
      const t = p.trajectories[s];
      const when = t.completed_at ?? t.started_at ?? null;
      if (when !== null && (cell.completed === null || when > cell.completed)) cell.completed = when;
      cell.first = Math.min(cell.first, s);
    }
    byTask.set(u.task, cell);
  }
  return [...byTask].map(([task, c]) => ({ task, d: c.sum / c.n, completed: c.completed, first: c.first }));
}

export function sequentialGate(
  p: PreparedStore,
  o: {
    baseline: Selector;
    candidate: Selector;
    where?: Selector;
    metric: "pass_rate" | "gcpc";
    margin: number;
    alpha: number;
    goal?: SequentialGoal;
  },
): SequentialGateResult | NotAvailable {
  const goal = o.goal ?? "any";
  const tasks = taskDifferences(p, o);
  if ("available" in tasks) return tasks;
  if (tasks.length === 0) return notAvailable("no matched task with a value on both sides");
  // Completion order: a task is done when the last of its matched runs completed; tasks without times keep the
  // store's order (their first run's place), after the timed ones.
  const timed = tasks.every((t) => t.completed !== null);
  tasks.sort((x, y) =>
    timed
      ? x.completed! < y.completed!
        ? -1
        : x.completed! > y.completed!
          ? 1
          : x.first - y.first
      : x.first - y.first,
  );
  const cs = bettingConfidenceSequence(
    tasks.map((t) => (t.d + 1) / 2),
    { alpha: o.alpha },
  );
  let sum = 0;
  let stopped: number | null = null;
  const looks = tasks.map((t, i): SequentialLook => {
    sum += t.d;
    const lower = 2 * cs.lower[i] - 1;
    const upper = 2 * cs.upper[i] - 1;
    const decision = sequentialDecision(lower, upper, o.margin);
    if (stopped === null && stopsFor(goal, decision)) stopped = i + 1;
    return { tasks: i + 1, task: t.task, completed_at: t.completed, lower, upper, mean: sum / (i + 1), decision };
  });
  const stop = stopped as number | null;
  return {
    metric: o.metric,
    margin: o.margin,
    alpha: o.alpha,
    goal,
    stopped_at: stop,
    // No stop: the last look's decision (under "better", a run that ended "not worse" says so).
    decision: stop === null ? looks[looks.length - 1].decision : looks[stop - 1].decision,
    fixed_design_tasks: tasks.length,
    order: timed
      ? "tasks in the order they completed (the last of a task's matched runs, completed_at or started_at)"
      : "tasks in the store's order (some runs carry no time)",
    looks,
    method:
      "per-task Δ = the task's mean over its matched units of (candidate − baseline); an anytime-valid " +
      `${Math.round(100 * (1 - o.alpha))}% confidence sequence for its mean (betting, hedged capital with ` +
      "predictable plug-in bets: Waudby-Smith & Ramdas 2024), intersected over looks; valid at every look at once",
  };
}
