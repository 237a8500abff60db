// The History page's data (issue 56.2): the versions in order with their intervals and each step's gate verdict
// (analysis/rq/arms/history.ts, as `gcpc history` prints them), and per task the value of each version for the
// tasks that moved most between successive versions (the page's sparklines).
import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../analysis/estimates/not-defined.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import { overviewArmFields } from "../../analysis/rq/arms/arm-fields.js";
import { fieldOf, type ArmField } from "../../analysis/rq/arms/compare-arms.js";
import { history, orderByField, type HistoryResult } from "../../analysis/rq/arms/history.js";
import { PLAIN } from "../../analysis/scoring/official-outcome.js";

/** How many tasks get a sparkline: those whose value moved most between successive versions. */
const MOVED_TASKS = 12;

export type SiteHistory =
  | (HistoryResult & { order_source: string; moved: { task: string; values: (number | null)[]; moved: number }[] })
  | NotAvailable;

/**
 * What orders the versions: the given order (arm → key), else each arm's first run (`started_at`) when every
 * trajectory carries one. The arms are the overview's (one field), else the models.
 */
export function siteHistory(
  p: PreparedStore,
  settings: BootstrapSettings,
  given?: { order: ReadonlyMap<string, string>; source: string },
): SiteHistory {
  const fields = overviewArmFields(p);
  const by: ArmField = fields.length === 1 ? fields[0] : "model";
  let order = given?.order;
  let source = given?.source ?? "";
  if (!order) {
    if (!p.trajectories.length || !p.trajectories.every((t) => t.started_at))
      return notAvailable("no order of versions: build the site with --order FILE, or store each run's started_at");
    order = orderByField(p, by, "started_at");
    source = "each version's first run (started_at)";
  }
  const binary = p.trajectories.some((t) => t.outcome === "PASS" || t.outcome === "FAIL");
  const h = history(p, { by, order, metric: binary ? "pass_rate" : "gcpc", margin: 0, alpha: 0.05, settings });
  if ("available" in h) return h;
  return { ...h, order_source: source, moved: movedTasks(p, h) };
}

/** Per task, each version's mean value (pass or score) and the largest step between successive versions. */
function movedTasks(p: PreparedStore, h: HistoryResult) {
  const index = new Map(h.versions.map((v, i) => [v.arm, i]));
  const sums = new Map<string, { sum: number[]; n: number[] }>();
  p.trajectories.forEach((t, k) => {
    const i = index.get(fieldOf(p, t, h.by) ?? "");
    if (i === undefined) return;
    const v =
      h.metric === "pass_rate" ? (t.outcome === "PASS" ? 1 : t.outcome === "FAIL" ? 0 : NaN) : p.scoreAt(k, PLAIN);
    if (!Number.isFinite(v)) return;
    const cell = sums.get(t.task_id) ?? { sum: h.versions.map(() => 0), n: h.versions.map(() => 0) };
    cell.sum[i] += v;
    cell.n[i]++;
    sums.set(t.task_id, cell);
  });
  const rows = [...sums].map(([task, c]) => {
    const values = c.sum.map((s, i) => (c.n[i] ? s / c.n[i] : null));
    let moved = 0;
    for (let i = 1; i < values.length; i++)
      if (values[i] !== null && values[i - 1] !== null) moved = Math.max(moved, Math.abs(values[i]! - values[i - 1]!));
    return { task, values, moved };
  });
  return rows.sort((a, b) => b.moved - a.moved || (a.task < b.task ? -1 : 1)).slice(0, MOVED_TASKS);
}
