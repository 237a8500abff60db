import type { Judgment, JudgedLabel, Label } from "./tables.js";
import { gradeChar, NOT_APPLICABLE_CHAR } from "./grades.js";

/**
 * A store's judgments as label vectors: for each trajectory, one entry per (judge, run) holding its
 * labels aligned with the task's checklist (store order), one character per item. This is what
 * every analysis reads, and it is O(trajectory runs), not O(judgments): a store read from disk keeps
 * its judgment rows in DuckDB (store/judgment-table.ts) and brings only these vectors into
 * JavaScript (no Map, Set or array with one entry per judgment).
 */
export interface LabelVectors {
  /** Judgment rows behind the vectors (every row of the judgments table). */
  judgments: number;
  /** trajectory_id → its runs. Judge and run are normalised (contract rule 13). */
  runs: Map<string, LabelRun[]>;
  /**
   * The same runs by position, when the reader knows them: `runs[k]` (the same arrays as the Map's) are the
   * runs of `of[k]`, where `of` is the store's trajectories array itself (a store whose trajectories were
   * replaced does not use them). Lets a loop over the trajectories skip an id lookup each.
   */
  byPosition?: { of: readonly unknown[]; runs: (LabelRun[] | undefined)[] };
}

export interface LabelRun {
  judge: string;
  run: number;
  /**
   * One character per checklist item: Y(es), N(o), A(bstain), "." for not judged, "-" for not applicable,
   * or a grade's own character (schema_version 2 grades: analysis/schema/grades.ts).
   */
  labels: string;
  /** The judge's evidence per checklist item (null: none), when the reader was asked for it. */
  evidence?: (string | null)[];
}

const CODE: Record<Label, string> = { Yes: "Y", No: "N", Abstain: "A" };
const LABEL_OF: Record<string, Label | undefined> = { Y: "Yes", N: "No", A: "Abstain" };

export const labelCode = (label: Label): string => CODE[label];

/** The label character of a judgment (or human item label): its grade's when it has one (grades.ts). */
export function judgedChar(j: { label?: JudgedLabel | null; grade?: number | null }): string {
  if (j.grade != null) return gradeChar(j.grade);
  if (j.label === "NotApplicable") return NOT_APPLICABLE_CHAR;
  return CODE[j.label ?? "Abstain"];
}

/**
 * The label of item k in a run's label string; undefined = not judged, and for a grade strictly between 0
 * and 1 or a not-applicable item (grades.ts reads those).
 */
export const labelAt = (labels: string, k: number): Label | undefined => LABEL_OF[labels[k]];

/** The labels of one run, aligned with the checklist; undefined = not judged. */
export function decodeLabels(labels: string): (Label | undefined)[] {
  const out = new Array<Label | undefined>(labels.length);
  for (let k = 0; k < labels.length; k++) out[k] = labelAt(labels, k);
  return out;
}

/**
 * The labels of one run as a reader sees them: Yes, No, Abstain, NotApplicable, or a grade to three decimals
 * (from `grades`, a table of gradeTableOf, in a process without the grade table); undefined = not judged.
 */
export function readableLabels(labels: string, grades?: Record<string, number>): (string | undefined)[] {
  const out = new Array<string | undefined>(labels.length);
  for (let k = 0; k < labels.length; k++) {
    const c = labels[k];
    const g = grades?.[c];
    out[k] = LABEL_OF[c] ?? (c === "-" ? "NotApplicable" : g === undefined ? undefined : g.toFixed(3));
  }
  return out;
}

/**
 * Label vectors from judgment rows held in memory (generated stores, imports, tests); the same
 * vectors store/judgment-table.ts builds in SQL for a store read from disk. Rows naming an unknown
 * trajectory or an item outside the trajectory's checklist are skipped (validation reports them).
 */
export function labelVectorsFromRows(
  judgments: readonly Judgment[],
  checklistOf: (trajectoryId: string) => readonly { item_id: string }[] | undefined,
  primaryJudge: string,
  options: { evidence?: boolean } = {},
): LabelVectors {
  const runs = new Map<string, LabelRun[]>();
  const index = new Map<readonly { item_id: string }[], Map<string, number>>();
  for (const j of judgments) {
    const items = checklistOf(j.trajectory_id);
    if (!items) continue;
    let slots = index.get(items);
    if (!slots) index.set(items, (slots = new Map(items.map((it, k) => [it.item_id, k]))));
    const k = slots.get(j.item_id);
    if (k === undefined) continue;
    const judge = j.judge ?? primaryJudge;
    const run = j.run ?? 1;
    const list = runs.get(j.trajectory_id) ?? [];
    if (list.length === 0) runs.set(j.trajectory_id, list);
    let r = list.find((x) => x.judge === judge && x.run === run);
    if (!r) {
      r = { judge, run, labels: ".".repeat(items.length) };
      if (options.evidence) r.evidence = new Array(items.length).fill(null);
      list.push(r);
    }
    r.labels = r.labels.slice(0, k) + judgedChar(j) + r.labels.slice(k + 1);
    if (r.evidence) r.evidence[k] = j.evidence ?? null;
  }
  return { judgments: judgments.length, runs };
}
