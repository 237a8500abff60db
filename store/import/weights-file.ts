import { readFileSync } from "node:fs";
import { csvParse } from "d3";
import { StoreValidationError, type Problem } from "../problems.js";

/** One row of an item-weights file: the item and its weight, with the file line it came from. */
export interface WeightRow {
  task_id: string;
  item_id: string;
  weight: number;
  file: string;
  line: number;
}

/**
 * An item-weights CSV (`task_id,item_id,weight`, one row per item; schema_version 2 weights: > 0 and finite).
 * Every problem names the file, line and field; none is skipped.
 */
export function readWeights(file: string): WeightRow[] {
  const rows = csvParse(readFileSync(file, "utf8"));
  const problems: Problem[] = [];
  for (const c of ["task_id", "item_id", "weight"])
    if (!rows.columns.includes(c))
      problems.push({ file, line: 1, field: c, message: `required column "${c}" is missing` });
  if (problems.length) throw new StoreValidationError(file, problems, 0);
  const out: WeightRow[] = [];
  for (const [i, r] of rows.entries()) {
    const line = i + 2;
    const weight = Number(r.weight);
    if (!r.task_id || !r.item_id)
      problems.push({ file, line, field: r.task_id ? "item_id" : "task_id", message: "must be a non-empty string" });
    else if (!(r.weight && Number.isFinite(weight) && weight > 0))
      problems.push({ file, line, field: "weight", message: `must be a number > 0 (got ${JSON.stringify(r.weight)})` });
    else out.push({ task_id: r.task_id, item_id: r.item_id, weight, file, line });
  }
  if (problems.length) throw new StoreValidationError(file, problems.slice(0, 50), Math.max(0, problems.length - 50));
  return out;
}
