import { krippendorffAlpha, alphaFromUnits } from "../stats/krippendorff-alpha.js";
import { ClusteredSpearman } from "../stats/spearman.js";
import { mean } from "../stats/shares.js";
import {
  bootstrapIntervals,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { taskClusters } from "./common.js";
import { methodScoreMaps } from "./method-scores.js";
import { compareCodePoints } from "../order.js";
import type { PreparedStore } from "./prepared.js";

export interface Rq2Method {
  method: string;
  /** Comparisons where the method scores the preferred trajectory strictly higher. */
  agreeing: number;
  /** Q2 rows with preference a/b that the method scores on both sides without a tie. */
  comparable: number;
  /** Q2 rows with preference a/b in all. */
  comparisons: number;
  agreement: number | null;
  /** Spearman ρ with the mean Q1 rating per trajectory (average ranks). */
  rho: number | null;
  rho_ci: [number, number] | null;
  rho_n: number;
  bootstrap: BootstrapDescriptor | null;
  note?: string;
}

export interface Rq2Result {
  methods: Rq2Method[] | NotAvailable;
  /** Krippendorff α (interval) of Q1 ratings, coders = annotators, units = trajectories. */
  alpha_q1: { alpha: number | null; units: number; annotators: number } | NotAvailable;
  /** Krippendorff α (nominal) of Q3 item labels, Abstain a category (rule 11). */
  alpha_q3: { alpha: number | null; units: number; pairable_units: number } | NotAvailable;
  /** Mean Q1 rating over PASS and FAIL trajectories (paper: 8.86 vs 7.88). */
  q1_by_outcome: { pass_mean: number | null; fail_mean: number | null; n_pass: number; n_fail: number } | NotAvailable;
  /** Share of Q3 human labels equal to the primary judge's label for the same item. */
  q3_judge_agreement: { agreeing: number; n: number; share: number | null } | NotAvailable;
}

export function rq2Human(p: PreparedStore, settings: BootstrapSettings): Rq2Result {
  const ratings = p.store.human_ratings,
    prefs = p.store.human_preferences,
    q3 = p.store.human_item_labels;
  const maps = methodScoreMaps(p);
  // Mean Q1 per trajectory (deduplicated trajectories only).
  const q1 = new Map<string, number[]>();
  for (const r of ratings ?? []) {
    if (!p.byId.has(r.trajectory_id)) continue;
    let list = q1.get(r.trajectory_id);
    if (!list) q1.set(r.trajectory_id, (list = []));
    list.push(r.rating);
  }
  const meanQ1 = new Map([...q1].map(([id, list]) => [id, mean(list)]));
  const ratedIds = [...meanQ1.keys()].sort(compareCodePoints);

  let methods: Rq2Method[] | NotAvailable;
  if (!ratings && !prefs) methods = notAvailable("no human_ratings or human_preferences table");
  else {
    methods = [...maps].map(([method, scores]) => {
      let agreeing = 0,
        comparable = 0,
        comparisons = 0;
      for (const row of prefs ?? []) {
        if (row.preference === "tie") continue;
        comparisons++;
        const sa = scores.get(row.trajectory_a),
          sb = scores.get(row.trajectory_b);
        if (sa === undefined || sb === undefined || sa === sb) continue;
        comparable++;
        if ((row.preference === "a") === sa > sb) agreeing++;
      }
      const ids = ratedIds.filter((id) => scores.has(id));
      const rho = spearmanWithCI(p, ids, scores, meanQ1, settings, `rq2:rho:${method}`);
      return {
        method,
        agreeing,
        comparable,
        comparisons,
        agreement: comparable ? agreeing / comparable : null,
        ...rho,
      };
    });
  }

  let alpha_q1: Rq2Result["alpha_q1"] = notAvailable("no human_ratings table");
  let q1_by_outcome: Rq2Result["q1_by_outcome"] = notAvailable("no human_ratings table");
  if (ratings) {
    const annotators = [...new Set(ratings.map((r) => r.annotator))].sort(compareCodePoints);
    const units = [...new Set(ratings.map((r) => r.trajectory_id))].sort(compareCodePoints);
    const uIdx = new Map(units.map((u, i) => [u, i]));
    const matrix = annotators.map(() => new Array<number | null>(units.length).fill(null));
    const aIdx = new Map(annotators.map((a, i) => [a, i]));
    for (const r of ratings) matrix[aIdx.get(r.annotator)!][uIdx.get(r.trajectory_id)!] = r.rating;
    alpha_q1 = {
      alpha: finite(krippendorffAlpha(matrix, "interval")),
      units: units.length,
      annotators: annotators.length,
    };
    const pass: number[] = [],
      fail: number[] = [];
    for (const [id, m] of meanQ1) {
      const o = p.byId.get(id)?.outcome;
      if (o === "PASS") pass.push(m);
      else if (o === "FAIL") fail.push(m);
    }
    q1_by_outcome = {
      pass_mean: finite(mean(pass)),
      fail_mean: finite(mean(fail)),
      n_pass: pass.length,
      n_fail: fail.length,
    };
  }

  let alpha_q3: Rq2Result["alpha_q3"] = notAvailable("no human_item_labels table");
  let q3_judge_agreement: Rq2Result["q3_judge_agreement"] = notAvailable("no human_item_labels table");
  if (q3) {
    const units = new Map<string, string[]>();
    for (const r of q3) {
      const key = `${r.trajectory_id}\u0000${r.item_id}`;
      let list = units.get(key);
      if (!list) units.set(key, (list = []));
      list.push(r.label);
    }
    const unitLists = [...units.keys()].sort(compareCodePoints).map((k) => units.get(k)!);
    alpha_q3 = {
      alpha: finite(alphaFromUnits(unitLists, "nominal")),
      units: unitLists.length,
      pairable_units: unitLists.filter((u) => u.length >= 2).length,
    };
    let agreeing = 0,
      n = 0;
    for (const r of q3) {
      const t = p.byId.get(r.trajectory_id);
      if (!t) continue;
      const idx = p.checklist.get(t.task_id)!.findIndex((it) => it.item_id === r.item_id);
      const judged = p.labelsOf(r.trajectory_id)?.[idx];
      if (judged === undefined) continue;
      n++;
      if (judged === r.label) agreeing++;
    }
    q3_judge_agreement = { agreeing, n, share: n ? agreeing / n : null };
  }
  return { methods, alpha_q1, alpha_q3, q1_by_outcome, q3_judge_agreement };
}

/** Spearman ρ between `scores` and `target` on `ids`, with a task-clustered bootstrap CI. */
export function spearmanWithCI(
  p: PreparedStore,
  ids: string[],
  scores: Map<string, number>,
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
