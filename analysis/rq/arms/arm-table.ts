// The arm table: a store's trajectories as a comparison of arms reads them (fields, attempt, outcome, score,
// scoring judge, label string), built once from a prepared store and shipped as is to the site's browser.
import { gradeTableOf } from "../../schema/grades.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { type ArmField, type ArmView, ARM_FIELDS } from "./arm-pairs.js";
import { fieldOf } from "./arm-view.js";
import { methodScoreMaps } from "../method-scores.js";
import { noiseFloor } from "../noise-floor.js";
import { isOutcomeFree } from "../outcome-free.js";
import { isBinary, scoringJudge, type PreparedStore } from "../prepared.js";
import { PLAIN } from "../../scoring/official-outcome.js";

/**
 * One trajectory as a comparison of arms reads it: its fields, attempt, outcome and score. The binary ones only,
 * unless the store has no binary outcome at all (a rubric table imported without --outcome): then every
 * trajectory, its outcome null, and only the score is compared (GCPC needs no outcome).
 */
export interface ArmRow {
  id: string;
  task: string;
  fields: Record<ArmField, string | null>;
  trial: number | null;
  outcome: "PASS" | "FAIL" | null;
  /** The compared score (NaN-free: null when the trajectory has none, e.g. zero-evidence GCPC). */
  score: number | null;
  /**
   * The judge whose labels give a GCPC score (prepared.ts, scoringJudge; the named one with `--judge`); absent
   * for other methods and when the store has one judge.
   */
  judge?: string;
}

/**
 * Everything `compareArmTable` reads, plain data: what the CLI builds from a prepared store ({@link armTable})
 * and what the site ships to the browser, so both compute the same numbers with the same code and seeds.
 */
export interface ArmTable {
  method: string;
  /** Whether the method's score is free of the outcome (analysis/rq/outcome-free.ts; Terminal-Bench's aren't). */
  outcome_free: boolean;
  /** The binary trajectories in trajectory_id order. */
  rows: ArmRow[];
  /** Each row's primary-run label string (label-vectors.ts) and each task's checklist, for the per-item tests. */
  labels: string[] | null;
  /**
   * The store's reference judge (store.json reference_judge, e.g. a human consensus) and its label string per
   * row ("" where it did not label the row): shown beside the scoring judge's verdicts. Absent without one.
   */
  reference?: { judge: string; labels: string[] };
  /** The grade of each grade character the labels use (schema_version 2 grades; absent when none). */
  grades?: Record<string, number>;
  checklist: Record<string, { item_id: string; text: string; category?: string | null; route: string }[]>;
  /** The noise floor when no arm repeats attempts: the store's repeated scoring runs, or the paper's constant. */
  fallbackFloor: {
    name: "judge retest floor";
    value: number;
    source: "measured between runs" | "paper";
    n: number;
    definition: string;
  };
}

/** The arm table of a prepared store for a method's scores (GCPC by default). */
export function armTable(p: PreparedStore, method = "gcpc", judge?: string): ArmTable | NotAvailable {
  const scores = methodScoreMaps(p).get(method);
  if (!scores) return notAvailable(`no scores for method "${method}"`);
  if (judge !== undefined && method !== "gcpc") return notAvailable("--judge scores GCPC: drop --method");
  if (judge !== undefined && !p.counts.judges.includes(judge))
    return notAvailable(`no judge "${judge}" in the store (its judges: ${p.counts.judges.join(", ") || "none"})`);
  // Which judge scores each row (issue 45.2): said beside a Δ whose arms were scored by different judges.
  const severalJudges = method === "gcpc" && p.counts.judges.length > 1;
  const scoreOf = (k: number, id: string) =>
    judge === undefined ? scores.get(id) : p.scoreAt(k, PLAIN, "exclude", judge);
  const rows: ArmRow[] = [];
  const labels: string[] = [];
  // The reference judge's labels beside the scoring judge's, where the store names one that labelled something
  // and it is not the judge the rows are scored by.
  const named = p.store.manifest.reference_judge ?? undefined;
  const reference = named && named !== judge && p.counts.judges.includes(named) ? named : undefined;
  const referenceLabels: string[] = [];
  const anyBinary = p.trajectories.some(isBinary);
  for (const [k, t] of p.trajectories.entries()) {
    if (anyBinary && !isBinary(t)) continue;
    const fields = Object.fromEntries(ARM_FIELDS.map((f) => [f, fieldOf(p, t, f)])) as Record<ArmField, string | null>;
    const score = scoreOf(k, t.trajectory_id);
    rows.push({
      id: t.trajectory_id,
      task: t.task_id,
      fields,
      trial: t.trial ?? null,
      outcome: isBinary(t) ? (t.outcome as "PASS" | "FAIL") : null,
      score: score === undefined || !Number.isFinite(score) ? null : score,
      ...(severalJudges ? { judge: judge ?? scoringJudge(p.runsAt(k), p.primaryJudge) } : {}),
    });
    labels.push(p.labelsAt(k, judge) ?? "");
    if (reference) referenceLabels.push(p.labelsAt(k, reference) ?? "");
  }
  const checklist = Object.fromEntries(
    [...p.checklist].map(([task, items]) => [
      task,
      items.map((it) => ({ item_id: it.item_id, text: it.text, category: it.category ?? null, route: it.route })),
    ]),
  );
  const store = noiseFloor(p);
  const grades = p.hasJudgments ? gradeTableOf(reference ? [...labels, ...referenceLabels] : labels) : undefined;
  return {
    method,
    outcome_free: isOutcomeFree(p, method),
    rows,
    labels: p.hasJudgments ? labels : null,
    ...(reference ? { reference: { judge: reference, labels: referenceLabels } } : {}),
    ...(grades ? { grades } : {}),
    checklist,
    fallbackFloor: {
      name: "judge retest floor",
      value: store.value,
      source: store.source === "measured" ? "measured between runs" : "paper",
      n: store.trajectories,
      definition: store.definition,
    },
  };
}

/** The arm table's rows as the pairing reads them (analysis/rq/arm-pairs.ts). */
export function tableView(rows: readonly ArmRow[]): ArmView {
  return {
    slots: rows.map((_, k) => k),
    id: (k) => rows[k].id,
    task: (k) => rows[k].task,
    column: (f) => (k) => rows[k].fields[f],
    trial: (k) => rows[k].trial,
  };
}
