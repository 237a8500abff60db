import type { Judgment, Task } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import { textOption, type Importer } from "./importer.js";
import { readUserTable, type UserTable } from "./table-file.js";
import { applyItemWeights } from "./item-weights.js";
import { tableSpec, option, outcomeRule, type TableSpec } from "./table-spec.js";
import { text, TableImport, cellsOf, clashHint, checkPassValue, type Cells } from "./table-rows.js";

export { tableSpec } from "./table-spec.js";
export type { TableSpec } from "./table-spec.js";
export { readGrade } from "./table-rows.js";

/**
 * `gcpc import table`: per-item grades from any pipeline (what users hold in pandas or a warehouse) → a
 * schema_version 2 store. A long table has one row per (trajectory, item) (--item, --label); a wide one a row
 * per trajectory and a column per item (--items). Every problem names the file, its row (or line) and column;
 * nothing is written when there is one.
 */

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
