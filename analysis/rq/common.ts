import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, finiteCI } from "../estimates/not-defined.js";
import { ClusteredAuc } from "../stats/clustered-auc.js";
import { obuchowskiAuc } from "../stats/obuchowski.js";
import { WithinTaskAuc } from "../stats/within-task-auc.js";
import { aucDrawSe, DrawComponents } from "../stats/draw-components.js";
import { compareCodePoints } from "../order.js";

/** Dense cluster indices for a list of task ids (sorted by code point for determinism). */
export function taskClusters(taskIds: readonly string[]): { clusterOf: Int32Array; clusters: number; ids: string[] } {
  const ids = [...new Set(taskIds)].sort(compareCodePoints);
  const slot = new Map(ids.map((id, i) => [id, i]));
  return { clusterOf: Int32Array.from(taskIds, (id) => slot.get(id)!), clusters: ids.length, ids };
}

/** One AUC interval as a job (analysis/rq/jobs.ts): RQ1's per-method and per-condition rows. */
export interface AucJob {
  kind: "auc";
  method: string;
  columns: AucColumns;
  settings: BootstrapSettings;
  figure: string;
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
  /**
   * Analytic cross-check: Obuchowski (1997) clustered variance, normal interval; `reason` when undefined;
   * `degenerate` when its SE is 0 (the interval is a point).
   */
  obuchowski: { se: number | null; ci: [number, number] | null; reason?: string; degenerate?: true } | null;
  /** Every bootstrap draw equals the estimate: the interval is a point, not a measure of sampling error. */
  degenerate?: true;
  /** Fewer than 10 tasks: the interval is shown but its coverage falls below nominal (contract rule 14). */
  few_clusters: boolean;
  /**
   * False when the score is built from items that enter the official outcome (items.determines_outcome,
   * or the verifier's own tests): its AUC against that outcome is then not evidence of validity.
   */
  outcome_free?: boolean;
  /** Within-task (stratified) AUC: PASS vs FAIL of the same task only (analysis/stats/within-task-auc.ts). */
  within_task: WithinTaskEstimate | null;
  note?: string;
}

/**
 * Contract rule 14: a clustered interval for an AUC or ΔAUC needs ≥ 2 clusters, ≥ 2 of them holding
 * a positive and ≥ 2 holding a negative; otherwise it is null with this reason (never redrawn around).
 */
export function clusterIntervalProblem(
  pass: ArrayLike<boolean | number>,
  clusterOf: ArrayLike<number>,
  clusters: number,
): string | undefined {
  const hasPos = new Uint8Array(clusters);
  const hasNeg = new Uint8Array(clusters);
  const seen = new Uint8Array(clusters);
  for (let i = 0; i < pass.length; i++) {
    seen[clusterOf[i]] = 1;
    if (pass[i]) hasPos[clusterOf[i]] = 1;
    else hasNeg[clusterOf[i]] = 1;
  }
  const count = (a: Uint8Array) => a.reduce((k, x) => k + x, 0);
  const tasks = count(seen);
  const withPos = count(hasPos);
  const withNeg = count(hasNeg);
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
  return aucWithCIColumns(method, aucColumns(rows), settings, figure);
}

/**
 * Scored trajectories as columns: what an AUC job carries to another thread (analysis/rq/jobs.ts), a
 * few bytes a row instead of an object. Clusters are tasks numbered by `taskClusters`.
 */
export interface AucColumns {
  scores: Float64Array;
  pass: Uint8Array;
  clusterOf: Int32Array;
  clusters: number;
}

export function aucColumns(rows: ReadonlyArray<{ score: number; pass: boolean; task: string }>): AucColumns {
  const { clusterOf, clusters } = taskClusters(rows.map((r) => r.task));
  return {
    scores: Float64Array.from(rows, (r) => r.score),
    pass: Uint8Array.from(rows, (r) => (r.pass ? 1 : 0)),
    clusterOf,
    clusters,
  };
}

/** {@link aucWithCI} on columns. */
export function aucWithCIColumns(
  method: string,
  columns: AucColumns,
  settings: BootstrapSettings,
  figure: string,
): AucEstimate {
  const { clusterOf, clusters } = columns;
  const n = columns.scores.length;
  // The columns as they are (PASS = 1): copying them into plain arrays went through the iterator protocol,
  // a boxed element each.
  const pass = columns.pass;
  let nPass = 0;
  for (let i = 0; i < n; i++) nPass += pass[i];
  const base = { method, n, n_pass: nPass, n_fail: n - nPass, tasks: clusters };
  const few_clusters = clusters < FEW_CLUSTERS;
  if (nPass === 0 || nPass === n) {
    return {
      ...base,
      auc: null,
      ci: null,
      bootstrap: null,
      obuchowski: null,
      few_clusters,
      within_task: null,
      note: n === 0 ? "no scored trajectories" : "AUC undefined: only one outcome class",
    };
  }
  const scores = columns.scores;
  const prepared = new ClusteredAuc(scores, pass, clusterOf, clusters);
  const ob = obuchowskiAuc(scores, pass, clusterOf, settings.level);
  const estimate = prepared.estimate();
  const obuchowski = {
    se: finite(ob.se),
    ci: finiteCI(ob.ci),
    ...(ob.reason ? { reason: ob.reason } : {}),
    ...(ob.se === 0 ? { degenerate: true as const } : {}),
  };
  // The within-task AUC from the pooled AUC's own (score level, task) groups: the sample is grouped once.
  const within = WithinTaskAuc.fromGroups(prepared.levelGroups, clusters);
  const within_task = withinTaskEstimate(within, settings, figure);
  const problem = clusterIntervalProblem(pass, clusterOf, clusters);
  if (problem) {
    const note = `CI ${problem}`;
    return { ...base, auc: estimate, ci: null, bootstrap: null, obuchowski, few_clusters, within_task, note };
  }
  let interval: ReturnType<typeof bootstrapIntervals<"auc">>;
  try {
    interval = bootstrapIntervals({
      settings,
      figure,
      clusters,
      estimator: AUC_ESTIMATOR,
      statistics: { auc: (w) => prepared.evaluateDraw(w) },
      accept: (w) => prepared.hasBothClasses(w),
      ...(settings.interval === "studentized"
        ? { standardErrors: { auc: aucDrawSe(new DrawComponents(scores, pass, clusterOf, clusters)) } }
        : {}),
    });
  } catch (e) {
    const note = `CI not available: ${(e as Error).message}`;
    return { ...base, auc: estimate, ci: null, bootstrap: null, obuchowski, few_clusters, within_task, note };
  }
  return {
    ...base,
    auc: estimate,
    ci: interval.ci.auc,
    bootstrap: interval.bootstrap,
    ...degenerateMark(interval.bootstrap),
    obuchowski,
    few_clusters,
    within_task,
    ...(few_clusters ? { note: `few_clusters: ${clusters} tasks (< ${FEW_CLUSTERS}), coverage below nominal` } : {}),
  };
}

export interface WithinTaskEstimate {
  auc: number | null;
  ci: [number, number] | null;
  /** Tasks holding both a PASS and a FAIL: the clusters that carry within-task pairs. */
  tasks_with_both: number;
  few_clusters: boolean;
  bootstrap: BootstrapDescriptor | null;
  degenerate?: true;
  reason?: string;
}

export const WITHIN_TASK_ESTIMATOR =
  "within-task AUC = Σ U_t / Σ m_t n_t (PASS vs FAIL of the same task, ties ½); task-clustered percentile bootstrap";

/** The within-task AUC with its own task-clustered bootstrap (seeded apart from the pooled AUC's). */
function withinTaskEstimate(w: WithinTaskAuc, settings: BootstrapSettings, figure: string): WithinTaskEstimate {
  const informative = w.informativeClusters;
  const base = { tasks_with_both: informative, few_clusters: informative < FEW_CLUSTERS };
  if (informative === 0)
    return { auc: null, ci: null, ...base, bootstrap: null, reason: "no task holds both a PASS and a FAIL" };
  if (informative < 2) {
    const reason = "CI not estimable (contract rule 14): fewer than 2 tasks hold both a PASS and a FAIL";
    return { auc: w.estimate(), ci: null, ...base, bootstrap: null, reason };
  }
  const res = bootstrapIntervals({
    settings,
    figure: `${figure}:within_task`,
    clusters: w.u.length,
    estimator: WITHIN_TASK_ESTIMATOR,
    statistics: { auc: (weights) => w.evaluate(weights) },
    sums: {
      table: w.sums(),
      statistics: (sums, count, out) => w.ofSumsMany(sums, count, out.auc),
    },
  });
  return { auc: w.estimate(), ci: res.ci.auc, ...base, bootstrap: res.bootstrap, ...degenerateMark(res.bootstrap) };
}
