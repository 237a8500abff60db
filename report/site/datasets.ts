import { displayLabelAt } from "../../analysis/schema/grades.js";
import { isOutcomeFree } from "../../analysis/rq/outcome-free.js";
import { group } from "d3";
import { checkGates } from "../../analysis/rq/checklist-gates.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import type { Store } from "../../analysis/schema/store.js";
import { mean } from "../../analysis/stats/shares.js";
import { methodScoreMaps } from "../../analysis/rq/method-scores.js";

/** One row of a downloadable dataset (CSV, Parquet, Arrow or JSON). */
export type Row = Record<string, unknown>;

/** Frozen checklists with each mechanical gate's result. */
export function checklistRows(store: Pick<Store, "tasks" | "items">): Row[] {
  const tasks = new Map(store.tasks.map((t) => [t.task_id, t]));
  return store.items.map((it) => ({
    ...it,
    benchmark: tasks.get(it.task_id)?.benchmark,
    ...checkGates(it, tasks.get(it.task_id)),
  }));
}

/** Matched pairs with Δ plain GCPC and the task's domain, for the explorer (SQL in DuckDB-wasm). */
export function explorerPairRows(report: AnalysisReport, prepared: PreparedStore): Row[] {
  return report.rq3.pairs.map((p) => ({
    pair_id: p.pair_id,
    task_id: p.task_id,
    domain: prepared.tasks.get(p.task_id)?.domain ?? "",
    harness: p.harness,
    model: p.model,
    source: p.source ?? "",
    transition: p.transition,
    without_id: p.without_id,
    with_id: p.with_id,
    gcpc_without: p.gcpc_without,
    gcpc_with: p.gcpc_with,
    delta: p.delta,
  }));
}

/** A row of each explorer table with every column and its type: an empty table keeps its columns. */
export const PAIR_ROW_TEMPLATE: Row = {
  pair_id: "",
  task_id: "",
  domain: "",
  harness: "",
  model: "",
  source: "",
  transition: "",
  without_id: "",
  with_id: "",
  gcpc_without: 0,
  gcpc_with: 0,
  delta: 0,
};
export const PAIR_ITEM_TEMPLATE: Row = {
  pair_id: "",
  task_id: "",
  transition: "",
  item_id: "",
  text: "",
  route: "",
  category: "",
  label_without: "",
  label_with: "",
  changed: false,
  evidence_without: "",
  evidence_with: "",
};

/** Both sides' label of every checklist item of every matched pair, with the judge's evidence. */
export function pairItemRows(report: AnalysisReport, prepared: PreparedStore): Row[] {
  const evidenceOf = primaryEvidence(prepared);
  return report.rq3.pairs.flatMap((p) => {
    // Graded labels (schema_version 2) show their grade; Yes/No/Abstain as before.
    const a = prepared.labelsAt(prepared.slots.get(p.without_id));
    const b = prepared.labelsAt(prepared.slots.get(p.with_id));
    const ea = evidenceOf(p.without_id);
    const eb = evidenceOf(p.with_id);
    return prepared.checklist.get(p.task_id)!.map((it, k) => ({
      pair_id: p.pair_id,
      task_id: p.task_id,
      transition: p.transition,
      item_id: it.item_id,
      text: it.text,
      route: it.route,
      category: it.category ?? "",
      label_without: displayLabelAt(a, k),
      label_with: displayLabelAt(b, k),
      changed: displayLabelAt(a, k) !== displayLabelAt(b, k),
      evidence_without: ea[k] ?? "",
      evidence_with: eb[k] ?? "",
    }));
  });
}

/**
 * The primary judge's evidence of every trajectory that has some, aligned with its task's checklist (null where
 * an item has none): what the Compare page shows beside each verdict when a task is opened.
 */
export function trajectoryEvidence(prepared: PreparedStore): Record<string, (string | null)[]> {
  const evidenceOf = primaryEvidence(prepared);
  const out: Record<string, (string | null)[]> = {};
  for (const t of prepared.trajectories) {
    const e = evidenceOf(t.trajectory_id);
    if (e.some((x) => x)) out[t.trajectory_id] = e.map((x) => x || null);
  }
  return out;
}

/**
 * The primary judge's evidence (run 1) of a trajectory, aligned with its checklist: from the prepared store's
 * label vectors (read with `evidence`, or built from a row-shaped store's judgments). Empty when there is none.
 */
function primaryEvidence(prepared: PreparedStore): (id: string) => readonly (string | null)[] {
  const runs = prepared.store.labels.runs;
  return (id) => runs.get(id)?.find((r) => r.judge === prepared.primaryJudge && r.run === 1)?.evidence ?? [];
}

/** AUC per method and per condition with both intervals, resamples and seed (RQ1, Table 3A). */
export function aucRows(report: AnalysisReport): Row[] {
  return report.rq1.auc.concat(report.rq1.by_condition).map((a) => ({
    method: a.method,
    n: a.n,
    n_pass: a.n_pass,
    n_fail: a.n_fail,
    tasks: a.tasks,
    auc: a.auc,
    ci_low: a.ci?.[0] ?? null,
    ci_high: a.ci?.[1] ?? null,
    obuchowski_low: a.obuchowski?.ci?.[0] ?? null,
    obuchowski_high: a.obuchowski?.ci?.[1] ?? null,
    resamples: a.bootstrap?.resamples ?? null,
    seed: a.bootstrap?.seed ?? null,
  }));
}

/** Mean Q1 rating and plain GCPC per human-rated trajectory with GCPC defined (RQ2 scatter). */
export function humanRows(prepared: PreparedStore): Row[] {
  const ratings = group(prepared.store.human_ratings ?? [], (r) => r.trajectory_id);
  return [...ratings].flatMap(([id, rows]) => {
    const m = prepared.metrics.get(id);
    if (!m || m.zero_evidence) return [];
    const q1 = mean(rows.map((r) => r.rating));
    return [{ trajectory_id: id, gcpc: m.gcpc, q1, outcome: prepared.byId.get(id)?.outcome ?? "non-binary" }];
  });
}

/**
 * What the Compare page recomputes from, column-wise: every deduplicated binary-outcome trajectory
 * (RQ1's population) with its subset fields and each method's score (null where the method did not
 * score it; GCPC is null for zero-evidence trajectories, as in RQ1).
 */
export function compareColumns(prepared: PreparedStore) {
  const pop = prepared.trajectories.filter((t) => t.outcome === "PASS" || t.outcome === "FAIL");
  const task = (id: string) => prepared.tasks.get(id);
  const maps = methodScoreMaps(prepared);
  return {
    trajectory_id: pop.map((t) => t.trajectory_id),
    task_id: pop.map((t) => t.task_id),
    benchmark: pop.map((t) => task(t.task_id)?.benchmark ?? ""),
    domain: pop.map((t) => task(t.task_id)?.domain ?? ""),
    harness: pop.map((t) => t.harness),
    model: pop.map((t) => t.model),
    condition: pop.map((t) => t.condition),
    pass: pop.map((t) => t.outcome === "PASS"),
    scores: Object.fromEntries([...maps].map(([m, s]) => [m, pop.map((t) => s.get(t.trajectory_id) ?? null)])),
    // Per method: false when the outcome is computed from its items (the page says so beside every figure).
    outcome_free: Object.fromEntries([...maps.keys()].map((m) => [m, isOutcomeFree(prepared, m)])),
  };
}
