import {
  bootstrapIntervals,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, finiteCI } from "../estimates/not-defined.js";
import { ClusteredAuc } from "../stats/clustered-auc.js";
import { obuchowskiAuc } from "../stats/obuchowski.js";
import { compareCodePoints } from "../order.js";

/** Dense cluster indices for a list of task ids (sorted by code point for determinism). */
export function taskClusters(taskIds: readonly string[]): { clusterOf: Int32Array; clusters: number; ids: string[] } {
  const ids = [...new Set(taskIds)].sort(compareCodePoints);
  const slot = new Map(ids.map((id, i) => [id, i]));
  return { clusterOf: Int32Array.from(taskIds, (id) => slot.get(id)!), clusters: ids.length, ids };
}

export interface AucEstimate {
  method: string;
  n: number;
  n_pass: number;
  n_fail: number;
  tasks: number;
  auc: number | null;
  ci: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
  /** Analytic cross-check: Obuchowski (1997) clustered variance, normal interval; `reason` when undefined. */
  obuchowski: { se: number | null; ci: [number, number] | null; reason?: string } | null;
  /** Fewer than 10 tasks: the interval is shown but its coverage falls below nominal (contract rule 14). */
  few_clusters: boolean;
  note?: string;
}

/** Contract rule 14: with fewer clusters than this, intervals are flagged `few_clusters`. */
export const FEW_CLUSTERS = 10;

/**
 * Contract rule 14: a clustered interval for an AUC or ΔAUC needs ≥ 2 clusters, ≥ 2 of them holding
 * a positive and ≥ 2 holding a negative; otherwise it is null with this reason (never redrawn around).
 */
export function aucIntervalProblem(rows: ReadonlyArray<{ pass: boolean; task: string }>): string | undefined {
  const tasks = new Set(rows.map((r) => r.task)).size;
  const withPos = new Set(rows.filter((r) => r.pass).map((r) => r.task)).size;
  const withNeg = new Set(rows.filter((r) => !r.pass).map((r) => r.task)).size;
  if (tasks < 2 || withPos < 2 || withNeg < 2)
    return (
      `not estimable (contract rule 14): ${tasks} task(s), ${withPos} holding a PASS, ` +
      `${withNeg} holding a FAIL; at least 2 of each are needed`
    );
  return undefined;
}

export const AUC_ESTIMATOR = "Mann–Whitney AUC, ties ½; task-clustered percentile bootstrap (type-7)";

/** AUC with its task-clustered bootstrap CI and the Obuchowski interval. */
export function aucWithCI(
  method: string,
  rows: ReadonlyArray<{ score: number; pass: boolean; task: string }>,
  settings: BootstrapSettings,
  figure: string,
): AucEstimate {
  const nPass = rows.filter((r) => r.pass).length;
  const { clusterOf, clusters } = taskClusters(rows.map((r) => r.task));
  const base = { method, n: rows.length, n_pass: nPass, n_fail: rows.length - nPass, tasks: clusters };
  const few_clusters = clusters < FEW_CLUSTERS;
  if (nPass === 0 || nPass === rows.length) {
    return {
      ...base,
      auc: null,
      ci: null,
      bootstrap: null,
      obuchowski: null,
      few_clusters,
      note: rows.length === 0 ? "no scored trajectories" : "AUC undefined: only one outcome class",
    };
  }
  const scores = rows.map((r) => r.score),
    pass = rows.map((r) => r.pass);
  const prepared = new ClusteredAuc(scores, pass, clusterOf, clusters);
  const ob = obuchowskiAuc(scores, pass, clusterOf, settings.level);
  const estimate = prepared.estimate();
  const obuchowski = { se: finite(ob.se), ci: finiteCI(ob.ci), ...(ob.reason ? { reason: ob.reason } : {}) };
  const problem = aucIntervalProblem(rows);
  if (problem)
    return { ...base, auc: estimate, ci: null, bootstrap: null, obuchowski, few_clusters, note: `CI ${problem}` };
  let interval: ReturnType<typeof bootstrapIntervals<"auc">>;
  try {
    interval = bootstrapIntervals({
      settings,
      figure,
      clusters,
      estimator: AUC_ESTIMATOR,
      statistics: { auc: (w) => prepared.evaluate(w) },
      accept: (w) => prepared.hasBothClasses(w),
    });
  } catch (e) {
    const note = `CI not available: ${(e as Error).message}`;
    return { ...base, auc: estimate, ci: null, bootstrap: null, obuchowski, few_clusters, note };
  }
  return {
    ...base,
    auc: estimate,
    ci: interval.ci.auc,
    bootstrap: interval.bootstrap,
    obuchowski,
    few_clusters,
    ...(few_clusters ? { note: `few_clusters: ${clusters} tasks (< ${FEW_CLUSTERS}), coverage below nominal` } : {}),
  };
}
