import type { Judgment, Task } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import { textOption, type Importer } from "./importer.js";
import { readUserTable, type UserTable } from "./table-file.js";
import { applyItemTable, joinColumnsOf } from "./item-weights.js";
import { tableSpec, option, switchOption, outcomeRule, type TableSpec } from "./table-spec.js";
import { text, TableImport, cellsOf, clashHint, checkPassValue, where, type Cells } from "./table-rows.js";

export { tableSpec } from "./table-spec.js";
export type { TableSpec } from "./table-spec.js";
export { readGrade } from "./table-rows.js";

/**
 * `gcpc import table`: per-item grades from any pipeline (what users hold in pandas or a warehouse) → a
 * schema_version 2 store. A long table has one row per (trajectory, item) (--item, --label); a wide one a row
 * per trajectory and a column per item (--items). Every problem names the file, its row (or line) and column;
 * nothing is written when there is one.
 */

/**
 * The --outcomes table by (task, trajectory) key, on the columns it shares with the spec's. Two rows of one key
 * that differ are a problem naming both (the later one silently won before).
 */
function attributeRows(t: UserTable, spec: TableSpec, problems: Problem[]): Map<string, Cells> {
  const out = new Map<string, Cells>();
  const texts = new Map<string, string>();
  if (!t.columns.includes(spec.task))
    problems.push({ file: t.file, field: spec.task, message: `the --task column "${spec.task}" is missing` });
  for (const r of t.rows) {
    const cells = cellsOf(t, r);
    const task = text(cells.get(spec.task));
    const id = spec.trajectory ? text(cells.get(spec.trajectory)) : task;
    if (!(task && id)) continue;
    const key = `${task}\u0000${id}`;
    const rowText = JSON.stringify(t.columns.map((c) => text(cells.get(c)) ?? null));
    const before = out.get(key);
    if (before && texts.get(key) !== rowText)
      problems.push({
        file: t.file,
        line: r.line,
        row: r.line === undefined ? r.row : undefined,
        field: spec.trajectory ?? spec.task,
        message:
          `a second row for ${spec.trajectory ? `trajectory ${JSON.stringify(id)}` : `task ${JSON.stringify(task)}`} ` +
          `with other values (first at ${where(before.at)})`,
      });
    else if (!before) {
      out.set(key, cells);
      texts.set(key, rowText);
    }
  }
  return out;
}

/**
 * The --outcomes rows that no trajectory read: listed in the summary (a prompt with ratings and no questions, as
 * in TIFA160, vanished without a word: issue 55.2); with --strict, refused naming their rows.
 */
function unmatchedAttributes(run: TableImport, spec: TableSpec, file: string): string | undefined {
  const unmatched = [...(run.attributes ?? [])].filter(([key]) => !run.usedAttributes.has(key));
  if (unmatched.length === 0) return undefined;
  const name = (key: string) => {
    const [task, id] = key.split("\u0000");
    return spec.trajectory ? `${task}/${id}` : task;
  };
  if (spec.strict)
    throw new StoreValidationError(
      file,
      unmatched.slice(0, 50).map(([key, cells]) => ({
        file,
        line: cells.at.line,
        row: cells.at.line === undefined ? cells.at.row : undefined,
        field: spec.trajectory ?? spec.task,
        message: `${JSON.stringify(name(key))} matches no trajectory of the table (--strict)`,
      })),
      Math.max(0, unmatched.length - 50),
      { what: "--outcomes table" },
    );
  const listed = unmatched.slice(0, 10).map(([key, cells]) => `${name(key)} (${where(cells.at)})`);
  return (
    `--outcomes: ${unmatched.length} row(s) of ${file} match no trajectory and were not imported: ` +
    `${listed.join(", ")}${unmatched.length > 10 ? `, and ${unmatched.length - 10} more` : ""} (--strict refuses them)`
  );
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
export function importTable(
  t: UserTable,
  spec: TableSpec,
  outcomes?: UserTable,
  itemTables: { weights?: UserTable; points?: UserTable; checklist?: UserTable } = {},
): { store: Store; notes: string[] } {
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
  // The item tables join on every column they share with this table (item-weights.ts): each item keeps the
  // values of those columns in the rows that labelled it.
  const itemColumn = spec.item ?? "item";
  const joins = Object.values(itemTables).flatMap((w) =>
    w ? joinColumnsOf(w, { item: itemColumn, importColumns: t.columns }) : [],
  );
  const contextColumns = t.columns.filter((c) => joins.includes(c));
  const run = new TableImport(
    spec,
    attributes,
    itemTables.weights || itemTables.points || itemTables.checklist ? contextColumns : undefined,
  );
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
  const unmatched = outcomes ? unmatchedAttributes(run, spec, outcomes.file) : undefined;
  const result = assemble(run, spec, t);
  for (const [kind, w] of Object.entries(itemTables) as ["weights" | "points" | "checklist", UserTable | undefined][])
    if (w)
      result.notes.push(
        applyItemTable(run.itemContexts, w, {
          item: itemColumn,
          importColumns: contextColumns,
          task: spec.task,
          required: kind === "weights" ? ["weight"] : kind === "points" ? ["points"] : [],
          kind,
        }),
      );
  checkPrerequisites(result.store, t.file);
  if (unmatched) result.notes.push(unmatched);
  return result;
}

/** Every prerequisite names an item of its own task (contract rule 18), refused here naming the item. */
function checkPrerequisites(store: Store, file: string): void {
  const ids = new Set(store.items.map((it) => `${it.task_id}\u0000${it.item_id}`));
  const problems: Problem[] = [];
  for (const it of store.items)
    for (const p of it.prerequisites ?? [])
      if (p === it.item_id || !ids.has(`${it.task_id}\u0000${p}`))
        problems.push({
          file,
          field: "prerequisites",
          message:
            `item ${JSON.stringify(it.item_id)} of task ${JSON.stringify(it.task_id)}: ` +
            `prerequisite ${JSON.stringify(p)} ` +
            (p === it.item_id ? "is the item itself" : "is not an item of the same task"),
        });
  if (problems.length)
    throw new StoreValidationError(file, problems.slice(0, 50), Math.max(0, problems.length - 50), {
      what: "input table",
    });
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
  const { primary, note: judgeNote } = primaryJudge(judges, spec);
  const store: Store = {
    manifest: {
      name: spec.name ?? `imported from ${t.file}`,
      primary_judge: primary,
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
    `${judgeNote}; outcome: ${outcomeRule(spec)}`,
  ];
  return { store, notes };
}

/**
 * The store's primary (scoring) judge and the summary's line about it. The reference judge is never the scoring
 * judge (with --reference-judge loose among IFEval's strict and loose checkers, the first by name was loose, so
 * every GCPC was the reference's and "judge against reference" compared loose with itself: issue 55.2). Of the
 * other judges, --primary-judge NAME, else the one there is, else the first by name, said so with how to choose.
 * A table whose only judge is the reference keeps it as the manifest's primary_judge: such an import is only
 * accepted --into a store that has another judge (cli/commands.ts, store/import/merge-store.ts mergeManifests).
 */
export function primaryJudge(judges: string[], spec: TableSpec): { primary: string; note: string } {
  const reference = spec.referenceJudge;
  const scoring = judges.filter((j) => j !== reference);
  const refText = reference
    ? `; reference judge ${reference}${judges.includes(reference) ? "" : " (no label here)"}`
    : "";
  if (spec.primaryJudge !== undefined) {
    if (spec.primaryJudge === reference)
      throw new InputError(
        `--primary-judge ${spec.primaryJudge} is also --reference-judge: the reference is what the scoring judge ` +
          "is checked against, never the scoring judge; nothing was written",
      );
    if (!judges.includes(spec.primaryJudge))
      throw new InputError(
        `--primary-judge ${JSON.stringify(spec.primaryJudge)} labels no row; the table's judges: ${judges.join(", ")}`,
      );
    return { primary: spec.primaryJudge, note: `judges: ${judges.join(", ")}; ${spec.primaryJudge} scores${refText}` };
  }
  if (scoring.length === 0) return { primary: judges[0], note: `judges: ${judges.join(", ")}${refText}` };
  if (scoring.length === 1)
    return { primary: scoring[0], note: `judges: ${judges.join(", ")}; ${scoring[0]} scores${refText}` };
  return {
    primary: scoring[0],
    note:
      `judges: ${judges.join(", ")}; ${scoring[0]} scores (the first by name of ${scoring.length} non-reference ` +
      `judges; choose another with --primary-judge NAME here, or --judge NAME on compare and leaderboard)${refText}`,
  };
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
    "primary-judge": option("with --judge-column: the judge that scores (never the reference; default the first)"),
    scale: option("MIN:MAX: grades map linearly to [0, 1]"),
    "not-applicable": option("values meaning the item does not apply (removed from that trajectory's checklist)"),
    abstain: option("values meaning the judge could not decide"),
    "skip-items": option("items not to import (e.g. an overall rating that is the outcome)"),
    "determines-outcome": option("ITEM,…|all: items the official outcome is computed from (not outcome-free)"),
    weights: option(
      "a table with a weight column, joined on the item column and every column it shares with FILE",
      true,
    ),
    checklist: option(
      "a table of item attributes (text, prerequisites, group, weight, points), joined like --weights",
      true,
    ),
    points: option(
      "COL|FILE: each item's signed points (a points rubric, contract rule 20): a column of a long table, or a " +
        "table with a points column joined like --weights",
    ),
    evidence: option("long table: column of the judge's rationale (shown, escaped, in the drill-down)"),
    "item-text": option("long table: column of the item's text (default the item id)"),
    prerequisites: option("long table: column of the item's prerequisites (ids, comma-separated or a JSON list)"),
    strict: switchOption("refuse --outcomes rows that match no trajectory (default: listed in the summary)"),
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
    const weightsFile = textOption(values, "weights");
    const checklistFile = textOption(values, "checklist");
    // --points COL names a column of this table (a long table's, as --item-text); anything else is a file of points.
    const pointsValue = textOption(values, "points");
    if (pointsValue !== undefined && table.columns.includes(pointsValue)) {
      if (!spec.item)
        throw new InputError(
          `--points ${pointsValue}: a column gives one item's points per row, so it applies to a long table (--item, ` +
            "--label); a wide table's points come from --points FILE (columns item, points)",
        );
      spec.points = pointsValue;
    }
    const pointsFile = spec.points === undefined ? pointsValue : undefined;
    const { store, notes } = importTable(table, spec, outcomes, {
      weights: weightsFile ? await readUserTable(weightsFile) : undefined,
      points: pointsFile ? await readUserTable(pointsFile) : undefined,
      checklist: checklistFile ? await readUserTable(checklistFile) : undefined,
    });
    return { store, skipped: [], notes };
  },
};
