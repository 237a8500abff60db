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
  /** Each task's requirements as devai/instances defines them. */
  private readonly instance = new Map<string, Requirement[]>();
  /** Each task's requirements as its first judgment file defines them, and that file. */
  private readonly judged = new Map<string, { path: string; requirements: Requirement[] }>();
  /** Every verdict's requirement as its file states it: its wording is compared with the item's. */
  private readonly stated: { task_id: string; requirement: Requirement }[] = [];
  selfPrerequisites = 0;
  textDiffers = 0;
  /** Tasks whose judgment files define other requirements than devai/instances: their checklist is the files'. */
  readonly fromJudgments: string[] = [];

  instances(dir: string): void {
    for (const f of readdirSync(dir)
      .filter((x) => x.endsWith(".json"))
      .sort(compareCodePoints)) {
      const task = readTask(join(dir, f), this.problems);
      if (!task) continue;
      const task_id = basename(f, ".json");
      this.tasks.push({ task_id, benchmark: "devai", instruction: task.query ?? null });
      this.instance.set(task_id, task.requirements);
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
    for (const [judge, file] of [
      [HUMAN_JUDGE, human],
      [AGENT_JUDGE, machine],
    ] as const)
      if (file) this.verdicts(id, task_id, judge, file.path, file.requirements);
  }

  private verdicts(trajectory_id: string, task_id: string, judge: string, path: string, requirements: Requirement[]) {
    const first = this.judged.get(task_id);
    if (!first) this.judged.set(task_id, { path, requirements });
    else if (idsOf(first.requirements) !== idsOf(requirements))
      this.problems.push({
        file: path,
        field: "requirements",
        message:
          `requirements ${idsOf(requirements)}, where ${first.path} judged ${idsOf(first.requirements)} of the ` +
          "same task: a verdict's requirement would be ambiguous",
      });
    for (const r of requirements) {
      this.stated.push({ task_id, requirement: r });
      if (r.satisfied === true || r.satisfied === false)
        this.judgments.push({
          trajectory_id,
          item_id: itemId(r.requirement_id),
          label: r.satisfied ? "Yes" : "No",
          judge,
        });
    }
  }

  /**
   * Each task's checklist: devai/instances' requirements, unless the task's judgment files judged another list
   * (task 52 of the snapshot: a requirement inserted at R2, the later ones renumbered). Verdicts name a
   * requirement by its number in the file that judged it, so that file's list is then the checklist (its
   * texts, categories and prerequisites) and every verdict sits on the requirement it judged.
   */
  checklists(): void {
    for (const { task_id } of this.tasks) {
      const own = this.instance.get(task_id)!;
      const judged = this.judged.get(task_id)?.requirements;
      const list = judged && idsOf(judged) !== idsOf(own) ? judged : own;
      if (list !== own) this.fromJudgments.push(`${task_id} (${idsOf(own)} → ${idsOf(judged!)})`);
      for (const r of list) this.items.push(requirementItem(task_id, r));
      this.selfPrerequisites += selfListed(list);
    }
    const text = new Map(this.items.map((it) => [`${it.task_id}\u0000${it.item_id}`, it.text]));
    for (const { task_id, requirement: r } of this.stated)
      if (text.get(`${task_id}\u0000${itemId(r.requirement_id)}`) !== r.criteria) this.textDiffers++;
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
      ...(this.fromJudgments.length
        ? [
            `${this.fromJudgments.length} task(s) whose judgment files judged other requirements than ` +
              "devai/instances defines, their checklist taken from the judgment files so that each verdict " +
              `sits on the requirement it judged: ${this.fromJudgments.join(", ")}`,
          ]
        : []),
    ];
  }
}

/** A requirement list's ids, as text ("R0–R4" when consecutive from 0, else the ids listed). */
function idsOf(requirements: readonly Requirement[]): string {
  const ids = requirements.map((r) => r.requirement_id);
  return ids.every((id, k) => id === k) && ids.length > 0 ? `R0–R${ids.length - 1}` : ids.map(itemId).join(",");
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
  read.checklists();
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

/** A requirement as an item. A requirement listing itself loses that vacuous entry. */
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
