import type { Store } from "../../analysis/schema/store.js";
import type { Item, Judgment, Task, Trajectory } from "../../analysis/schema/tables.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import type { Importer } from "./importer.js";
import { readUserTable, type UserTable } from "./table-file.js";
import { amount } from "./run-fields.js";

/**
 * METR's task runs (`all_runs.jsonl` of METR/eval-analysis-public, MIT; "Measuring AI Ability to Complete Long
 * Tasks") → a schema_version 2 store. One JSON object per run, the fields this reads:
 *   run_id, task_id, task_family, alias (the agent's name: the arm), score (in [0, 1]), score_binarized (0/1),
 *   started_at / completed_at (ms since the epoch), fatal_error_from, total_tokens, dollar_equivalent.
 * A run is a trajectory (harness "metr", model = alias; trial = its rank by started_at, then run_id, within its
 * (alias, task)); outcome PASS when score_binarized is 1, FAIL when 0; the task's family is its domain. The run's
 * continuous score is one graded item, "score", so GCPC is the score (no checklist: the runs carry none).
 * started_at and completed_at become ISO 8601, duration_s their difference, tokens and cost_usd where present;
 * fatal_error_from is a tag. The human baselines' integer run ids are read as text, and their start time 0 is
 * left out (a placeholder). Every problem names the file, line and field; nothing is written when there is one.
 */
interface MetrRun {
  run_id: string;
  task_id: string;
  task_family?: string | null;
  alias: string;
  score: number;
  score_binarized: number;
  started_at?: number | null;
  completed_at?: number | null;
  fatal_error_from?: string | null;
  total_tokens?: number | null;
  dollar_equivalent?: number | null;
}

/** A run's fields checked, or the problems that name them. */
function checkRun(
  v: Record<string, unknown>,
  at: { file: string; line?: number; row?: number },
  problems: Problem[],
): MetrRun | null {
  const bad = (field: string, message: string) => {
    problems.push({ ...at, field, message });
    return null;
  };
  // The human baselines' run ids are integers in the published file.
  if (typeof v.run_id === "number" && Number.isSafeInteger(v.run_id)) v = { ...v, run_id: String(v.run_id) };
  for (const f of ["run_id", "task_id", "alias"])
    if (typeof v[f] !== "string" || (v[f] as string) === "") return bad(f, "must be a non-empty string");
  if (typeof v.score !== "number" || !(v.score >= 0 && v.score <= 1)) return bad("score", "must be a number in [0, 1]");
  if (v.score_binarized !== 0 && v.score_binarized !== 1) return bad("score_binarized", "must be 0 or 1");
  for (const f of ["started_at", "completed_at", "total_tokens", "dollar_equivalent"])
    if (v[f] !== null && v[f] !== undefined && amount(v[f]) === undefined)
      return bad(f, "must be a number ≥ 0 or null");
  return v as unknown as MetrRun;
}

const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? undefined : new Date(ms).toISOString();

/**
 * The table's runs, each checked; throws naming every problem's line (JSONL) or row and field. The table is read by
 * the reader `import table` uses (table-file.ts: JSONL, CSV, TSV or Parquet, gzipped or not).
 */
function parseRuns(t: UserTable): MetrRun[] {
  const problems: Problem[] = [];
  const runs: MetrRun[] = [];
  for (const r of t.rows) {
    const at = { file: t.file, line: r.line, row: r.line === undefined ? r.row : undefined };
    const run = checkRun({ ...r.values }, at, problems);
    if (run) runs.push(run);
  }
  const seen = new Set<string>();
  for (const r of runs) {
    if (seen.has(r.run_id))
      problems.push({ file: t.file, field: "run_id", message: `run ${JSON.stringify(r.run_id)} twice` });
    seen.add(r.run_id);
  }
  if (problems.length)
    throw new StoreValidationError(t.file, problems.slice(0, 50), Math.max(0, problems.length - 50), {
      what: "METR runs",
    });
  if (runs.length === 0) throw new InputError(`${t.file}: no run in it`);
  return runs;
}

/** Each run's trial: its rank by start time within its (alias, task), ties by run id. */
function trialsOf(runs: MetrRun[]): Map<string, number> {
  const cells = new Map<string, MetrRun[]>();
  for (const r of runs) {
    const key = `${r.alias}\u0000${r.task_id}`;
    const list = cells.get(key) ?? [];
    list.push(r);
    cells.set(key, list);
  }
  const trial = new Map<string, number>();
  for (const list of cells.values()) {
    list.sort((a, b) => (a.started_at ?? 0) - (b.started_at ?? 0) || compareCodePoints(a.run_id, b.run_id));
    for (const [i, r] of list.entries()) trial.set(r.run_id, i + 1);
  }
  return trial;
}

export function importMetr(t: UserTable): { store: Store; notes: string[] } {
  const file = t.file;
  const runs = parseRuns(t);
  const trial = trialsOf(runs);
  const tasks = new Map<string, Task>();
  const items: Item[] = [];
  const trajectories: Trajectory[] = [];
  const judgments: Judgment[] = [];
  for (const r of [...runs].sort((a, b) => compareCodePoints(a.run_id, b.run_id))) {
    if (!tasks.has(r.task_id)) {
      tasks.set(r.task_id, {
        task_id: r.task_id,
        benchmark: "metr",
        ...(r.task_family ? { domain: r.task_family } : {}),
      });
      // score_binarized is the score thresholded: the item determines the outcome, and GCPC here is not outcome-free.
      items.push({
        task_id: r.task_id,
        item_id: "score",
        text: "METR's score of the run, in [0, 1]",
        route: "judge",
        determines_outcome: true,
      });
    }
    // A start of 0 (the human baselines') is a placeholder, not a time: the duration is kept, the times are not.
    const started = r.started_at ? iso(r.started_at) : undefined;
    const completed = r.started_at ? iso(r.completed_at) : undefined;
    trajectories.push({
      trajectory_id: r.run_id,
      task_id: r.task_id,
      harness: "metr",
      model: r.alias,
      condition: "none",
      trial: trial.get(r.run_id)!,
      outcome: r.score_binarized === 1 ? "PASS" : "FAIL",
      reward: r.score,
      ...(r.fatal_error_from ? { tags: [`fatal_error_from:${r.fatal_error_from}`] } : {}),
      ...(started ? { started_at: started } : {}),
      ...(completed ? { completed_at: completed } : {}),
      ...(r.started_at != null && r.completed_at != null && r.completed_at >= r.started_at
        ? { duration_s: (r.completed_at - r.started_at) / 1000 }
        : {}),
      ...(r.total_tokens != null ? { tokens: r.total_tokens } : {}),
      ...(r.dollar_equivalent != null ? { cost_usd: r.dollar_equivalent } : {}),
    });
    judgments.push({ trajectory_id: r.run_id, item_id: "score", grade: r.score, raw: String(r.score), judge: "metr" });
  }
  const store: Store = {
    manifest: {
      name: "METR task runs: successive model versions (METR/eval-analysis-public, MIT)",
      description:
        "7,063 runs of 11 agents on 83 tasks from METR's 'Measuring AI Ability to Complete Long Tasks' analysis " +
        "(data commit 9c1d4e5); outcome = score_binarized, GCPC = the run's continuous score (one graded item); " +
        "no checklist items.",
      primary_judge: "metr",
      synthetic: false,
      schema_version: 2,
    },
    tasks: [...tasks.values()].sort((a, b) => compareCodePoints(a.task_id, b.task_id)),
    items: items.sort((a, b) => compareCodePoints(a.task_id, b.task_id)),
    trajectories,
    judgments,
  };
  const notes = [
    `${runs.length} runs of ${file}; trial = order by started_at within (alias, task); GCPC = METR's score ` +
      "(one graded item per task); outcome = score_binarized",
  ];
  return { store, notes };
}

export const importer: Importer = {
  kind: "metr",
  inputs: "one file",
  options: {},
  async read(inputs) {
    if (inputs.length !== 1) throw new InputError("import metr takes one file (all_runs.jsonl or .jsonl.gz)");
    const { store, notes } = importMetr(await readUserTable(inputs[0]));
    return { store, skipped: [], notes };
  },
};
