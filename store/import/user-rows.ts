import { readFileSync } from "node:fs";
import { TABLE_SCHEMAS } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { decodeUtf8, parseJsonl } from "../parse-text.js";
import { StoreValidationError, type Problem } from "../problems.js";
import { issueField, issueMessage } from "../read-store.js";

/** User checklists / verdicts for an import: JSONL rows of the contract, problems naming the user's file and line. */
export function userRows(file: string, table: "items" | "judgments", store: Store): unknown[] {
  const problems: Problem[] = [];
  const text = decodeUtf8(readFileSync(file), file);
  if (typeof text !== "string") throw new StoreValidationError(file, [text]);
  const known = new Set(store.trajectories.map((t) => t.trajectory_id));
  const rows: unknown[] = [];
  for (const rec of parseJsonl(text, file, (p) => problems.push(p))) {
    const parsed = TABLE_SCHEMAS[table].safeParse(rec.values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ file, line: rec.line, field: issueField(issue), message: issueMessage(issue, rec.values) });
      continue;
    }
    const id = (parsed.data as { trajectory_id?: string }).trajectory_id;
    if (table === "judgments" && !known.has(id!))
      problems.push({
        file,
        line: rec.line,
        field: "trajectory_id",
        message: `unknown trajectory ${JSON.stringify(id)} (not among the imported trials)`,
      });
    else rows.push(parsed.data);
  }
  if (problems.length) throw new StoreValidationError(file, problems.slice(0, 50), Math.max(0, problems.length - 50));
  return rows;
}
