import type { Item } from "../../analysis/schema/tables.js";
import { StoreValidationError, type Problem } from "../problems.js";
import { cellText as text, type UserTable } from "./table-file.js";

/**
 * Item weights (schema_version 2) from a table with a `weight` column, joined on the columns it shares with the
 * import: the item column, and the task column when the table has it (`requireTask`: it must). Every problem names
 * the file, row (JSONL: line) and column; none is skipped, and the items are left as they were when there is one.
 * Used by `gcpc import table --weights` and `gcpc import devai --weights`. Returns the summary line.
 */
export function applyItemWeights(
  items: Item[],
  w: UserTable,
  columns: { task: string; item: string; requireTask?: boolean },
): string {
  const required = ["weight", columns.item, ...(columns.requireTask ? [columns.task] : [])];
  const problems: Problem[] = required
    .filter((c) => !w.columns.includes(c))
    .map((c) => ({ file: w.file, field: c, message: `column "${c}" is missing` }));
  if (problems.length) throw new StoreValidationError(w.file, problems, 0);
  const byTask = w.columns.includes(columns.task);
  // Items by id, once (a real table can hold thousands of rows: no scan of every item per row).
  const byId = new Map<string, Item[]>();
  for (const it of items) {
    const list = byId.get(it.item_id);
    if (list) list.push(it);
    else byId.set(it.item_id, [it]);
  }
  const assigned: [Item, number][] = [];
  for (const r of w.rows) {
    const at = { file: w.file, line: r.line, row: r.line === undefined ? r.row : undefined };
    const item = text(r.values[columns.item]);
    const weight = Number(r.values.weight);
    if (!(r.values.weight !== null && r.values.weight !== undefined && Number.isFinite(weight) && weight > 0)) {
      const got = JSON.stringify(r.values.weight ?? null);
      problems.push({ ...at, field: "weight", message: `must be a number > 0 (got ${got})` });
      continue;
    }
    const task = byTask ? text(r.values[columns.task]) : undefined;
    const matched = (item === undefined ? [] : (byId.get(item) ?? [])).filter((it) => !byTask || it.task_id === task);
    if (matched.length === 0)
      problems.push({
        ...at,
        field: columns.item,
        message: `no item ${JSON.stringify(item ?? "")}${byTask ? ` of task ${JSON.stringify(task ?? "")}` : ""}`,
      });
    for (const it of matched) assigned.push([it, weight]);
  }
  if (problems.length) throw new StoreValidationError(w.file, problems.slice(0, 50), Math.max(0, problems.length - 50));
  for (const [it, weight] of assigned) it.weight = weight;
  return `weights: ${assigned.length} of ${items.length} items weighted from ${w.file} (the others weigh 1)`;
}
