import { duplicateRows } from "./duplicate-rows.js";
import type { TableName } from "../analysis/schema/tables.js";
import type { Problem } from "./problems.js";
import { DEFAULT_JUDGE } from "../analysis/schema/tables.js";

/** Where a valid row came from: a JSONL/CSV line or a Parquet row. */
export interface RowLocation {
  line?: number;
  row?: number;
}

/**
 * Where each valid row of a table came from, held as two small-integer arrays (0 = none) rather than an
 * object per row: at 100× the paper the tables other than judgments hold 8 M rows.
 */
export class RowLocations {
  /** Made at the first row with a line (a Parquet file's or a database's rows have none). */
  private lines: number[] | undefined;
  private readonly rows: number[] = [];

  push(line: number | undefined, row: number | undefined): void {
    if (line) (this.lines ??= new Array<number>(this.rows.length).fill(0)).push(line);
    else this.lines?.push(0);
    this.rows.push(row ?? 0);
  }

  at(i: number): RowLocation | undefined {
    if (i >= this.rows.length) return undefined;
    return { line: this.lines?.[i] || undefined, row: this.rows[i] || undefined };
  }
}

/** Key fields of a validated row (ids are strings; `run` is a number, used only inside a key). */
type Row = Record<string, string>;

/**
 * Keys and references across tables: unique ids, item → task, trajectory →
 * task, judgment → trajectory and an item of that trajectory's task, human
 * tables and replacements → trajectories, preferences within one task.
 * Each problem names the file line (JSONL, CSV) or row (Parquet) of the row.
 */
export function checkReferences(
  tables: Partial<Record<TableName, unknown[]>>,
  locations: Partial<Record<TableName, RowLocations>>,
  files: Record<string, string>,
  add: (p: Problem) => void,
  o: {
    incomplete?: ReadonlySet<TableName>;
    primaryJudge?: string;
    /** Problems of a judgments table checked in DuckDB (store/judgment-table.ts), emitted in their place. */
    judgments?: { duplicates: Problem[]; references: Problem[] };
    /**
     * The trajectories' ids are known to be unique (DuckDB counted them, store/read-store.ts): their key
     * check, a Map of every id (2 M at 100× the paper), is skipped.
     */
    trajectoryIdsUnique?: boolean;
    /** The store's contract version (store.json; 1 when none): version 1 may not use version 2's fields. */
    schemaVersion?: number;
  } = {},
): void {
  const { incomplete = new Set(), primaryJudge = DEFAULT_JUDGE, judgments } = o;
  const c = new ReferenceCheck(tables as Partial<Record<TableName, Row[]>>, locations, files, add, incomplete);
  c.uniqueKeys(primaryJudge, judgments?.duplicates, o.trajectoryIdsUnique);
  c.taskReferences();
  c.prerequisites();
  c.weightSpread();
  c.pointsRubrics();
  if ((o.schemaVersion ?? 1) < 2) c.versionTwoFields();
  for (const p of judgments?.references ?? []) add(p);
  for (const table of ITEM_NAMING) {
    c.rows(table).forEach((r, i) => {
      c.itemReference(table, r, i);
    });
  }
  for (const table of TRAJECTORY_NAMING) {
    c.rows(table).forEach((r, i) => {
      c.trajectoryReference(table, "trajectory_id", r, i);
    });
  }
  c.preferences();
}

/** An items row's prerequisites (none when absent). */
const prerequisitesOf = (r: unknown): readonly string[] =>
  (r as { prerequisites?: string[] | null }).prerequisites ?? [];

/** Tables whose rows name a trajectory and an item of its task. */
const ITEM_NAMING = ["judgments", "human_item_labels", "evidence_replacements"] as const;
/** Tables whose rows name a trajectory only (human_preferences names two, checked apart). */
const TRAJECTORY_NAMING = ["method_scores", "human_ratings", "verifier_results"] as const;

class ReferenceCheck {
  private readonly tasks: Set<string>;
  private readonly itemsOf = new Map<string, Set<string>>();
  private readonly taskOf = new Map<string, string>();

  constructor(
    private readonly t: Partial<Record<TableName, Row[]>>,
    private readonly locations: Partial<Record<TableName, RowLocations>>,
    private readonly files: Record<string, string>,
    private readonly add: (p: Problem) => void,
    private readonly incomplete: ReadonlySet<TableName>,
  ) {
    this.tasks = new Set(this.rows("tasks").map((r) => r.task_id));
  }

  rows(table: TableName): Row[] {
    return this.t[table] ?? [];
  }

  private problem(table: TableName, i: number, field: string, message: string): void {
    this.add({ file: this.files[table] ?? table, ...this.at(table, i), field, message });
  }

  private at(table: TableName, i: number): RowLocation {
    return this.locations[table]?.at(i) ?? { row: i + 1 };
  }

  private where(table: TableName, i: number): string {
    const l = this.at(table, i);
    return l.line !== undefined ? `line ${l.line}` : `row ${l.row}`;
  }

  /** A problem for every row whose key (its `parts`, compared as joined text) an earlier row already has. */
  private unique(table: TableName, parts: ((r: Row) => unknown)[], what: string, field: string): void {
    const rows = this.rows(table);
    for (const { row, first } of duplicateRows(rows, parts)) {
      const shown = JSON.stringify(
        parts
          .map((p) => p(rows[row]))
          .join("\u0000")
          .replaceAll("\u0000", " / "),
      );
      this.problem(table, row, field, `duplicate ${what} ${shown} (first at ${this.where(table, first)})`);
    }
  }

  uniqueKeys(primaryJudge: string, judgmentDuplicates: Problem[] = [], trajectoryIdsUnique = false): void {
    const f = (name: string) => (r: Row) => r[name];
    this.unique("tasks", [f("task_id")], "task_id", "task_id");
    this.unique("items", [f("task_id"), f("item_id")], "item (task_id / item_id)", "item_id");
    if (!trajectoryIdsUnique) this.unique("trajectories", [f("trajectory_id")], "trajectory_id", "trajectory_id");
    // Contract rule 13: the key is normalized first (omitted run = 1, omitted judge = the primary judge),
    // so a row without a judge and a row naming the primary judge are the same judgment.
    this.unique(
      "judgments",
      [f("trajectory_id"), f("item_id"), (r) => r.run ?? 1, (r) => r.judge ?? primaryJudge],
      "judgment (trajectory / item / run / judge, normalized)",
      "item_id",
    );
    for (const p of judgmentDuplicates) this.add(p);
    this.unique("method_scores", [f("trajectory_id"), f("method")], "score (trajectory / method)", "method");
    this.unique(
      "human_ratings",
      [f("annotator"), f("trajectory_id")],
      "rating (annotator / trajectory)",
      "trajectory_id",
    );
    const labelKey = [f("annotator"), f("trajectory_id"), f("item_id")];
    this.unique("human_item_labels", labelKey, "label (annotator / trajectory / item)", "item_id");
    this.unique("verifier_results", [f("trajectory_id"), f("test_id")], "result (trajectory / test)", "test_id");
  }

  /** items → tasks and trajectories → tasks; builds the checklist and task of every trajectory. */
  taskReferences(): void {
    const tasksRead = !this.incomplete.has("tasks");
    // A task's rows usually come together: a row naming the task of the row before it is known to be fine.
    let known: string | undefined;
    const checkTask = (table: TableName, r: Row, i: number) => {
      if (r.task_id === known || !tasksRead) return;
      if (this.tasks.has(r.task_id)) known = r.task_id;
      else this.problem(table, i, "task_id", `unknown task ${JSON.stringify(r.task_id)} (not in tasks)`);
    };
    this.rows("items").forEach((r, i) => {
      checkTask("items", r, i);
      const s = this.itemsOf.get(r.task_id) ?? new Set<string>();
      if (s.size === 0) this.itemsOf.set(r.task_id, s);
      s.add(r.item_id);
    });
    const wanted = this.namedTrajectories();
    this.rows("trajectories").forEach((r, i) => {
      checkTask("trajectories", r, i);
      if (!wanted || wanted.has(r.trajectory_id)) this.taskOf.set(r.trajectory_id, r.task_id);
    });
  }

  /** Fields of schema_version 2 in a store that names version 1 (or none): each is a problem naming its row. */
  versionTwoFields(): void {
    const needs = 'needs "schema_version": 2 in store.json (docs/verdict-store.md)';
    const check = (table: TableName, fields: string[], label = false) =>
      this.rows(table).forEach((r, i) => {
        const row = r as unknown as Record<string, unknown>;
        for (const f of fields) if (row[f] != null) this.problem(table, i, f, `${f} ${needs}`);
        if (label && row.label === "NotApplicable") this.problem(table, i, "label", `NotApplicable ${needs}`);
      });
    check("items", ["weight", "points", "prerequisites", "group"]);
    check("human_item_labels", ["grade", "raw"], true);
  }

  /**
   * items.weight: one task's weights lie within a factor of 2^960 of each other. Beyond that no double holds a
   * sum of the largest beside the smallest (the scoring divides a task's weights by a power of two when their
   * sum could overflow, analysis/rq/prepared.ts weightsThatSum, and a weight 2^960 below the largest would then
   * round to 0, leaving a trajectory judged on it alone with credit 0/0). The smallest is named, beside the
   * largest.
   */
  weightSpread(): void {
    if (this.incomplete.has("items")) return;
    const extremes = new Map<string, { small: number; large: number }>();
    const rows = this.rows("items") as unknown as { task_id: string; item_id: string; weight?: number | null }[];
    rows.forEach((r, i) => {
      if (typeof r.weight !== "number") return;
      const e = extremes.get(r.task_id);
      if (!e) extremes.set(r.task_id, { small: i, large: i });
      else {
        if (r.weight < rows[e.small].weight!) e.small = i;
        if (r.weight > rows[e.large].weight!) e.large = i;
      }
    });
    for (const [task, e] of extremes) {
      const [small, large] = [rows[e.small], rows[e.large]];
      if (large.weight! / small.weight! > 2 ** 960)
        this.problem(
          "items",
          e.small,
          "weight",
          `weight ${small.weight} is more than 2^960 below weight ${large.weight} of item "${large.item_id}" of ` +
            `task "${task}": one task's weights must lie within a factor of 2^960 (about 1e289) of each other, ` +
            "or no double holds their sum",
        );
    }
  }

  /**
   * Points rubrics (contract rule 20): a task's items carry points on every item or on none (a score over some of
   * them would have no maximum), and a task with points gives no weights (its points are its weights). The first
   * item that breaks it is named, beside one that has points.
   */
  pointsRubrics(): void {
    if (this.incomplete.has("items")) return;
    const rows = this.rows("items") as unknown as { task_id: string; item_id: string; points?: number | null }[];
    const byTask = new Map<string, number[]>();
    rows.forEach((r, i) => {
      byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), i]);
    });
    for (const [task, at] of byTask) {
      const withPoints = at.find((i) => rows[i].points != null);
      if (withPoints === undefined) continue;
      const named = `item "${rows[withPoints].item_id}" of task "${task}" has points`;
      const without = at.find((i) => rows[i].points == null);
      if (without !== undefined)
        this.problem("items", without, "points", `no points, but ${named}: give every item of the task points`);
      const weighted = at.find((i) => (rows[i] as { weight?: number | null }).weight != null);
      if (weighted !== undefined)
        this.problem("items", weighted, "weight", `a weight, but ${named}: a points rubric's points are its weights`);
    }
  }

  /**
   * items.prerequisites (schema_version 2): each names another item of the same task, and following them
   * never leads back to the item (a cycle would make gated credit undefined).
   */
  prerequisites(): void {
    if (this.incomplete.has("items")) return;
    const rows = this.rows("items");
    // Most stores list none: then there is nothing to look up (the index below is a key per item).
    if (!rows.some((r) => prerequisitesOf(r).length > 0)) return;
    const index = new Map<string, number>();
    for (const [i, r] of rows.entries()) index.set(`${r.task_id}\u0000${r.item_id}`, i);
    rows.forEach((r, i) => {
      for (const pre of prerequisitesOf(r)) {
        if (pre === r.item_id) this.problem("items", i, "prerequisites", `item ${JSON.stringify(pre)} lists itself`);
        else if (!index.has(`${r.task_id}\u0000${pre}`))
          this.problem(
            "items",
            i,
            "prerequisites",
            `unknown item ${JSON.stringify(pre)} (not in task ${JSON.stringify(r.task_id)})`,
          );
      }
    });
    const state = new Uint8Array(rows.length); // 0 unvisited, 1 on the path, 2 done
    const visit = (i: number, path: string[]): string[] | undefined => {
      if (state[i] === 2) return undefined;
      if (state[i] === 1) return path;
      state[i] = 1;
      for (const pre of prerequisitesOf(rows[i])) {
        const j = index.get(`${rows[i].task_id}\u0000${pre}`);
        const cycle = j === undefined || j === i ? undefined : visit(j, [...path, pre]);
        if (cycle) return cycle;
      }
      state[i] = 2;
      return undefined;
    };
    rows.forEach((r, i) => {
      const cycle = state[i] === 0 ? visit(i, [r.item_id]) : undefined;
      if (cycle) this.problem("items", i, "prerequisites", `prerequisites form a cycle: ${cycle.join(" → ")}`);
    });
  }

  /**
   * The trajectory ids the other tables' rows name, when they are fewer rows than the trajectories; else
   * undefined (every trajectory's task is kept). The judgments are checked in DuckDB and method scores
   * read as columns, so at 100× the paper a few thousand human rows name a trajectory, and the lookup
   * needs those ids' tasks, not a Map entry for each of 2 M trajectories.
   */
  private namedTrajectories(): Set<string> | undefined {
    const naming = [
      ...[...ITEM_NAMING, ...TRAJECTORY_NAMING].map((t) => [t, "trajectory_id"]),
      ["human_preferences", "trajectory_a"],
      ["human_preferences", "trajectory_b"],
    ] as [TableName, string][];
    let count = 0;
    for (const [table] of naming) count += this.rows(table).length;
    if (count >= this.rows("trajectories").length) return undefined;
    const ids = new Set<string>();
    for (const [table, field] of naming) for (const r of this.rows(table)) ids.add(r[field]);
    return ids;
  }

  /** The task of the trajectory a row names, or undefined (reported unless trajectories could not be read). */
  trajectoryReference(table: TableName, field: string, r: Row, i: number): string | undefined {
    const task = this.taskOf.get(r[field]);
    if (task === undefined && !this.incomplete.has("trajectories"))
      this.problem(table, i, field, `unknown trajectory ${JSON.stringify(r[field])} (not in trajectories)`);
    return task;
  }

  itemReference(table: TableName, r: Row, i: number): void {
    const task = this.trajectoryReference(table, "trajectory_id", r, i);
    if (task === undefined || this.incomplete.has("items") || this.incomplete.has("tasks") || !this.tasks.has(task))
      return;
    if (this.itemsOf.get(task)?.has(r.item_id)) return;
    const message =
      `item ${JSON.stringify(r.item_id)} is not in the checklist of task ${JSON.stringify(task)} ` +
      "(the trajectory's task)";
    this.problem(table, i, "item_id", message);
  }

  preferences(): void {
    this.rows("human_preferences").forEach((r, i) => {
      const a = this.trajectoryReference("human_preferences", "trajectory_a", r, i);
      const b = this.trajectoryReference("human_preferences", "trajectory_b", r, i);
      if (a !== undefined && b !== undefined && a !== b) {
        const pair = `${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
        const message = `preference between trajectories of different tasks (${pair})`;
        this.problem("human_preferences", i, "trajectory_b", message);
      }
      if (r.trajectory_a === r.trajectory_b)
        this.problem("human_preferences", i, "trajectory_b", "a trajectory compared with itself");
    });
  }
}
