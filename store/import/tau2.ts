import type { Item, Judgment, MethodScore, Task } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { jsonFilesBelow, readJsonFile, type Skipped } from "./walk.js";
import { realRunManifest } from "./real-manifest.js";
import { listOption, textOption, type Importer } from "./importer.js";
import { KIND_OF_BASIS, isObject, readResults, ImportNotes, type Check, type Simulation } from "./tau2-results.js";
import { readSummaries } from "./tau2-summaries.js";

export { verdictOf, judgeOfFile } from "./tau2-summaries.js";

/**
 * `gcpc import tau2 RESULTS... [--judge-summaries FILE...]`: τ²-bench results files (what `tau2 run` writes,
 * plain or .gz) and judge-viewer summaries. A simulation is a trajectory (task = domain/task id, harness =
 * the agent implementation, model = the agent's LLM, trial = the simulation's trial); every check of its
 * reward_info is an item keyed per task by kind and index (DB, ACTION:i, NL_ASSERTION:i, COMMUNICATE:i,
 * ENV_ASSERTION:i; a task's checklist is the union over its simulations), outcome-determining when its kind
 * is in the reward basis; the outcome is the reward (1 PASS, 0 FAIL, else non-binary). A judge-viewer summary
 * is one holistic judge (named by the prompt in its file name): each verdict becomes that judge's method
 * score (pass → 1, fail → 0); a verdict outside the vocabulary is undecided, counted and never guessed.
 */
export interface Tau2Import {
  store: Store;
  skipped: Skipped[];
  /** Where the domains, agents and models came from, warnings, and the simulations counted as FAIL untested. */
  notes: string[];
  /** Holistic judges read from summaries. */
  judges: number;
  /** Verdicts outside the vocabulary, per judge: left out of the method scores. */
  undecided: number;
  undecidedVerdicts: { judge: string; simulation: string; verdict: string }[];
}

export function importTau2(inputs: string[], summaries: string[] = [], options: { name?: string } = {}): Tau2Import {
  const skipped: Skipped[] = [];
  const files = jsonFilesBelow(inputs, (n) => /\.json(\.gz)?$/.test(n), skipped);
  const sims = new Map<string, Simulation>();
  const summaryFiles = [...summaries];
  const notes = new ImportNotes();
  for (const file of files) {
    const json = readJsonFile(file, skipped);
    if (json === undefined) continue;
    if (isObject(json) && Array.isArray(json.entries)) summaryFiles.push(file);
    else if (isObject(json) && Array.isArray(json.simulations)) readResults(json, file, sims, skipped, notes);
    else skipped.push({ folder: file, reason: "neither τ² results (simulations[]) nor a judge summary (entries[])" });
  }
  const judged = readSummaries([...new Set(summaryFiles)], sims, skipped);
  return {
    store: storeOf(sims, judged.scores, inputs.length + summaryFiles.length, options.name),
    skipped,
    notes: notes.lines(),
    judges: judged.judges,
    undecided: judged.undecided.length,
    undecidedVerdicts: judged.undecided,
  };
}

function storeOf(sims: Map<string, Simulation>, scores: MethodScore[], inputs: number, name?: string): Store {
  const byTask = new Map<string, { domain: string; checks: Map<string, Check>; basis: Set<string> }>();
  for (const s of sims.values()) {
    const t = s.trajectory.task_id;
    if (!byTask.has(t)) byTask.set(t, { domain: s.domain, checks: new Map(), basis: new Set() });
    const task = byTask.get(t)!;
    for (const c of s.checks) if (!task.checks.has(c.key)) task.checks.set(c.key, c);
    for (const b of s.basis) task.basis.add(b);
  }
  const tasks: Task[] = [...byTask.keys()].sort(compareCodePoints).map((task_id) => ({
    task_id,
    benchmark: "tau2-bench",
    domain: byTask.get(task_id)!.domain,
  }));
  const items: Item[] = [];
  const order = new Map<string, string[]>();
  for (const t of tasks) {
    const task = byTask.get(t.task_id)!;
    const keys = [...task.checks.keys()].sort(compareChecks);
    order.set(t.task_id, keys);
    for (const key of keys) {
      const c = task.checks.get(key)!;
      const basis = Object.keys(KIND_OF_BASIS).filter((b) => task.basis.has(b) && KIND_OF_BASIS[b] === c.kind);
      items.push({
        task_id: t.task_id,
        item_id: key,
        text: c.text,
        route: c.kind === "NL_ASSERTION" ? "judge" : "assertion",
        determines_outcome: basis.length > 0,
      });
    }
  }
  const trajectories = [...sims.values()].map((s) => s.trajectory);
  trajectories.sort((a, b) => compareCodePoints(a.trajectory_id, b.trajectory_id));
  const judgments: Judgment[] = [];
  for (const t of trajectories) {
    const s = sims.get(t.trajectory_id)!;
    if (s.checks.length === 0) continue;
    const own = new Map(s.checks.map((c) => [c.key, c]));
    for (const key of order.get(t.task_id)!) {
      const c = own.get(key);
      judgments.push({
        trajectory_id: t.trajectory_id,
        item_id: key,
        label: c?.label ?? "Abstain",
        judge: "tau2",
        ...(c?.evidence ? { evidence: c.evidence } : {}),
      });
    }
  }
  return {
    manifest: realRunManifest(
      {
        name: name ?? "tau2-bench import",
        description:
          `Imported by gcpc import tau2 from ${inputs} input(s). Items are τ²'s checks; those of a kind in the ` +
          "reward basis determine the outcome (GCPC counts the others).",
        primary_judge: "tau2",
      },
      judgments.length,
    ),
    tasks,
    items,
    trajectories,
    judgments,
    ...(scores.length ? { method_scores: scores } : {}),
  };
}

/** Checks in kind order, then by index (ACTION:2 before ACTION:10). */
function compareChecks(a: string, b: string): number {
  const [ka, ia] = a.split(":");
  const [kb, ib] = b.split(":");
  return compareCodePoints(ka, kb) || Number(ia ?? -1) - Number(ib ?? -1);
}

/** `gcpc import tau2 RESULTS... [--judge-summaries FILE ...] [--name NAME]`. */
export const importer: Importer = {
  kind: "tau2",
  inputs: "paths",
  options: {
    "judge-summaries": { multiple: true, file: true, help: "judge-viewer summaries (one holistic judge each)" },
    name: { help: "the store's name" },
  },
  async read(inputs, values) {
    const r = importTau2(inputs, listOption(values, "judge-summaries"), { name: textOption(values, "name") });
    const notes = [
      ...(r.judges ? [`${r.judges} holistic judge(s); ${r.undecided} undecided verdict(s) left out`] : []),
      ...r.notes,
    ];
    return { store: r.store, skipped: r.skipped, notes };
  },
};
