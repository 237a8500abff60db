import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { ClusteredProportions } from "../stats/clustered-proportion.js";
import { compareCodePoints } from "../order.js";
import { taskClusters } from "./common.js";
import { isBinary } from "./prepared.js";
import type { Trajectory } from "../schema/tables.js";

/** One arm's pass rate over its binary trials, with a task-clustered percentile interval. */
export interface ArmPassRate {
  /** The arm's fields as "harness / model" (or the fields asked for, joined by " / "). */
  arm: string;
  fields: Record<string, string>;
  trials: number;
  passes: number;
  tasks: number;
  rate: number | null;
  ci: [number, number] | null;
  few_clusters: boolean;
  bootstrap: BootstrapDescriptor | null;
  degenerate?: true;
}

export type ArmField = "harness" | "model" | "source" | "condition";

/**
 * Pass rate per arm (trials grouped by `by`, harness and model by default) over its binary trials: passes /
 * trials pooled over the arm's tasks, the interval from a task-clustered bootstrap (tasks resampled with
 * their trials, so repeated attempts of one task count as one cluster). Arms in code-point order.
 */
export function armPassRates(
  trajectories: readonly Trajectory[],
  settings: BootstrapSettings,
  by: readonly ArmField[] = ["harness", "model"],
  figure = "arms",
): ArmPassRate[] {
  const groups = new Map<string, Trajectory[]>();
  for (const t of trajectories) {
    if (!isBinary(t)) continue;
    const key = by.map((f) => String(t[f] ?? "")).join(" / ");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(t);
  }
  return [...groups.keys()].sort(compareCodePoints).map((arm) => armRate(arm, groups.get(arm)!, by, settings, figure));
}

function armRate(
  arm: string,
  rows: Trajectory[],
  by: readonly ArmField[],
  settings: BootstrapSettings,
  figure: string,
): ArmPassRate {
  const { clusterOf, clusters } = taskClusters(rows.map((t) => t.task_id));
  const props = new ClusteredProportions(clusters, 1);
  let passes = 0;
  rows.forEach((t, i) => {
    const pass = t.outcome === "PASS" ? 1 : 0;
    passes += pass;
    props.add(0, clusterOf[i], pass, 1);
  });
  const fields = Object.fromEntries(by.map((f) => [f, String(rows[0][f] ?? "")]));
  const base = { arm, fields, trials: rows.length, passes, tasks: clusters, rate: passes / rows.length };
  if (clusters < 2) return { ...base, ci: null, few_clusters: true, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure: `${figure}:${arm}`,
    clusters,
    estimator: "pass rate = passes / trials over the arm's binary trials; task-clustered percentile bootstrap (type-7)",
    statistics: { rate: (w) => props.rate(0, w) },
    sums: {
      table: props.sums1(),
      statistics: (sums, count, out) => {
        // Four sums a draw (ClusterSums rows): s₀, n₀, then two unused columns.
        for (let i = 0; i < count; i++) out.rate[i] = sums[4 * i + 1] === 0 ? NaN : sums[4 * i] / sums[4 * i + 1];
      },
    },
  });
  return {
    ...base,
    ci: res.ci.rate,
    few_clusters: clusters < FEW_CLUSTERS,
    bootstrap: res.bootstrap,
    ...degenerateMark(res.bootstrap),
  };
}
