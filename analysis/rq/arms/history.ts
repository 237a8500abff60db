// `gcpc history`: an agent's successive versions (model releases, checkpoints, harness versions) in order, each
// version's value with its interval, and the gate verdict of each step against the version before (issue 56.2).
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import type { PreparedStore } from "../prepared.js";
import type { ArmField } from "./compare-arms.js";
import { fieldOf } from "./arm-view.js";
import { gate, type GateCheck, type GateMetric } from "./gate.js";
import { leaderboard } from "./leaderboard.js";

export interface HistoryVersion {
  arm: string;
  /** What orders it (a date or a version, as the order file or field gives it). */
  order: string;
  value: number | null;
  ci: [number, number] | null;
  tasks: number;
  trajectories: number;
}

export interface HistoryStep {
  from: string;
  to: string;
  /** The step's gate check (Δ = to − from), at the familywise level over every step. */
  check: GateCheck;
}

export interface HistoryResult {
  by: ArmField;
  metric: GateMetric;
  versions: HistoryVersion[];
  steps: HistoryStep[];
  /** Arms of the store the order does not place (left out), and ordered arms the store does not hold. */
  left_out: string[];
  missing: string[];
  estimator: string;
  familywise: string;
}

/** The fields a history can be ordered by: a run's times, or an arm field. */
export type OrderField = "started_at" | "completed_at" | ArmField;

/**
 * Each arm (by `by`) ordered by its runs' least value of `field` (started_at: the arm's first run), as text: the
 * order `gcpc history --order FIELD` and the site's History page without an order file use.
 */
export function orderByField(p: PreparedStore, by: ArmField, field: OrderField): Map<string, string> {
  const order = new Map<string, string>();
  for (const t of p.trajectories) {
    const arm = fieldOf(p, t, by) ?? "";
    const v = field === "started_at" || field === "completed_at" ? t[field] : fieldOf(p, t, field);
    if (v === null || v === undefined) continue;
    const before = order.get(arm);
    if (before === undefined || String(v) < before) order.set(arm, String(v));
  }
  return order;
}

/**
 * The versions `order` places (arm → its order key; sorted by key, then name), each one's value and interval
 * (the leaderboard's: task-clustered percentile bootstrap of the arm's mean), and each successive pair gated as
 * `gcpc gate` gates it, with α split over the steps (Bonferroni: each step's interval at 1 − α/S).
 */
export function history(
  p: PreparedStore,
  o: {
    by: ArmField;
    order: ReadonlyMap<string, string>;
    metric: Extract<GateMetric, "pass_rate" | "gcpc">;
    margin: number;
    alpha: number;
    settings: BootstrapSettings;
  },
): HistoryResult | NotAvailable {
  const held = new Set(p.trajectories.map((t) => fieldOf(p, t, o.by) ?? ""));
  const versions = [...o.order]
    .filter(([arm]) => held.has(arm))
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] < b[0] ? -1 : 1));
  if (versions.length < 2)
    return notAvailable(`the order places ${versions.length} of the store's ${o.by} values: a history needs 2`);
  const board = leaderboard(p, { by: [o.by], metric: o.metric, settings: o.settings, pairwise: false });
  if ("available" in board) return board;
  const row = new Map(board.rows.map((r) => [r.arm, r]));
  const steps: HistoryStep[] = [];
  const S = versions.length - 1;
  for (let i = 1; i < versions.length; i++) {
    const [from, to] = [versions[i - 1][0], versions[i][0]];
    const r = gate(p, {
      baseline: { [o.by]: from },
      candidate: { [o.by]: to },
      metrics: [o.metric],
      margin: o.margin,
      alpha: o.alpha / S,
      regression: "zero",
      settings: o.settings,
    });
    if ("available" in r) return r;
    steps.push({ from, to, check: r.checks[0] });
  }
  return {
    by: o.by,
    metric: o.metric,
    versions: versions.map(([arm, order]) => {
      const x = row.get(arm);
      return {
        arm,
        order,
        value: x?.value ?? null,
        ci: x?.ci ?? null,
        tasks: x?.tasks ?? 0,
        trajectories: x?.trajectories ?? 0,
      };
    }),
    steps,
    left_out: [...held].filter((a) => !o.order.has(a)).sort(),
    missing: [...o.order.keys()].filter((a) => !held.has(a)).sort(),
    estimator: board.estimator,
    familywise:
      `each step gated as gcpc gate gates it (the same matched units and paired interval); Bonferroni over the ` +
      `${S} step${S === 1 ? "" : "s"}: each step's interval at ${(100 * (1 - o.alpha / S)).toFixed(2)}%, so the ` +
      `chance that any step's verdict is wrong in its direction is at most α = ${o.alpha}`,
  };
}
