import { weightedRatio } from "../stats/weighted-ratio.js";
import {
  bootstrapIntervals,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { WeightedNominalAlpha } from "../stats/nominal-alpha.js";
import { methodScoreMaps } from "./method-scores.js";
import { taskClusters } from "./common.js";
import type { PreparedStore } from "./prepared.js";

/** Agreement of the store's binary judges (method scores named `judge:…`, each 0 or 1 per trajectory). */
export interface JudgeAgreement {
  judges: string[];
  /** Trajectories with a verdict of at least two judges (the pairable units). */
  units: number;
  tasks: number;
  /** Krippendorff's α (nominal) over the judges' PASS/FAIL verdicts; a missing verdict is missing. */
  alpha: number | null;
  ci: [number, number] | null;
  /** Share of agreeing judge pairs among all pairs of verdicts on the same trajectory. */
  pairwise_agreement: number | null;
  pairwise_agreement_ci: [number, number] | null;
  few_clusters: boolean;
  bootstrap: BootstrapDescriptor | null;
}

/**
 * How far several holistic judges agree with each other (τ²'s judge-viewer prompts, for one): units are
 * the trajectories, coders the judges, values their binary verdicts; α and the pairwise agreement come
 * with a task-clustered percentile interval (tasks resampled with their trajectories).
 */
export function judgeAgreement(p: PreparedStore, settings: BootstrapSettings): JudgeAgreement | NotAvailable {
  const maps = methodScoreMaps(p);
  const judges = [...maps.keys()].filter((m) => m.startsWith("judge:")).sort();
  if (judges.length < 2) return notAvailable("fewer than two judges (method scores named judge:…) in the store");
  const rows = p.trajectories
    .map((t) => ({ task: t.task_id, votes: judges.map((j) => maps.get(j)!.get(t.trajectory_id)) }))
    .map((r) => ({ ...r, votes: r.votes.filter((v): v is number => v === 0 || v === 1) }))
    .filter((r) => r.votes.length >= 2);
  if (rows.length === 0) return notAvailable("no trajectory holds verdicts of two judges");
  const { clusterOf, clusters } = taskClusters(rows.map((r) => r.task));
  const counts = rows.map((r) => [r.votes.filter((v) => v === 0).length, r.votes.filter((v) => v === 1).length]);
  const alpha = new WeightedNominalAlpha(counts, 2);
  // Pairs per unit m(m − 1)/2, agreeing pairs C(n0, 2) + C(n1, 2).
  const pairs = counts.map(([a, b]) => ((a + b) * (a + b - 1)) / 2);
  const agreeing = counts.map(([a, b]) => (a * (a - 1)) / 2 + (b * (b - 1)) / 2);
  const unitWeights = new Float64Array(rows.length);
  const agreement = (w: ArrayLike<number>) => weightedRatio(w, agreeing, pairs);
  const ones = new Float64Array(rows.length).fill(1);
  const base = {
    judges,
    units: rows.length,
    tasks: clusters,
    alpha: finite(alpha.evaluate(ones)),
    pairwise_agreement: finite(agreement(ones)),
    few_clusters: clusters < FEW_CLUSTERS,
  };
  if (clusters < 2) return { ...base, ci: null, pairwise_agreement_ci: null, bootstrap: null };
  const res = bootstrapIntervals({
    settings,
    figure: "rq1:judge_agreement",
    clusters,
    estimator:
      "Krippendorff α (nominal) and pairwise agreement of the judges' verdicts; " +
      "task-clustered percentile bootstrap (type-7)",
    statistics: {
      alpha: (w) => {
        for (let u = 0; u < rows.length; u++) unitWeights[u] = w[clusterOf[u]];
        return alpha.evaluate(unitWeights);
      },
      agreement: () => agreement(unitWeights),
    },
  });
  return { ...base, ci: res.ci.alpha, pairwise_agreement_ci: res.ci.agreement, bootstrap: res.bootstrap };
}
