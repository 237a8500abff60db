import type { ScoreLookup } from "./score-column.js";
import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { ClusteredSpearman } from "../stats/spearman.js";
import { taskClusters } from "./common.js";
import type { PreparedStore } from "./prepared.js";

/**
 * Spearman ρ between `scores` and `target` on `ids`, with a task-clustered bootstrap CI. With fewer than
 * 10 tasks the result is flagged `few_clusters` and its note calls the interval uninformative: a handful of
 * tasks gives a percentile interval that may span most of [−1, 1] and covers below nominal (rule 14).
 */
export function spearmanWithCI(
  p: PreparedStore,
  ids: string[],
  scores: ScoreLookup,
  target: Map<string, number>,
  settings: BootstrapSettings,
  figure: string,
): {
  rho: number | null;
  rho_ci: [number, number] | null;
  rho_n: number;
  rho_tasks: number;
  few_clusters: boolean;
  bootstrap: BootstrapDescriptor | null;
  degenerate?: true;
  note?: string;
} {
  const { clusterOf, clusters } = taskClusters(ids.map((id) => p.byId.get(id)!.task_id));
  const size = { rho_n: ids.length, rho_tasks: clusters, few_clusters: clusters < FEW_CLUSTERS };
  const few = size.few_clusters
    ? `few_clusters: ${ids.length} trajectories in ${clusters} task(s) (< ${FEW_CLUSTERS}): ` +
      "the interval is uninformative"
    : undefined;
  const prepared = new ClusteredSpearman(
    ids.map((id) => scores.get(id)!),
    ids.map((id) => target.get(id)!),
    clusterOf,
    clusters,
  );
  const rho = ids.length >= 2 ? prepared.estimate() : NaN;
  if (!Number.isFinite(rho))
    return {
      rho: null,
      rho_ci: null,
      ...size,
      bootstrap: null,
      note: ids.length < 2 ? "fewer than 2 trajectories" : "ρ undefined: a variable is constant",
    };
  if (clusters < 2) return { rho, rho_ci: null, ...size, bootstrap: null, note: "CI not available: one task" };
  try {
    const res = bootstrapIntervals({
      settings,
      figure,
      clusters,
      estimator: "Spearman ρ (average ranks); task-clustered percentile bootstrap (type-7)",
      statistics: { rho: (w) => prepared.evaluate(w) },
    });
    const mark = degenerateMark(res.bootstrap);
    return { rho, rho_ci: res.ci.rho, ...size, bootstrap: res.bootstrap, ...mark, ...(few ? { note: few } : {}) };
  } catch (e) {
    return { rho, rho_ci: null, ...size, bootstrap: null, note: `CI not available: ${(e as Error).message}` };
  }
}
