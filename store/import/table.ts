import type { Item, Judgment, JudgedLabel, Task, Trajectory } from "../../analysis/schema/tables.js";
import { Condition } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import { listOption, textOption, type Importer, type ImporterValues } from "./importer.js";
import { cellText, readUserTable, type Cell, type UserTable } from "./table-file.js";
import { applyItemWeights } from "./item-weights.js";

/**
 * `gcpc import table`: per-item grades from any pipeline (what users hold in pandas or a warehouse) → a
 * schema_version 2 store. A long table has one row per (trajectory, item) (--item, --label); a wide one a row
 * per trajectory and a column per item (--items). Every problem names the file, its row (or line) and column;
 * nothing is written when there is one.
 */

/** The options, parsed. */
export interface TableSpec {
  task: string;
  item?: string;
  label?: string;
  items?: string[];
  model?: string;
  harness?: string;
  condition?: string;
  trial?: string;
  trajectory?: string;
  judge?: string;
  judgeColumn?: string;
  scale?: [number, number];
  notApplicable: string[];
  abstain: string[];
  skipItems: string[];
  /** --determines-outcome: the items the official outcome is computed from ("all", or item ids). */
  determines?: string[] | "all";
  outcome?: string;
  pass?: string;
  threshold?: number;
  benchmark: string;
  name?: string;
  referenceJudge?: string;
}

/** One grade cell read: a label or a grade, and the original answer. */
type Read = { label?: JudgedLabel; grade?: number; raw: string } | { problem: string } | undefined;

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

interface Cells {
  get(column: string): Cell;
  at: { file: string; line?: number; row?: number };
}

const text = cellText;

class TableImport {
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

  constructor(
    readonly spec: TableSpec,
    readonly attributes?: Map<string, Cells>,
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
    return this.attributes?.get(key)?.get(column) ?? null;
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
    if (!this.items.has(`${task}\u0000${item}`))
      this.items.set(`${task}\u0000${item}`, { task_id: task, item_id: item, text: item, route: "judge" });
    this.judgments.push({
      trajectory_id: trajectory,
      item_id: item,
      ...(read.label ? { label: read.label } : {}),
      ...(read.grade !== undefined ? { grade: read.grade } : {}),
      raw: read.raw,
      ...(judge ? { judge } : {}),
    });
  }
}

const where = (at: Cells["at"]) => (at.line !== undefined ? `line ${at.line}` : `row ${at.row}`);

function describe(a: Trajectory, b: Trajectory): string {
  const keys = Object.keys(b) as (keyof Trajectory)[];
  const k = keys.find((x) => JSON.stringify(a[x]) !== JSON.stringify(b[x]))!;
  return `${k}: ${JSON.stringify(a[k])} before, ${JSON.stringify(b[k])} here`;
}

const cellsOf = (t: UserTable, r: UserTable["rows"][number]): Cells => ({
  get: (c) => r.values[c] ?? null,
  at: { file: t.file, line: r.line, row: r.row },
});

/** The --outcomes table by (task, trajectory) key, on the columns it shares with the spec's. */
function attributeRows(t: UserTable, spec: TableSpec, problems: Problem[]): Map<string, Cells> {
  const out = new Map<string, Cells>();
  if (!t.columns.includes(spec.task))
    problems.push({ file: t.file, field: spec.task, message: `the --task column "${spec.task}" is missing` });
  for (const r of t.rows) {
    const cells = cellsOf(t, r);
    const task = text(cells.get(spec.task));
    const id = spec.trajectory ? text(cells.get(spec.trajectory)) : task;
    if (task && id) out.set(`${task}\u0000${id}`, cells);
  }
  return out;
}

function checkColumns(t: UserTable, spec: TableSpec, attributes?: UserTable): Problem[] {
  const problems: Problem[] = [];
  const inFile = [spec.task, spec.item, spec.label, spec.judgeColumn, ...(spec.items ?? [])];
  const either = [spec.model, spec.harness, spec.condition, spec.trial, spec.outcome];
  for (const c of inFile)
    if (c && !t.columns.includes(c)) problems.push({ file: t.file, field: c, message: `column "${c}" is missing` });
  for (const c of either)
    if (c && !t.columns.includes(c) && !attributes?.columns.includes(c))
      problems.push({ file: t.file, field: c, message: `column "${c}" is in neither this file nor --outcomes` });
  if (spec.trajectory && !t.columns.includes(spec.trajectory))
    problems.push({ file: t.file, field: spec.trajectory, message: `column "${spec.trajectory}" is missing` });
  return problems;
}

/** The store of a table under a spec (and its --outcomes table); throws naming every problem. */
export function importTable(t: UserTable, spec: TableSpec, outcomes?: UserTable): { store: Store; notes: string[] } {
  const fail = (problems: Problem[], hint?: string) => {
    throw new StoreValidationError(t.file, problems.slice(0, 50), Math.max(0, problems.length - 50), {
      what: "input table",
      hint,
    });
  };
  if (t.rows.length === 0) fail([{ file: t.file, message: "the table has a header but no data rows" }]);
  const columnProblems = checkColumns(t, spec, outcomes);
  const attributeProblems: Problem[] = [];
  const attributes = outcomes ? attributeRows(outcomes, spec, attributeProblems) : undefined;
  if (columnProblems.length || attributeProblems.length) fail([...columnProblems, ...attributeProblems]);
  const run = new TableImport(spec, attributes);
  for (const r of t.rows) {
    const cells = cellsOf(t, r);
    const trajectory = run.trajectoryOf(cells);
    if (!trajectory) continue;
    if (spec.items) for (const c of spec.items) run.judgment(cells, trajectory, c, c);
    else {
      const item = text(cells.get(spec.item!));
      if (!item) run.problem(cells.at, spec.item!, "the item is empty");
      else run.judgment(cells, trajectory, item, spec.label!);
    }
  }
  if (run.problems.length) fail(run.problems, run.clash && clashHint(t, spec, run.clash));
  checkPassValue(run, spec, t.file);
  return assemble(run, spec, t);
}

/**
 * Why two rows gave the same trajectory and item a label, in one line: the columns the spec does not read whose
 * values differ between them (usually the model or the attempt, left out of the trajectory's key).
 */
function clashHint(t: UserTable, spec: TableSpec, clash: { first: Cells; second: Cells }): string {
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
function checkPassValue(run: TableImport, spec: TableSpec, file: string): void {
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

function assemble(run: TableImport, spec: TableSpec, t: UserTable): { store: Store; notes: string[] } {
  const judges = [...new Set(run.judgments.map((j) => j.judge ?? "primary"))].sort(compareCodePoints);
  const tasks: Task[] = [...run.tasks]
    .sort(compareCodePoints)
    .map((task_id) => ({ task_id, benchmark: spec.benchmark }));
  const determines = spec.determines;
  const itemIds = new Set([...run.items.values()].map((it) => it.item_id));
  const unknown = Array.isArray(determines) ? determines.filter((id) => !itemIds.has(id)) : [];
  if (unknown.length)
    throw new InputError(`--determines-outcome names item(s) no row has: ${unknown.join(", ")}; nothing was written`);
  const items = [...run.items.values()]
    .map((it) => (determines === "all" || determines?.includes(it.item_id) ? { ...it, determines_outcome: true } : it))
    .sort((a, b) => compareCodePoints(a.task_id, b.task_id) || compareCodePoints(a.item_id, b.item_id));
  const trajectories = [...run.trajectories.values()].sort((a, b) =>
    compareCodePoints(a.trajectory_id, b.trajectory_id),
  );
  const scale = spec.scale
    ? `${spec.scale[0]}–${spec.scale[1]}, grade = (x − ${spec.scale[0]}) / ${spec.scale[1] - spec.scale[0]}`
    : "[0, 1]";
  const store: Store = {
    manifest: {
      name: spec.name ?? `imported from ${t.file}`,
      primary_judge: judges.length === 1 ? judges[0] : (spec.judge ?? judges[0]),
      ...(spec.referenceJudge ? { reference_judge: spec.referenceJudge } : {}),
      grade_scale: scale,
      synthetic: false,
      schema_version: 2,
    },
    tasks,
    items,
    trajectories,
    judgments: run.judgments,
  };
  const count = (f: (j: Judgment) => boolean) => run.judgments.filter(f).length;
  const notes = [
    `${t.rows.length} rows of ${t.file}: ${run.judgments.length} labels ` +
      `(${count((j) => j.grade !== undefined)} with a grade, ` +
      `${count((j) => j.label === "NotApplicable")} not applicable, ` +
      `${count((j) => j.label === "Abstain")} abstain); grades on ${scale}`,
    `judges: ${judges.join(", ")}; outcome: ${outcomeRule(spec)}`,
  ];
  return { store, notes };
}

const outcomeRule = (spec: TableSpec) =>
  !spec.outcome ? "none" : `${spec.outcome} ${spec.pass !== undefined ? `= ${spec.pass}` : `≥ ${spec.threshold}`}`;

/** The options of `gcpc import table`, checked; usage problems are InputErrors. */
export function tableSpec(values: ImporterValues): TableSpec {
  const need = (name: string) => {
    const v = textOption(values, name);
    if (!v) throw new InputError(`import table needs --${name}`);
    return v;
  };
  const list = (name: string) =>
    listOption(values, name)
      .flatMap((v) => v.split(","))
      .map((x) => x.trim())
      .filter(Boolean);
  const determines = list("determines-outcome");
  const long = textOption(values, "item") !== undefined || textOption(values, "label") !== undefined;
  const wide = list("items");
  if (long === wide.length > 0)
    throw new InputError("import table needs --item COL --label COL (long) or --items COL,COL,... (wide)");
  if (textOption(values, "judge") && textOption(values, "judge-column"))
    throw new InputError("give --judge NAME or --judge-column COL, not both");
  const spec: TableSpec = {
    task: need("task"),
    ...(long ? { item: need("item"), label: need("label") } : { items: wide }),
    model: textOption(values, "model"),
    harness: textOption(values, "harness"),
    condition: textOption(values, "condition"),
    trial: textOption(values, "trial"),
    trajectory: textOption(values, "trajectory"),
    judge: textOption(values, "judge"),
    judgeColumn: textOption(values, "judge-column"),
    notApplicable: list("not-applicable"),
    abstain: list("abstain"),
    skipItems: list("skip-items"),
    determines: determines.length === 0 ? undefined : determines.join(",") === "all" ? "all" : determines,
    benchmark: textOption(values, "benchmark") ?? "imported-table",
    name: textOption(values, "name"),
    referenceJudge: textOption(values, "reference-judge"),
  };
  return withOutcomeAndScale(spec, values);
}

function withOutcomeAndScale(spec: TableSpec, values: ImporterValues): TableSpec {
  const scale = textOption(values, "scale");
  if (scale !== undefined) {
    const m = /^\s*(-?[\d.]+)\s*:\s*(-?[\d.]+)\s*$/.exec(scale);
    const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo))
      throw new InputError(`--scale must be MIN:MAX with MIN < MAX, got "${scale}"`);
    spec.scale = [lo, hi];
  }
  spec.outcome = textOption(values, "outcome");
  spec.pass = textOption(values, "pass");
  const threshold = textOption(values, "threshold");
  if (spec.outcome && (spec.pass === undefined) === (threshold === undefined))
    throw new InputError("--outcome needs --pass VALUE or --threshold X (one of them)");
  if (!spec.outcome && (spec.pass !== undefined || threshold !== undefined))
    throw new InputError("--pass and --threshold apply to --outcome COL");
  if (threshold !== undefined) {
    spec.threshold = Number(threshold);
    if (!Number.isFinite(spec.threshold)) throw new InputError(`--threshold must be a number, got "${threshold}"`);
  }
  return spec;
}

const option = (help: string, file?: true) => ({ help, ...(file ? { file } : {}) });

export const importer: Importer = {
  kind: "table",
  inputs: "one file",
  options: {
    task: option("column of the task id (required)"),
    item: option("long table: column of the item id"),
    label: option("long table: column of the label or grade"),
    items: option("wide table: the item columns, COL,COL,..."),
    model: option("column of the model (this file or --outcomes)"),
    harness: option("column of the harness (this file or --outcomes)"),
    condition: option("column of the skill condition: none, curated or self_generated"),
    trial: option("column of the trial index"),
    trajectory: option("column of the trajectory id (default: task/harness/model/condition/trial)"),
    judge: option("the judge of every label"),
    "judge-column": option("column of the judge"),
    "reference-judge": option("the judge the others are compared against (store.json reference_judge)"),
    scale: option("MIN:MAX: grades map linearly to [0, 1]"),
    "not-applicable": option("values meaning the item does not apply (removed from that trajectory's checklist)"),
    abstain: option("values meaning the judge could not decide"),
    "skip-items": option("items not to import (e.g. an overall rating that is the outcome)"),
    "determines-outcome": option("ITEM,…|all: items the official outcome is computed from (not outcome-free)"),
    weights: option("CSV joined on the columns it shares with FILE, with a weight column", true),
    outcome: option("column of the outcome (this file or --outcomes)"),
    pass: option("--outcome VALUE that is PASS (every other value is FAIL)"),
    threshold: option("--outcome values ≥ X are PASS"),
    outcomes: option("a table of trajectory attributes (outcome, model, …) joined on --task (and --trajectory)", true),
    benchmark: option("the benchmark of every task (default imported-table)"),
    name: option("the store's name"),
  },
  async read(inputs, values) {
    if (inputs.length !== 1) throw new InputError("import table takes one file");
    const spec = tableSpec(values);
    const table = await readUserTable(inputs[0]);
    const outcomesFile = textOption(values, "outcomes");
    const outcomes = outcomesFile ? await readUserTable(outcomesFile) : undefined;
    const { store, notes } = importTable(table, spec, outcomes);
    const weightsFile = textOption(values, "weights");
    if (weightsFile)
      notes.push(
        applyItemWeights(store.items, await readUserTable(weightsFile), { task: spec.task, item: spec.item ?? "item" }),
      );
    return { store, skipped: [], notes };
  },
};
