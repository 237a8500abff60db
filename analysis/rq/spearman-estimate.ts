import type { ScoreLookup } from "./score-column.js";
import {
  bootstrapIntervals,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { ClusteredSpearman } from "../stats/spearman.js";
import { taskClusters } from "./common.js";
import type { PreparedStore } from "./prepared.js";

/** Spearman ρ between `scores` and `target` on `ids`, with a task-clustered bootstrap CI. */
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
  bootstrap: BootstrapDescriptor | null;
  note?: string;
} {
  const { clusterOf, clusters } = taskClusters(ids.map((id) => p.byId.get(id)!.task_id));
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
      rho_n: ids.length,
      bootstrap: null,
      note: ids.length < 2 ? "fewer than 2 trajectories" : "ρ undefined: a variable is constant",
    };
  if (clusters < 2)
    return { rho, rho_ci: null, rho_n: ids.length, bootstrap: null, note: "CI not available: one task" };
  try {
    const res = bootstrapIntervals({
      settings,
      figure,
      clusters,
      estimator: "Spearman ρ (average ranks); task-clustered percentile bootstrap (type-7)",
      statistics: { rho: (w) => prepared.evaluate(w) },
    });
    return { rho, rho_ci: res.ci.rho, rho_n: ids.length, bootstrap: res.bootstrap };
  } catch (e) {
    return { rho, rho_ci: null, rho_n: ids.length, bootstrap: null, note: `CI not available: ${(e as Error).message}` };
  }
}
