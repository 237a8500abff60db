import { csvParse } from "d3";
import type { Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { readFileSync, statSync } from "node:fs";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import { textOption, type Importer } from "./importer.js";

const REQUIRED = [
  "task",
  "model",
  "modelShort",
  "harness",
  "family",
  "condition",
  "score",
  "trials",
  "passCount",
  "perfectCount",
];
const CONDITIONS: Record<string, "none" | "curated"> = { "No Skills": "none", "With Skills": "curated" };

/**
 * SkillsBench results registry (one row per task × agent × condition cell)
 * → an outcome-only store. Each cell becomes `trials` trajectories, the
 * first `passCount` PASS: the registry does not say which trial passed, so
 * trial indices within a cell carry no meaning (tag `trial-order-unknown`)
 * and only cell-level analyses are meaningful. `score` is not used (for 8
 * tasks it is a mean partial score; see the registry README).
 */
export function importRegistry(
  csvText: string,
  file: string,
  options: { benchmark?: string } = {},
): { store: Store; problems: Problem[] } {
  const problems: Problem[] = [];
  const rows = csvParse(csvText);
  const missing = REQUIRED.filter((c) => !rows.columns.includes(c));
  if (missing.length)
    return {
      store: undefined as unknown as Store,
      problems: missing.map((c) => ({ file, line: 1, field: c, message: `required column "${c}" is missing` })),
    };
  const tasks = new Set<string>();
  const trajectories: Trajectory[] = [];
  const seen = new Set<string>();
  for (const [i, r] of rows.entries()) {
    problems.push(...cellProblems(r, file, i + 2, seen));
    if (problems.length) continue;
    tasks.add(r.task!);
    trajectories.push(...cellTrajectories(r));
  }
  const taskRows: Task[] = [...tasks]
    .sort(compareCodePoints)
    .map((task_id) => ({ task_id, benchmark: options.benchmark ?? "skillsbench-1.1" }));
  return {
    store: {
      manifest: {
        name: "SkillsBench v1.1 results registry",
        description:
          `Cell-level pass counts imported from ${file}. ` +
          "Trials within a cell are expanded in an arbitrary order (passes first).",
        judgments_optional: true,
      },
      tasks: taskRows,
      items: [],
      trajectories,
      judgments: [],
    },
    problems,
  };
}

type RegistryRow = Record<string, string | undefined>;

/** Problems of one registry row (file line `line`), including a repeated (task, model, condition) cell. */
function cellProblems(r: RegistryRow, file: string, line: number, seen: Set<string>): Problem[] {
  const out: Problem[] = [];
  const bad = (field: string, message: string) => out.push({ file, line, field, message });
  const trials = Number(r.trials);
  const passes = Number(r.passCount);
  const perfect = Number(r.perfectCount);
  if (!CONDITIONS[r.condition!])
    bad("condition", `expected "No Skills" or "With Skills", got ${JSON.stringify(r.condition)}`);
  if (!Number.isInteger(trials) || trials < 1)
    bad("trials", `must be a positive integer, got ${JSON.stringify(r.trials)}`);
  if (!Number.isInteger(passes) || passes < 0 || passes > trials)
    bad("passCount", `must be an integer in [0, trials], got ${JSON.stringify(r.passCount)}`);
  if (!Number.isInteger(perfect) || perfect < 0 || perfect > passes)
    bad("perfectCount", `must be an integer in [0, passCount], got ${JSON.stringify(r.perfectCount)}`);
  if (!r.task) bad("task", "must not be empty");
  const key = JSON.stringify([r.task, r.model, r.condition]);
  if (seen.has(key)) bad("condition", `duplicate cell (task, model, condition) ${key}`);
  seen.add(key);
  return out;
}

/** A valid cell's trials as trajectories, the first `passCount` PASS (the registry does not say which). */
function cellTrajectories(r: RegistryRow): Trajectory[] {
  const condition = CONDITIONS[r.condition!];
  const passes = Number(r.passCount);
  return Array.from({ length: Number(r.trials) }, (_, i) => ({
    trajectory_id: `${r.task}|${r.model}|${condition}|${i + 1}`,
    task_id: r.task!,
    harness: r.harness!,
    model: r.modelShort!,
    source: r.family!,
    condition,
    trial: i + 1,
    outcome: i + 1 <= passes ? ("PASS" as const) : ("FAIL" as const),
    tags: ["registry-cell", "trial-order-unknown"],
  }));
}

/** `gcpc import skillsbench-registry FILE.csv [--benchmark NAME]`: a problem in any row refuses the whole file. */
export const importer: Importer = {
  kind: "skillsbench-registry",
  inputs: "one file",
  options: { benchmark: { help: "the benchmark name of every task (default skillsbench-1.1)" } },
  async read(inputs, values) {
    if (inputs.length !== 1) throw new InputError("import skillsbench-registry takes one CSV file");
    if (statSync(inputs[0]).isDirectory()) throw new InputError(`${inputs[0]}: is a folder, not a CSV file`);
    const { store, problems } = importRegistry(readFileSync(inputs[0], "utf8"), inputs[0], {
      benchmark: textOption(values, "benchmark"),
    });
    if (problems.length)
      throw new StoreValidationError(inputs[0], problems.slice(0, 50), Math.max(0, problems.length - 50));
    const cells = new Set(store.trajectories.map((t) => JSON.stringify([t.task_id, t.harness, t.model, t.condition])));
    return { store, skipped: [], notes: [`${cells.size} cells (task × harness × model × condition)`] };
  },
};
