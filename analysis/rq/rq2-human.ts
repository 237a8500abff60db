import { krippendorffAlpha, alphaFromUnits } from "../stats/krippendorff-alpha.js";
import { mean } from "../stats/shares.js";
import { group, rollup } from "d3";
import type { Store } from "../schema/store.js";
import type { BootstrapDescriptor, BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { spearmanWithCI } from "./spearman-estimate.js";
import { methodScoreMaps } from "./method-scores.js";
import { compareCodePoints } from "../order.js";
import { judgedChar } from "../schema/label-vectors.js";
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
  /** Tasks of the ρ sample (the clusters its bootstrap resamples). */
  rho_tasks: number;
  /** Fewer than 10 tasks: the ρ interval is shown but uninformative (contract rule 14). */
  few_clusters: boolean;
  bootstrap: BootstrapDescriptor | null;
  degenerate?: true;
  note?: string;
}

export interface Rq2Result {
  methods: Rq2Method[] | NotAvailable;
  /** Krippendorff α (interval) of Q1 ratings, coders = annotators, units = trajectories. */
  alpha_q1: { alpha: number | null; units: number; annotators: number } | NotAvailable;
  /** Krippendorff α (nominal) of Q3 item labels, Abstain a category (rule 11). */
  alpha_q3: { alpha: number | null; units: number; pairable_units: number; metric?: "interval" } | NotAvailable;
  /** Mean Q1 rating over PASS and FAIL trajectories (paper: 8.86 vs 7.88). */
  q1_by_outcome: { pass_mean: number | null; fail_mean: number | null; n_pass: number; n_fail: number } | NotAvailable;
  /** Share of Q3 human labels equal to the primary judge's label for the same item. */
  q3_judge_agreement: { agreeing: number; n: number; share: number | null } | NotAvailable;
}

export function rq2Human(p: PreparedStore, settings: BootstrapSettings): Rq2Result {
  const { human_ratings: ratings, human_preferences: prefs, human_item_labels: q3 } = p.store;
  const meanQ1 = meanRatings(p);
  const methods =
    !ratings && !prefs
      ? notAvailable("no human_ratings or human_preferences table")
      : methodAgreement(p, meanQ1, settings);
  const noRatings = notAvailable("no human_ratings table");
  const noLabels = notAvailable("no human_item_labels table");
  return {
    methods,
    alpha_q1: ratings ? q1Alpha(ratings) : noRatings,
    alpha_q3: q3 ? q3Alpha(q3) : noLabels,
    q1_by_outcome: ratings ? q1ByOutcome(p, meanQ1) : noRatings,
    q3_judge_agreement: q3 ? q3JudgeAgreement(p, q3) : noLabels,
  };
}

type Rows<K extends keyof Store> = NonNullable<Store[K]>;

/** Mean Q1 rating per trajectory (deduplicated trajectories only). */
function meanRatings(p: PreparedStore): Map<string, number> {
  const rated = (p.store.human_ratings ?? []).filter((r) => p.byId.has(r.trajectory_id));
  return rollup(
    rated,
    (rows) => mean(rows.map((r) => r.rating)),
    (r) => r.trajectory_id,
  );
}

/** Q2 pairwise agreement and Spearman ρ with the mean Q1 rating, per method (Table 2). */
function methodAgreement(p: PreparedStore, meanQ1: Map<string, number>, settings: BootstrapSettings): Rq2Method[] {
  const prefs = p.store.human_preferences ?? [];
  const ratedIds = [...meanQ1.keys()].sort(compareCodePoints);
  return [...methodScoreMaps(p)].map(([method, scores]) => {
    let agreeing = 0;
    let comparable = 0;
    let comparisons = 0;
    for (const row of prefs) {
      if (row.preference === "tie") continue;
      comparisons++;
      const sa = scores.get(row.trajectory_a);
      const sb = scores.get(row.trajectory_b);
      if (sa === undefined || sb === undefined || sa === sb) continue;
      comparable++;
      if ((row.preference === "a") === sa > sb) agreeing++;
    }
    const ids = ratedIds.filter((id) => scores.has(id));
    const rho = spearmanWithCI(p, ids, scores, meanQ1, settings, `rq2:rho:${method}`);
    return { method, agreeing, comparable, comparisons, agreement: comparable ? agreeing / comparable : null, ...rho };
  });
}

/** Krippendorff α (interval) of Q1: coders = annotators, units = trajectories. */
function q1Alpha(ratings: Rows<"human_ratings">): Rq2Result["alpha_q1"] {
  const annotators = [...new Set(ratings.map((r) => r.annotator))].sort(compareCodePoints);
  const units = [...new Set(ratings.map((r) => r.trajectory_id))].sort(compareCodePoints);
  const uIdx = new Map(units.map((u, i) => [u, i]));
  const aIdx = new Map(annotators.map((a, i) => [a, i]));
  const matrix = annotators.map(() => new Array<number | null>(units.length).fill(null));
  for (const r of ratings) matrix[aIdx.get(r.annotator)!][uIdx.get(r.trajectory_id)!] = r.rating;
  return { alpha: finite(krippendorffAlpha(matrix, "interval")), units: units.length, annotators: annotators.length };
}

function q1ByOutcome(p: PreparedStore, meanQ1: Map<string, number>): Rq2Result["q1_by_outcome"] {
  const pass: number[] = [];
  const fail: number[] = [];
  for (const [id, m] of meanQ1) {
    const o = p.byId.get(id)?.outcome;
    if (o === "PASS") pass.push(m);
    else if (o === "FAIL") fail.push(m);
  }
  return { pass_mean: finite(mean(pass)), fail_mean: finite(mean(fail)), n_pass: pass.length, n_fail: fail.length };
}

/**
 * Krippendorff α of Q3 item labels; a unit is (trajectory, item). Yes/No/Abstain labels: nominal, Abstain a
 * category (rule 11). A store whose human labels carry grades (schema_version 2): interval α over the grades
 * (Yes 1, No 0), Abstain and NotApplicable missing; the result then says `metric: "interval"`.
 */
function q3Alpha(q3: Rows<"human_item_labels">): Rq2Result["alpha_q3"] {
  const graded = q3.some((r) => r.grade != null);
  const units = group(
    q3.filter((r) => !graded || humanGrade(r) !== undefined),
    (r) => `${r.trajectory_id}\u0000${r.item_id}`,
  );
  const keys = [...units.keys()].sort(compareCodePoints);
  const unitLists = keys.map((k) => units.get(k)!.map((r) => (graded ? humanGrade(r)! : (r.label ?? "Abstain"))));
  return {
    alpha: finite(alphaFromUnits(unitLists, graded ? "interval" : "nominal")),
    units: unitLists.length,
    pairable_units: unitLists.filter((u) => u.length >= 2).length,
    ...(graded ? { metric: "interval" as const } : {}),
  };
}

/** A human item label's grade: its own, 1 for Yes, 0 for No; undefined for Abstain and NotApplicable. */
function humanGrade(r: { label?: string | null; grade?: number | null }): number | undefined {
  if (r.grade != null) return r.grade;
  return r.label === "Yes" ? 1 : r.label === "No" ? 0 : undefined;
}

/** Share of Q3 human labels equal to the primary judge's label for the same item. */
function q3JudgeAgreement(p: PreparedStore, q3: Rows<"human_item_labels">): Rq2Result["q3_judge_agreement"] {
  let agreeing = 0;
  let n = 0;
  for (const r of q3) {
    const t = p.byId.get(r.trajectory_id);
    if (!t) continue;
    const idx = p.checklist.get(t.task_id)!.findIndex((it) => it.item_id === r.item_id);
    const labels = p.labelsAt(p.slots.get(r.trajectory_id));
    if (labels === undefined || idx < 0 || idx >= labels.length || labels[idx] === ".") continue;
    n++;
    // The same label character: the same label, or the same grade (analysis/schema/grades.ts).
    if (labels[idx] === judgedChar(r)) agreeing++;
  }
  return { agreeing, n, share: n ? agreeing / n : null };
}
