import type { Item } from "../../analysis/schema/tables.js";
import { StoreValidationError, type Problem } from "../problems.js";
import { cellText as text, type Cell, type UserTable } from "./table-file.js";

/**
 * A table of item attributes (`--weights`: a `weight` column; `--checklist`: `text`, `prerequisites`, `group`
 * and/or `weight`) joined onto a store's items on the item column and **every other column it shares with the
 * import**. HelloBench publishes weights keyed by (category, checklist_id): joined on the item column alone,
 * every item got whichever category's weight came last, and the summary counted rows, not items (issue 55.2).
 *
 * An item's join values are read from the import's rows that labelled it (`ItemContexts`): an item labelled in
 * rows of two categories that the table gives two different weights is refused, naming both attribute rows and
 * both import rows. Every problem names the file, row (JSONL: line) and column; none is skipped, and the items
 * are left as they were when there is one. Used by `gcpc import table --weights/--checklist` and
 * `gcpc import devai --weights`. Returns the summary line.
 */

/**
 * Per item, each distinct tuple of the values of `importColumns` (in that order) among the rows that labelled it,
 * and where one of them is.
 */
export type ItemContexts = Map<Item, Map<string, { values: (string | undefined)[]; at: string }>>;

/** The attribute columns an item table may carry, and what each becomes on the item. */
const ATTRIBUTES = ["weight", "points", "text", "prerequisites", "group"] as const;
type Attribute = (typeof ATTRIBUTES)[number];

export interface ItemTableJoin {
  /** The attribute table's column of the item id. */
  item: string;
  /** Columns of the import that the attribute table may share (every one it has is joined on). */
  importColumns: string[];
  /** Columns the attribute table must have (beside the item column). */
  required: Attribute[];
  /** The import's task column, named as such in messages. */
  task?: string;
  /** What the table is, in the summary: "weights", "points" or "checklist". */
  kind: "weights" | "points" | "checklist";
}

/** Which columns of `w` the join uses, in `importColumns`' order. */
export const joinColumnsOf = (w: UserTable, o: Pick<ItemTableJoin, "item" | "importColumns">) =>
  o.importColumns.filter(
    (c) => c !== o.item && !(ATTRIBUTES as readonly string[]).includes(c) && w.columns.includes(c),
  );

type Parsed = { weight?: number; points?: number; text?: string; prerequisites?: string[]; group?: string };

/** A points cell: a finite number other than 0 (contract rule 20), or the problem. */
export function parsePoints(cell: Cell): number | { problem: string } {
  const points = Number(cell);
  if (cell !== null && text(cell) !== undefined && Number.isFinite(points) && points !== 0) return points;
  return { problem: `must be a number other than 0 (got ${JSON.stringify(cell)})` };
}

/** A prerequisites cell: a JSON array of ids, or ids separated by commas, semicolons or bars. */
export function parsePrerequisites(cell: Cell): string[] | { problem: string } {
  const raw = text(cell);
  if (raw === undefined) return [];
  if (raw.startsWith("[")) {
    try {
      const list = JSON.parse(raw);
      if (Array.isArray(list) && list.every((x) => typeof x === "string" || typeof x === "number"))
        return list.map((x) => String(x).trim()).filter(Boolean);
    } catch {}
    return { problem: `${JSON.stringify(raw)} is not a JSON array of item ids` };
  }
  return raw
    .split(/[,;|]/)
    .map((x) => x.trim())
    .filter(Boolean);
}

export function applyItemTable(contexts: ItemContexts, w: UserTable, o: ItemTableJoin): string {
  const problems: Problem[] = [o.item, ...o.required]
    .filter((c) => !w.columns.includes(c))
    .map((c) => ({ file: w.file, field: c, message: `column "${c}" is missing` }));
  const present = ATTRIBUTES.filter((a) => w.columns.includes(a) && a !== o.item);
  if (o.kind === "checklist" && present.length === 0)
    problems.push({ file: w.file, message: `a checklist needs one of the columns ${ATTRIBUTES.join(", ")}` });
  if (problems.length) throw new StoreValidationError(w.file, problems, 0);
  const join = joinColumnsOf(w, o);
  const positions = join.map((c) => o.importColumns.indexOf(c));
  const rows = attributeRows(w, o, join, present, problems);
  const assigned = new Map<Item, { parsed: Parsed; canonical: string; at: string; from: string }>();
  for (const [item, tuples] of contexts)
    for (const { values, at } of tuples.values()) {
      const key = JSON.stringify([item.item_id, ...positions.map((i) => values[i] ?? null)]);
      const row = rows.get(key);
      if (!row) continue;
      row.used = true;
      const before = assigned.get(item);
      if (!before) assigned.set(item, { ...row, from: at });
      else if (before.canonical !== row.canonical)
        problems.push({
          file: w.file,
          field: present.join(", "),
          message:
            `item ${JSON.stringify(item.item_id)} of task ${JSON.stringify(item.task_id)} would get two values: ` +
            `${before.canonical} (${w.file} ${before.at}, joined on the import's ${before.from}) and ` +
            `${row.canonical} (${row.at}, joined on the import's ${at}); give the item one id per ` +
            `${join.join(", ") || "task"}, or one value`,
        });
    }
  for (const [key, row] of rows)
    if (!row.used)
      problems.push({ file: w.file, ...row.loc, field: o.item, message: `no item ${describeKey(o, join, key)}` });
  if (problems.length) throw new StoreValidationError(w.file, problems.slice(0, 50), Math.max(0, problems.length - 50));
  for (const [item, { parsed }] of assigned) Object.assign(item, parsed);
  const on = [o.item, ...join].join(", ");
  const what = o.kind === "weights" ? "weighted" : o.kind === "points" ? "given points" : `given ${present.join(", ")}`;
  const rest = o.kind === "weights" ? " (the others weigh 1)" : "";
  return `${o.kind}: ${assigned.size} of ${contexts.size} items ${what} from ${w.file}, joined on ${on}${rest}`;
}

type AttributeRow = {
  parsed: Parsed;
  canonical: string;
  at: string;
  loc: { line?: number; row?: number };
  used: boolean;
};

/** The attribute table's rows by key (the item and the join columns' values), each checked; problems pushed. */
function attributeRows(
  w: UserTable,
  o: ItemTableJoin,
  join: string[],
  present: Attribute[],
  problems: Problem[],
): Map<string, AttributeRow> {
  const rows = new Map<string, AttributeRow>();
  for (const r of w.rows) {
    const at = { file: w.file, line: r.line, row: r.line === undefined ? r.row : undefined };
    const where = r.line !== undefined ? `line ${r.line}` : `row ${r.row}`;
    const parsed: Parsed = {};
    let ok = true;
    for (const a of present) {
      const cell = r.values[a] ?? null;
      if (a === "weight") {
        const weight = Number(cell);
        if (!(cell !== null && text(cell) !== undefined && Number.isFinite(weight) && weight > 0)) {
          problems.push({ ...at, field: "weight", message: `must be a number > 0 (got ${JSON.stringify(cell)})` });
          ok = false;
        } else parsed.weight = weight;
      } else if (a === "points") {
        const points = parsePoints(cell);
        if (typeof points === "object") {
          problems.push({ ...at, field: "points", message: points.problem });
          ok = false;
        } else parsed.points = points;
      } else if (a === "prerequisites") {
        const list = parsePrerequisites(cell);
        if ("problem" in list) {
          problems.push({ ...at, field: a, message: list.problem });
          ok = false;
        } else if (list.length) parsed.prerequisites = list;
      } else if (text(cell) !== undefined) parsed[a] = text(cell);
    }
    if (!ok) continue;
    const item = text(r.values[o.item]);
    if (item === undefined) {
      problems.push({ ...at, field: o.item, message: "the item is empty" });
      continue;
    }
    const key = JSON.stringify([item, ...join.map((c) => text(r.values[c]) ?? null)]);
    const canonical = JSON.stringify(parsed);
    const before = rows.get(key);
    if (before && before.canonical !== canonical)
      problems.push({
        ...at,
        field: present.join(", "),
        message:
          `item ${describeKey(o, join, key)} is also at ${before.at} with other values ` +
          `(${before.canonical} there, ${canonical} here)`,
      });
    else if (!before) rows.set(key, { parsed, canonical, at: where, loc: { line: at.line, row: at.row }, used: false });
  }
  return rows;
}

/** `"R0" of task "t1"`, or `"c1" with category "qa"`: the item id, then each join column's value. */
function describeKey(o: Pick<ItemTableJoin, "task">, join: string[], key: string): string {
  const [item, ...values] = JSON.parse(key) as (string | null)[];
  const of = join.map((c, i) =>
    c === o.task ? ` of task ${JSON.stringify(values[i] ?? "")}` : ` with ${c} ${JSON.stringify(values[i] ?? "")}`,
  );
  return `${JSON.stringify(item ?? "")}${of.join("")}`;
}

/**
 * Weights keyed by the items themselves (DevAI: task_id and item_id, `requireTask`: the task column must be
 * there, since DevAI's requirement ids repeat across tasks).
 */
export function applyItemWeights(
  items: Item[],
  w: UserTable,
  columns: { task: string; item: string; requireTask?: boolean },
): string {
  if (columns.requireTask && !w.columns.includes(columns.task))
    throw new StoreValidationError(
      w.file,
      [{ file: w.file, field: columns.task, message: `column "${columns.task}" is missing` }],
      0,
    );
  const contexts: ItemContexts = new Map(
    items.map((it) => [it, new Map([[it.task_id, { values: [it.task_id], at: `item ${it.task_id}/${it.item_id}` }]])]),
  );
  return applyItemTable(contexts, w, {
    item: columns.item,
    importColumns: [columns.task],
    task: columns.task,
    required: ["weight"],
    kind: "weights",
  });
}
