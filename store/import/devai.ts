import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Item, Judgment, Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { InputError, StoreValidationError, type Problem } from "../problems.js";
import { textOption, type Importer } from "./importer.js";
import { applyItemWeights } from "./item-weights.js";
import { readUserTable, type UserTable } from "./table-file.js";

/**
 * DevAI (Agent-as-a-Judge, Zhuge et al. 2024; github.com/metauto-ai/agent-as-a-judge, MIT) → a schema_version 2
 * store. The benchmark's layout:
 *   devai/instances/<task>.json            the task: `query` and `requirements` (requirement_id, criteria,
 *                                          category, prerequisites: ids of the same task's requirements)
 *   judgment/<agent>/human_as_a_judge/<task>.json             the human consensus's verdicts, and the task's
 *                                          `executed_successfully` (the outcome: not computed from the items)
 *   judgment/<agent>/agent_as_a_judge/gray_box/<task>.json    the agent judge's verdicts
 * Each verdict is a requirement's `satisfied` (true Yes, false No, null: not judged, so Abstain). Files are
 * joined on their name, not on `name` (one task's differs between files). `satisfied_all_requirements` is
 * computed from the requirements (not outcome-free) and not used; `preferences` are soft and unjudged.
 */

export const AGENT_JUDGE = "agent-as-a-judge (gray box)";
export const HUMAN_JUDGE = "human consensus";

interface Requirement {
  requirement_id: number;
  criteria: string;
  category?: string;
  prerequisites?: number[];
  satisfied?: boolean | null;
}

const itemId = (requirement: number) => `R${requirement}`;

/** The benchmark's folders read into rows; problems collected, not thrown, so one run lists them all. */
class DevaiRead {
  readonly problems: Problem[] = [];
  readonly tasks: Task[] = [];
  readonly items: Item[] = [];
  readonly trajectories: Trajectory[] = [];
  readonly judgments: Judgment[] = [];
  readonly requirementsOf = new Map<string, Set<number>>();
  selfPrerequisites = 0;
  textDiffers = 0;
  readonly added: string[] = [];

  instances(dir: string): void {
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith(".json"))
      .sort(compareCodePoints)) {
      const task = readTask(join(dir, f), this.problems);
      if (!task) continue;
      const task_id = basename(f, ".json");
      this.tasks.push({ task_id, benchmark: "devai", instruction: task.query ?? null });
      this.requirementsOf.set(task_id, new Set(task.requirements.map((r) => r.requirement_id)));
      for (const r of task.requirements) this.items.push(requirementItem(task_id, r));
      this.selfPrerequisites += selfListed(task.requirements);
    }
  }

  /** One agent's workspace for one task: a trajectory, with the two judges' verdicts. */
  trajectory(judgmentDir: string, agent: string, task_id: string): void {
    const id = `${agent}/${task_id}`;
    const human = readJudged(join(judgmentDir, agent, "human_as_a_judge", `${task_id}.json`), this.problems);
    const machine = readJudged(
      join(judgmentDir, agent, "agent_as_a_judge", "gray_box", `${task_id}.json`),
      this.problems,
    );
    if (!human && !machine) return;
    const executed = human?.executed_successfully;
    this.trajectories.push({
      trajectory_id: id,
      task_id,
      harness: agent,
      model: "unrecorded",
      condition: "none",
      trial: 1,
      outcome: executed === true ? "PASS" : executed === false ? "FAIL" : null,
    });
    this.verdicts(id, task_id, HUMAN_JUDGE, human?.requirements ?? []);
    this.verdicts(id, task_id, AGENT_JUDGE, machine?.requirements ?? []);
  }

  verdicts(trajectory_id: string, task_id: string, judge: string, requirements: Requirement[]): void {
    const known = this.requirementsOf.get(task_id)!;
    for (const r of requirements) {
      if (!known.has(r.requirement_id)) {
        // A judged requirement the instance file lacks (task 52 of the snapshot): the judgment file's own
        // definition makes the item, so no verdict is dropped; the summary counts them.
        known.add(r.requirement_id);
        this.items.push(requirementItem(task_id, r));
        this.added.push(`${task_id} ${itemId(r.requirement_id)}`);
      }
      const own = this.items.find((it) => it.task_id === task_id && it.item_id === itemId(r.requirement_id))!;
      if (own.text !== r.criteria) this.textDiffers++;
      if (r.satisfied === true || r.satisfied === false)
        this.judgments.push({
          trajectory_id,
          item_id: itemId(r.requirement_id),
          label: r.satisfied ? "Yes" : "No",
          judge,
        });
    }
  }

  notes(agents: number): string[] {
    const t = this.trajectories;
    return [
      `${agents} agents × ${this.tasks.length} tasks; ` +
        `judges: "${HUMAN_JUDGE}" (reference) and "${AGENT_JUDGE}" (primary)`,
      `outcome: executed_successfully of the human files (${t.filter((x) => x.outcome).length} binary, ` +
        `${t.filter((x) => !x.outcome).length} without one); ` +
        "satisfied_all_requirements is not used (computed from the items)",
      `item text from devai/instances; ${this.textDiffers} verdicts' criteria differ from it in wording ` +
        "(joined on requirement_id)",
      ...(this.selfPrerequisites
        ? [`${this.selfPrerequisites} requirement(s) listed themselves as a prerequisite: that entry is dropped`]
        : []),
      ...(this.added.length
        ? [
            `${this.added.length} item(s) defined only in the judgment files, taken from them: ` +
              [...new Set(this.added)].join(", "),
          ]
        : []),
    ];
  }
}

export function importDevai(dir: string, weights?: UserTable): { store: Store; notes: string[] } {
  const root = existsSync(join(dir, "benchmark", "judgment")) ? join(dir, "benchmark") : dir;
  const instances = join(root, "devai", "instances");
  const judgmentDir = join(root, "judgment");
  if (!existsSync(instances) || !existsSync(judgmentDir))
    throw new InputError(`${dir}: expected devai/instances/ and judgment/ (the DevAI benchmark folder)`);
  const read = new DevaiRead();
  read.instances(instances);
  const agents = readdirSync(judgmentDir)
    .filter((a) => statSync(join(judgmentDir, a)).isDirectory())
    .sort(compareCodePoints);
  for (const agent of agents) for (const task of read.tasks) read.trajectory(judgmentDir, agent, task.task_id);
  const fail = (problems: Problem[]) =>
    new StoreValidationError(dir, problems.slice(0, 50), Math.max(0, problems.length - 50));
  if (read.problems.length) throw fail(read.problems);
  // Joined on task_id and item_id (DevAI's requirement ids repeat across tasks, so the task is required).
  const weighted = weights
    ? applyItemWeights(read.items, weights, { task: "task_id", item: "item_id", requireTask: true })
    : undefined;
  const store: Store = {
    manifest: {
      name: "DevAI (Agent-as-a-Judge): requirement verdicts of a human consensus and an agent judge",
      description:
        "55 AI-development tasks, 3 agents (MetaGPT, GPT-Pilot, OpenHands); items are the tasks' requirements with " +
        "their prerequisites; outcome = the human judges' executed_successfully (not computed from the items). " +
        "Source: github.com/metauto-ai/agent-as-a-judge (MIT).",
      primary_judge: AGENT_JUDGE,
      reference_judge: HUMAN_JUDGE,
      synthetic: false,
      schema_version: 2,
    },
    tasks: read.tasks,
    items: read.items,
    trajectories: read.trajectories,
    judgments: read.judgments,
  };
  const notes = [...read.notes(agents.length), ...(weighted ? [weighted] : [])];
  return { store, notes };
}

/** A requirement as an item. A requirement listing itself (task 52 of the snapshot) loses that vacuous entry. */
const requirementItem = (task_id: string, r: Requirement): Item => ({
  task_id,
  item_id: itemId(r.requirement_id),
  text: r.criteria,
  route: "judge",
  prerequisites: (r.prerequisites ?? []).filter((p) => p !== r.requirement_id).map(itemId),
  group: r.category ?? null,
});

/** Requirements of the instance files that list themselves among their prerequisites. */
const selfListed = (requirements: Requirement[]) =>
  requirements.filter((r) => (r.prerequisites ?? []).includes(r.requirement_id)).length;

function readJson(path: string, problems: Problem[]): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8"));
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    problems.push({ file: path, message: "expected a JSON object" });
  } catch (e) {
    problems.push({ file: path, message: `not valid JSON: ${(e as Error).message}` });
  }
  return undefined;
}

function requirementsIn(path: string, o: Record<string, unknown>, problems: Problem[]): Requirement[] | undefined {
  const list = o.requirements;
  if (!Array.isArray(list)) {
    problems.push({ file: path, field: "requirements", message: "expected a list of requirements" });
    return undefined;
  }
  const ok: Requirement[] = [];
  for (const [i, r] of list.entries()) {
    const x = r as Partial<Requirement>;
    const bad = (field: string, message: string) =>
      problems.push({ file: path, field: `requirements[${i}].${field}`, message });
    if (!Number.isInteger(x?.requirement_id)) bad("requirement_id", "must be an integer");
    else if (typeof x.criteria !== "string") bad("criteria", "must be a string");
    else if (x.satisfied != null && typeof x.satisfied !== "boolean") bad("satisfied", "must be true, false or null");
    else if (x.prerequisites != null && !(Array.isArray(x.prerequisites) && x.prerequisites.every(Number.isInteger)))
      bad("prerequisites", "must be a list of requirement ids");
    else ok.push(x as Requirement);
  }
  return ok;
}

function readTask(path: string, problems: Problem[]) {
  const o = readJson(path, problems);
  const requirements = o && requirementsIn(path, o, problems);
  return requirements ? { query: typeof o!.query === "string" ? o!.query : undefined, requirements } : undefined;
}

function readJudged(path: string, problems: Problem[]) {
  if (!existsSync(path)) return undefined;
  const o = readJson(path, problems);
  const requirements = o && requirementsIn(path, o, problems);
  if (!requirements) return undefined;
  const executed = o!.executed_successfully;
  return { path, requirements, executed_successfully: typeof executed === "boolean" ? executed : undefined };
}

export const importer: Importer = {
  kind: "devai",
  inputs: "one file",
  options: {
    weights: {
      file: true,
      help: "a table (CSV, TSV, Parquet or JSONL) of task_id, item_id, weight giving items weights (schema_version 2)",
    },
  },
  async read(inputs, values) {
    if (inputs.length !== 1) throw new InputError("import devai takes one folder (the DevAI benchmark)");
    if (!statSync(inputs[0]).isDirectory()) throw new InputError(`${inputs[0]}: is not a folder`);
    const weightsFile = textOption(values, "weights");
    const { store, notes } = importDevai(inputs[0], weightsFile ? await readUserTable(weightsFile) : undefined);
    return { store, skipped: [], notes };
  },
};
