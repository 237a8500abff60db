// gcpc import table's rows read into tasks, items, trajectories and judgments, with every problem located
// (file, row, column) and the clash of two rows that give one trajectory and item a label.
import type { Item, Judgment, JudgedLabel, Trajectory } from "../../analysis/schema/tables.js";
import { Condition } from "../../analysis/schema/tables.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, type Problem } from "../problems.js";
import { cellText, type Cell, type UserTable } from "./table-file.js";
import type { TableSpec } from "./table-spec.js";
import { parsePoints, parsePrerequisites, type ItemContexts } from "./item-weights.js";

/** One grade cell read: a label or a grade, and the original answer. */
export type Read = { label?: JudgedLabel; grade?: number; raw: string } | { problem: string } | undefined;

/** A cell's label under the spec: literal labels, yes/no/true/false, --not-applicable, --abstain, or a grade. */
export function readGrade(cell: Cell, spec: Pick<TableSpec, "scale" | "notApplicable" | "abstain">): Read {
  if (cell === null || cell === undefined) return undefined;
  const raw = String(cell).trim();
  if (raw === "") return undefined;
  if (spec.notApplicable.includes(raw)) return { label: "NotApplicable", raw };
  if (spec.abstain.includes(raw)) return { label: "Abstain", raw };
  const word = raw.toLowerCase();
  if (word === "yes" || word === "true") return { label: "Yes", raw };
  if (word === "no" || word === "false") return { label: "No", raw };
  if (raw === "Abstain" || raw === "NotApplicable") return { label: raw, raw };
  const x = typeof cell === "number" ? cell : /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(x)) return { problem: `${JSON.stringify(raw)} is not a grade, yes/no, or a listed value` };
  const [lo, hi] = spec.scale ?? [0, 1];
  if (x < lo || x > hi)
    return { problem: `${raw} is outside the scale ${lo}:${hi}${spec.scale ? "" : " (give --scale MIN:MAX)"}` };
  // Linear to [0, 1]; the scale's ends are exactly 0 and 1.
  const grade = x === lo ? 0 : x === hi ? 1 : (x - lo) / (hi - lo);
  return { grade, raw };
}

export interface Cells {
  get(column: string): Cell;
  at: { file: string; line?: number; row?: number };
}

export const text = cellText;

export class TableImport {
  readonly problems: Problem[] = [];
  readonly tasks = new Set<string>();
  readonly items = new Map<string, Item>();
  readonly trajectories = new Map<string, Trajectory>();
  readonly judgments: Judgment[] = [];
  readonly judgmentKeys = new Map<string, { at: string; cells: Cells }>();
  /** The first clash of two rows giving the same trajectory and item a label: what tells the user why. */
  clash?: { first: Cells; second: Cells };
  /** Each --outcome value read, with its count (to refuse a --pass VALUE that matches none, naming them). */
  readonly outcomeValues = new Map<string, number>();
  /** The --outcomes rows' keys that some trajectory read (the others match no trajectory: listed, issue 55.2). */
  readonly usedAttributes = new Set<string>();
  /** Per item, the values of `contextColumns` in the rows that labelled it (the --weights/--checklist join). */
  readonly itemContexts: ItemContexts = new Map();
  /** Where each item's --item-text/--prerequisites value was first read, to name both rows of a disagreement. */
  private readonly itemAttributeAt = new Map<string, string>();

  constructor(
    readonly spec: TableSpec,
    readonly attributes?: Map<string, Cells>,
    /** The --weights/--checklist join's columns; undefined when there is no item table to join. */
    readonly contextColumns?: string[],
  ) {}

  problem(at: Cells["at"], field: string, message: string) {
    this.problems.push({
      file: at.file,
      line: at.line,
      row: at.line === undefined ? at.row : undefined,
      field,
      message,
    });
  }

  /** A column's value, from the row or else from the --outcomes table's row for the same task and trajectory. */
  value(cells: Cells, column: string | undefined, key: string): Cell {
    if (!column) return null;
    const own = cells.get(column);
    if (own !== null && own !== undefined) return own;
    const attribute = this.attributes?.get(key);
    if (attribute) this.usedAttributes.add(key);
    return attribute?.get(column) ?? null;
  }

  trajectoryOf(cells: Cells): string | undefined {
    const s = this.spec;
    const task = text(cells.get(s.task));
    if (!task) {
      this.problem(cells.at, s.task, "the task is empty");
      return undefined;
    }
    const parts = [s.harness, s.model, s.condition, s.trial].map((c) => (c ? text(cells.get(c)) : undefined));
    const id = s.trajectory ? text(cells.get(s.trajectory)) : [task, ...parts.filter(Boolean)].join("/");
    if (!id) {
      this.problem(cells.at, s.trajectory!, "the trajectory is empty");
      return undefined;
    }
    const key = `${task}\u0000${id}`;
    const t = this.trajectoryRow(cells, task, id, key);
    if (!t) return undefined;
    const before = this.trajectories.get(id);
    if (before && JSON.stringify(before) !== JSON.stringify(t)) {
      this.problem(
        cells.at,
        s.trajectory ?? s.task,
        `trajectory ${JSON.stringify(id)} differs from its earlier rows (${describe(before, t)})`,
      );
      return undefined;
    }
    this.tasks.add(task);
    this.trajectories.set(id, t);
    return id;
  }

  trajectoryRow(cells: Cells, task: string, id: string, key: string): Trajectory | undefined {
    const s = this.spec;
    const v = (column: string | undefined) => text(this.value(cells, column, key));
    const condition = v(s.condition) ?? "none";
    if (!Condition.safeParse(condition).success) {
      this.problem(
        cells.at,
        s.condition!,
        `condition ${JSON.stringify(condition)} is not none, curated or self_generated`,
      );
      return undefined;
    }
    const trialText = v(s.trial);
    const trial = trialText === undefined ? null : Number(trialText);
    if (trial !== null && !Number.isInteger(trial)) {
      this.problem(cells.at, s.trial!, `trial ${JSON.stringify(trialText)} is not an integer`);
      return undefined;
    }
    const outcome = this.outcomeOf(cells, key);
    if (outcome === false) return undefined;
    return {
      trajectory_id: id,
      task_id: task,
      harness: v(s.harness) ?? "unrecorded",
      model: v(s.model) ?? "unrecorded",
      condition: condition as Trajectory["condition"],
      trial: trial ?? 1,
      outcome,
    };
  }

  /** PASS/FAIL from --outcome (--pass VALUE or --threshold X); null when the cell is empty; false on a problem. */
  outcomeOf(cells: Cells, key: string): "PASS" | "FAIL" | null | false {
    const s = this.spec;
    if (!s.outcome) return null;
    const raw = text(this.value(cells, s.outcome, key));
    if (raw === undefined) return null;
    if (s.pass !== undefined) {
      this.outcomeValues.set(raw, (this.outcomeValues.get(raw) ?? 0) + 1);
      return raw === s.pass ? "PASS" : "FAIL";
    }
    const x = Number(raw);
    if (!Number.isFinite(x)) {
      this.problem(cells.at, s.outcome, `outcome ${JSON.stringify(raw)} is not a number (--threshold ${s.threshold})`);
      return false;
    }
    return x >= s.threshold! ? "PASS" : "FAIL";
  }

  judgment(cells: Cells, trajectory: string, item: string, column: string) {
    const s = this.spec;
    if (s.skipItems.includes(item)) return;
    const read = readGrade(cells.get(column), s);
    if (read === undefined) return;
    if ("problem" in read) return this.problem(cells.at, column, read.problem);
    const task = this.trajectories.get(trajectory)!.task_id;
    const judge = s.judgeColumn ? text(cells.get(s.judgeColumn)) : s.judge;
    if (s.judgeColumn && !judge) return this.problem(cells.at, s.judgeColumn, "the judge is empty");
    const key = JSON.stringify([trajectory, item, judge ?? null]);
    const first = this.judgmentKeys.get(key);
    if (first) {
      this.clash ??= { first: first.cells, second: cells };
      return this.problem(
        cells.at,
        column,
        `a second label for trajectory ${trajectory}, item ${item} (first at ${first.at})`,
      );
    }
    this.judgmentKeys.set(key, { at: where(cells.at), cells });
    const itemKey = `${task}\u0000${item}`;
    let row = this.items.get(itemKey);
    if (!row) {
      row = { task_id: task, item_id: item, text: item, route: "judge" };
      this.items.set(itemKey, row);
      this.itemContexts.set(row, new Map());
    }
    if (!this.itemColumns(cells, row)) return;
    if (this.contextColumns) {
      const values = this.contextColumns.map((c) => text(cells.get(c)));
      const tuple = JSON.stringify(values);
      const tuples = this.itemContexts.get(row)!;
      if (!tuples.has(tuple)) tuples.set(tuple, { values, at: where(cells.at) });
    }
    const evidence = s.evidence ? text(cells.get(s.evidence)) : undefined;
    this.judgments.push({
      trajectory_id: trajectory,
      item_id: item,
      ...(read.label ? { label: read.label } : {}),
      ...(read.grade !== undefined ? { grade: read.grade } : {}),
      raw: read.raw,
      ...(judge ? { judge } : {}),
      ...(evidence !== undefined ? { evidence } : {}),
    });
  }

  /**
   * A long table's --item-text and --prerequisites cells onto the item: the first row that gives one sets it, and
   * a later row of the same task and item that gives another is a problem naming both rows. False on a problem.
   */
  private itemColumns(cells: Cells, item: Item): boolean {
    const s = this.spec;
    const key = `${item.task_id}\u0000${item.item_id}`;
    for (const [column, field] of [
      [s.itemText, "text"],
      [s.prerequisites, "prerequisites"],
      [s.points, "points"],
    ] as const) {
      if (!column) continue;
      const cell = cells.get(column);
      const parsed =
        field === "text"
          ? text(cell)
          : field === "points"
            ? text(cell) === undefined
              ? undefined
              : parsePoints(cell)
            : parsePrerequisites(cell);
      if (parsed !== undefined && typeof parsed === "object" && "problem" in parsed) {
        this.problem(cells.at, column, parsed.problem);
        return false;
      }
      if (parsed === undefined || (Array.isArray(parsed) && parsed.length === 0)) continue;
      const atKey = `${key}\u0000${field}`;
      const first = this.itemAttributeAt.get(atKey);
      if (first === undefined) {
        this.itemAttributeAt.set(atKey, where(cells.at));
        Object.assign(item, { [field]: parsed });
      } else if (JSON.stringify(item[field]) !== JSON.stringify(parsed)) {
        this.problem(
          cells.at,
          column,
          `item ${JSON.stringify(item.item_id)} of task ${JSON.stringify(item.task_id)} has another ${field} at ` +
            `${first} (${JSON.stringify(item[field])} there, ${JSON.stringify(parsed)} here)`,
        );
        return false;
      }
    }
    return true;
  }
}

export const where = (at: Cells["at"]) => (at.line !== undefined ? `line ${at.line}` : `row ${at.row}`);

export function describe(a: Trajectory, b: Trajectory): string {
  const keys = Object.keys(b) as (keyof Trajectory)[];
  const k = keys.find((x) => JSON.stringify(a[x]) !== JSON.stringify(b[x]))!;
  return `${k}: ${JSON.stringify(a[k])} before, ${JSON.stringify(b[k])} here`;
}

export const cellsOf = (t: UserTable, r: UserTable["rows"][number]): Cells => ({
  get: (c) => r.values[c] ?? null,
  at: { file: t.file, line: r.line, row: r.row },
});

/**
 * Why two rows gave the same trajectory and item a label, in one line: the columns the spec does not read whose
 * values differ between them (usually the model or the attempt, left out of the trajectory's key).
 */
export function clashHint(t: UserTable, spec: TableSpec, clash: { first: Cells; second: Cells }): string {
  const read = new Set(
    [spec.task, spec.item, spec.label, spec.model, spec.harness, spec.condition, spec.trial, spec.trajectory]
      .concat(spec.items ?? [])
      .filter((c): c is string => typeof c === "string"),
  );
  const differ = t.columns.filter((c) => !read.has(c) && text(clash.first.get(c)) !== text(clash.second.get(c)));
  const rows = `${where(clash.first.at)} and ${where(clash.second.at)}`;
  if (differ.length === 0) return `two rows label the same trajectory and item (${rows}) and differ in no other column`;
  const flag = (c: string) =>
    /trial|attempt|epoch|run|seed/i.test(c) ? "--trial" : /harness|agent|scaffold/i.test(c) ? "--harness" : "--model";
  const options = differ.map((c) => `${flag(c)} ${c}`);
  return (
    `rows that label the same trajectory and item differ in column(s) ${differ.join(", ")} (${rows}): ` +
    `did you mean ${[...new Set(options)].join(" or ")}, or --trial COL for repeated attempts?`
  );
}

/**
 * A --pass VALUE that no row's outcome equals would make every run a FAIL: refused, listing the values seen
 * (the most frequent first) and, when one differs only in case, that one.
 */
export function checkPassValue(run: TableImport, spec: TableSpec, file: string): void {
  if (spec.pass === undefined || run.outcomeValues.has(spec.pass)) return;
  const seen = [...run.outcomeValues].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]));
  const listed = seen.slice(0, 10).map(([v, n]) => `${JSON.stringify(v)} (${n} row${n === 1 ? "" : "s"})`);
  const other = seen.length > 10 ? `, and ${seen.length - 10} more` : "";
  const sameLetters = seen.find(([v]) => v.toLowerCase() === spec.pass!.toLowerCase());
  const hint = sameLetters
    ? `; did you mean --pass ${sameLetters[0]}? (values are compared exactly, case included)`
    : "";
  throw new InputError(
    `${file}: --pass ${JSON.stringify(spec.pass)} matches no value of the outcome column "${spec.outcome}", so every ` +
      `run would be a FAIL; its values: ${listed.join(", ") || "none (every cell is empty)"}${other}${hint}`,
  );
}
