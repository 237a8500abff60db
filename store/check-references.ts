import type { TableName } from "../analysis/schema/tables.js";
import type { Problem } from "./problems.js";
import { DEFAULT_JUDGE } from "../analysis/rq/prepared.js";

type Row = Record<string, any>;
/** Where a valid row came from: a JSONL/CSV line or a Parquet row. */
export interface RowLocation {
  line?: number;
  row?: number;
}

/**
 * Keys and references across tables: unique ids, item → task, trajectory →
 * task, judgment → trajectory and an item of that trajectory's task, human
 * tables and replacements → trajectories, preferences within one task.
 * Each problem names the file line (JSONL, CSV) or row (Parquet) of the row.
 */
export function checkReferences(
  tables: Partial<Record<TableName, unknown[]>>,
  locations: Partial<Record<TableName, RowLocation[]>>,
  files: Record<string, string>,
  add: (p: Problem) => void,
  incomplete: ReadonlySet<TableName> = new Set(),
  primaryJudge = DEFAULT_JUDGE,
): void {
  const t = tables as Partial<Record<TableName, Row[]>>;
  const file = (table: TableName) => files[table] ?? table;
  const at = (table: TableName, i: number) => locations[table]?.[i] ?? { row: i + 1 };
  const where = (table: TableName, i: number) => {
    const l = at(table, i);
    return l.line !== undefined ? `line ${l.line}` : `row ${l.row}`;
  };
  const unique = (table: TableName, key: (r: Row) => string, what: string, field: string) => {
    const seen = new Map<string, string>();
    (t[table] ?? []).forEach((r, i) => {
      const k = key(r);
      const first = seen.get(k);
      if (first !== undefined)
        add({
          file: file(table),
          ...at(table, i),
          field,
          message: `duplicate ${what} ${JSON.stringify(k.replaceAll("\u0000", " / "))} (first at ${first})`,
        });
      else seen.set(k, where(table, i));
    });
  };
  unique("tasks", (r) => r.task_id, "task_id", "task_id");
  unique("items", (r) => `${r.task_id}\u0000${r.item_id}`, "item (task_id / item_id)", "item_id");
  unique("trajectories", (r) => r.trajectory_id, "trajectory_id", "trajectory_id");
  // Contract rule 13: the key is normalized first (omitted run = 1, omitted judge = the primary judge),
  // so a row without a judge and a row naming the primary judge are the same judgment.
  unique(
    "judgments",
    (r) => `${r.trajectory_id}\u0000${r.item_id}\u0000${r.run ?? 1}\u0000${r.judge ?? primaryJudge}`,
    "judgment (trajectory / item / run / judge, normalized)",
    "item_id",
  );
  unique("method_scores", (r) => `${r.trajectory_id}\u0000${r.method}`, "score (trajectory / method)", "method");
  unique(
    "human_ratings",
    (r) => `${r.annotator}\u0000${r.trajectory_id}`,
    "rating (annotator / trajectory)",
    "trajectory_id",
  );
  unique(
    "human_item_labels",
    (r) => `${r.annotator}\u0000${r.trajectory_id}\u0000${r.item_id}`,
    "label (annotator / trajectory / item)",
    "item_id",
  );
  unique("verifier_results", (r) => `${r.trajectory_id}\u0000${r.test_id}`, "result (trajectory / test)", "test_id");

  const tasks = new Set((t.tasks ?? []).map((r) => r.task_id));
  const itemsOf = new Map<string, Set<string>>();
  (t.items ?? []).forEach((r, i) => {
    if (!incomplete.has("tasks") && !tasks.has(r.task_id))
      add({
        file: file("items"),
        ...at("items", i),
        field: "task_id",
        message: `unknown task ${JSON.stringify(r.task_id)} (not in tasks)`,
      });
    let s = itemsOf.get(r.task_id);
    if (!s) itemsOf.set(r.task_id, (s = new Set()));
    s.add(r.item_id);
  });
  const taskOf = new Map<string, string>();
  (t.trajectories ?? []).forEach((r, i) => {
    if (!incomplete.has("tasks") && !tasks.has(r.task_id))
      add({
        file: file("trajectories"),
        ...at("trajectories", i),
        field: "task_id",
        message: `unknown task ${JSON.stringify(r.task_id)} (not in tasks)`,
      });
    taskOf.set(r.trajectory_id, r.task_id);
  });
  const trajRef = (table: TableName, field: string, r: Row, i: number): string | undefined => {
    const task = taskOf.get(r[field]);
    if (task === undefined && !incomplete.has("trajectories"))
      add({
        file: file(table),
        ...at(table, i),
        field,
        message: `unknown trajectory ${JSON.stringify(r[field])} (not in trajectories)`,
      });
    return task;
  };
  const itemRef = (table: TableName, r: Row, i: number) => {
    const task = trajRef(table, "trajectory_id", r, i);
    if (
      task !== undefined &&
      !incomplete.has("items") &&
      !incomplete.has("tasks") &&
      tasks.has(task) &&
      !itemsOf.get(task)?.has(r.item_id)
    ) {
      add({
        file: file(table),
        ...at(table, i),
        field: "item_id",
        message: `item ${JSON.stringify(r.item_id)} is not in the checklist of task ${JSON.stringify(task)} (the trajectory's task)`,
      });
    }
  };
  (t.judgments ?? []).forEach((r, i) => itemRef("judgments", r, i));
  (t.human_item_labels ?? []).forEach((r, i) => itemRef("human_item_labels", r, i));
  (t.evidence_replacements ?? []).forEach((r, i) => itemRef("evidence_replacements", r, i));
  for (const table of ["method_scores", "human_ratings", "verifier_results"] as const)
    (t[table] ?? []).forEach((r, i) => trajRef(table, "trajectory_id", r, i));
  (t.human_preferences ?? []).forEach((r, i) => {
    const a = trajRef("human_preferences", "trajectory_a", r, i),
      b = trajRef("human_preferences", "trajectory_b", r, i);
    if (a !== undefined && b !== undefined && a !== b)
      add({
        file: file("human_preferences"),
        ...at("human_preferences", i),
        field: "trajectory_b",
        message: `preference between trajectories of different tasks (${JSON.stringify(a)} vs ${JSON.stringify(b)})`,
      });
    if (r.trajectory_a === r.trajectory_b)
      add({
        file: file("human_preferences"),
        ...at("human_preferences", i),
        field: "trajectory_b",
        message: "a trajectory compared with itself",
      });
  });
}
