import { basename } from "node:path";
import type { Item, Judgment, MethodScore, Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { jsonFilesBelow, readJsonFile, type Skipped } from "./walk.js";
import { realRunManifest } from "./real-manifest.js";
import { listOption, textOption, type Importer } from "./importer.js";

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

const KIND_OF_BASIS: Record<string, string> = {
  DB: "DB",
  ACTION: "ACTION",
  COMMUNICATE: "COMMUNICATE",
  ENV_ASSERTION: "ENV_ASSERTION",
  NL_ASSERTION: "NL_ASSERTION",
};

const PASS_WORDS = new Set(["pass", "satisfied", "satisfactory", "compliant", "correct"]);
const FAIL_WORDS = new Set(["fail", "failure", "unsatisfactory", "unsatisfied"]);

/** A judge-viewer verdict as PASS, FAIL or undecided (partially satisfied, unknown, anything else). */
export function verdictOf(raw: unknown): "PASS" | "FAIL" | undefined {
  const v = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  return PASS_WORDS.has(v) ? "PASS" : FAIL_WORDS.has(v) ? "FAIL" : undefined;
}

interface Check {
  key: string;
  kind: string;
  text: string;
  label: Judgment["label"];
  evidence?: string;
}

interface Simulation {
  trajectory: Trajectory;
  domain: string;
  checks: Check[];
  basis: Set<string>;
}

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);
const str = (x: unknown) => (typeof x === "string" ? x : x === undefined || x === null ? "" : JSON.stringify(x));
const yesNo = (met: unknown): Judgment["label"] => (met === true ? "Yes" : met === false ? "No" : "Abstain");

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

/** τ²'s domains, for a file name that is the last place left to find one in. */
const KNOWN_DOMAINS = ["airline", "retail", "telecom", "mock", "medical_triage", "vacation_rental", "banking"];

/** τ²'s terminations before evaluation: its evaluator gives reward 0 and evaluates no check. */
const PREMATURE = new Set(["max_steps", "too_many_errors"]);

type Source = "info" | "top-level fields" | "task definitions" | "file name" | "unknown";

interface RunInfo {
  harness: string;
  model: string;
  domain: string;
  sources: { harness: Source; model: Source; domain: Source };
}

/** The first non-empty string among fields of `o`. */
const firstOf = (o: Record<string, unknown>, keys: string[]) =>
  keys.map((k) => (typeof o[k] === "string" ? (o[k] as string) : "")).find((v) => v !== "") ?? "";

/**
 * The agent's implementation and LLM and the domain of a results file, from wherever the format holds them, in
 * this order: `info` (what `tau2 run` writes), top-level fields (some leaderboard submissions), the task
 * definitions (`user_scenario.instructions.domain`), the file name (a known domain named in it). A domain
 * found nowhere is the file's own (`unknown-domain:<file name>`), so tasks of two such files never merge.
 */
function runInfo(json: Record<string, unknown>, file: string): RunInfo {
  const info = isObject(json.info) ? json.info : {};
  const agent = isObject(info.agent_info) ? info.agent_info : {};
  const env = isObject(info.environment_info) ? info.environment_info : {};
  const pick = (fromInfo: string, topKeys: string[]): [string, Source] => {
    if (fromInfo) return [fromInfo, "info"];
    const top = firstOf(json, topKeys);
    return top ? [top, "top-level fields"] : ["", "unknown"];
  };
  const [harness, harnessSource] = pick(str(agent.implementation), ["agent_implementation", "implementation", "agent"]);
  const [model, modelSource] = pick(str(agent.llm), ["agent_llm", "llm", "model", "model_name"]);
  let [domain, domainSource] = pick(str(env.domain_name), ["domain", "domain_name", "environment"]);
  if (!domain) {
    const fromTasks = new Set(
      (Array.isArray(json.tasks) ? json.tasks : []).map((t) => {
        const scenario = isObject(t) && isObject(t.user_scenario) ? t.user_scenario : {};
        return isObject(scenario.instructions) ? str(scenario.instructions.domain) : "";
      }),
    );
    fromTasks.delete("");
    if (fromTasks.size === 1) [domain, domainSource] = [[...fromTasks][0], "task definitions"];
  }
  if (!domain) {
    const name = basename(file).toLowerCase();
    const known = KNOWN_DOMAINS.find((d) => name.includes(d));
    if (known) [domain, domainSource] = [known, "file name"];
  }
  if (!domain) domain = `unknown-domain:${basename(file)}`;
  return {
    harness: harness || "unknown-harness",
    model: model || "unknown-model",
    domain,
    sources: { harness: harnessSource, model: modelSource, domain: domainSource },
  };
}

/** Each task definition's outcome basis (`evaluation_criteria.reward_basis`), by task id. */
function basisOfTasks(json: Record<string, unknown>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of Array.isArray(json.tasks) ? json.tasks : []) {
    if (!isObject(t) || t.id === undefined) continue;
    const criteria = isObject(t.evaluation_criteria) ? t.evaluation_criteria : {};
    if (Array.isArray(criteria.reward_basis)) out.set(str(t.id), new Set(criteria.reward_basis.map(str)));
  }
  return out;
}

function readResults(
  json: Record<string, unknown>,
  file: string,
  sims: Map<string, Simulation>,
  skipped: Skipped[],
  notes: ImportNotes,
) {
  const run = runInfo(json, file);
  notes.source(file, run);
  const taskBasis = basisOfTasks(json);
  const bad: number[] = [];
  (json.simulations as unknown[]).forEach((s, i) => {
    if (!isObject(s) || typeof s.id !== "string" || s.id === "" || s.task_id === undefined) {
      bad.push(i);
      return;
    }
    if (sims.has(s.id)) return; // the same simulation in two files: kept once
    sims.set(s.id, simulationOf(s, run, taskBasis.get(str(s.task_id)), notes));
  });
  // One line per file, with a count and the first indices (a file without task ids listed 164 lines).
  if (bad.length)
    skipped.push({
      folder: file,
      reason:
        `${bad.length} simulation(s) without an id or task_id (simulations[${bad.slice(0, 5).join("], [")}]` +
        `${bad.length > 5 ? ", …" : ""})`,
    });
}

/** What an import says about where it found things (printed with its summary). */
class ImportNotes {
  premature = 0;
  infrastructure = 0;
  private readonly bySource = new Map<string, string[]>();
  private readonly unknown: string[] = [];

  source(file: string, run: RunInfo): void {
    const key = `domain from ${run.sources.domain}, agent from ${run.sources.harness}, model from ${run.sources.model}`;
    if (!this.bySource.has(key)) this.bySource.set(key, []);
    this.bySource.get(key)!.push(basename(file));
    if (run.sources.domain === "unknown") this.unknown.push(file);
  }

  lines(): string[] {
    const out = [...this.bySource].map(([key, files]) => `${files.length} results file(s): ${key}`);
    for (const file of this.unknown)
      out.push(
        `warning: ${file} names no domain (no info, top-level field, task definition or file name): its tasks ` +
          `are kept apart as domain "unknown-domain:${basename(file)}", never merged with another file's`,
      );
    if (this.premature)
      out.push(`${this.premature} simulation(s) ended before evaluation (max_steps, too_many_errors): FAIL, no checks`);
    if (this.infrastructure)
      out.push(`${this.infrastructure} simulation(s) with reward_info null (infrastructure error): FAIL, tagged`);
    return out;
  }
}

/**
 * One simulation. The outcome is τ²'s: the reward (1 PASS, 0 FAIL); a simulation that ended before evaluation
 * (max_steps, too_many_errors: τ² gives reward 0 and evaluates no check, its reward_info a stub) is a FAIL with
 * no item verdicts, tagged; one with `reward_info: null` (an infrastructure error) is a FAIL too, tagged, as
 * τ²'s own pass rate counts it. The outcome basis is the task definition's; a simulation's own reward_basis is
 * used only when the file holds no task definitions and the simulation was evaluated.
 */
function simulationOf(
  s: Record<string, unknown>,
  run: RunInfo,
  taskBasis: Set<string> | undefined,
  notes: ImportNotes,
) {
  const termination = typeof s.termination_reason === "string" ? s.termination_reason : undefined;
  const premature = termination !== undefined && PREMATURE.has(termination);
  const missing = s.reward_info === null || s.reward_info === undefined;
  const reward = isObject(s.reward_info) ? s.reward_info : {};
  const r = Number(reward.reward);
  const trial = Number(s.trial);
  const tags = [
    ...(termination ? [`termination:${termination}`] : []),
    ...(premature ? ["premature: FAIL, no check evaluated (τ²'s reward 0)"] : []),
    ...(missing ? ["infrastructure: reward_info null, counted as FAIL as τ²'s pass rate does"] : []),
  ];
  if (premature) notes.premature++;
  if (missing) notes.infrastructure++;
  const evaluated = !premature && !missing;
  const outcome = missing || premature ? "FAIL" : r === 1 ? "PASS" : r === 0 ? "FAIL" : null;
  return {
    domain: run.domain,
    trajectory: {
      trajectory_id: s.id as string,
      task_id: `${run.domain}/${str(s.task_id)}`,
      harness: run.harness,
      model: run.model,
      condition: "none",
      trial: Number.isInteger(trial) ? trial : null,
      outcome,
      reward: Number.isFinite(r) ? r : null,
      ...(tags.length ? { tags } : {}),
    } as Trajectory,
    checks: evaluated ? checksOf(reward) : [],
    basis:
      taskBasis ?? new Set(evaluated ? (Array.isArray(reward.reward_basis) ? reward.reward_basis : []).map(str) : []),
  };
}

/** Every check of a simulation's reward_info, keyed by kind and index. */
function checksOf(r: Record<string, unknown>): Check[] {
  const out: Check[] = [];
  if (isObject(r.db_check))
    out.push({
      key: "DB",
      kind: "DB",
      text: "the final database matches the gold database",
      label: yesNo(r.db_check.db_match),
    });
  const list = (x: unknown) => (Array.isArray(x) ? x.filter(isObject) : []);
  list(r.action_checks).forEach((c, i) => {
    const a = isObject(c.action) ? c.action : {};
    const text = `gold action ${str(a.name)}(${str(a.arguments)})`;
    out.push({ key: `ACTION:${i}`, kind: "ACTION", text, label: yesNo(c.action_match) });
  });
  list(r.nl_assertions).forEach((c, i) => {
    const evidence = str(c.justification);
    out.push({
      key: `NL_ASSERTION:${i}`,
      kind: "NL_ASSERTION",
      text: str(c.nl_assertion),
      label: yesNo(c.met),
      evidence,
    });
  });
  list(r.communicate_checks).forEach((c, i) => {
    const evidence = str(c.justification);
    const text = `communicates "${str(c.info)}"`;
    out.push({ key: `COMMUNICATE:${i}`, kind: "COMMUNICATE", text, label: yesNo(c.met), evidence });
  });
  list(r.env_assertions).forEach((c, i) => {
    const a = isObject(c.env_assertion) ? c.env_assertion : {};
    const text = `environment assertion ${str(a.func_name)}(${str(a.arguments)})`;
    out.push({ key: `ENV_ASSERTION:${i}`, kind: "ENV_ASSERTION", text, label: yesNo(c.met) });
  });
  return out;
}

/** The judge a summary file holds: the prompt named in its file name (`…summary_<prompt>.json[.gz]`). */
export function judgeOfFile(file: string): string {
  const m = /summary_(.+?)\.json(\.gz)?$/.exec(basename(file));
  return `judge:${m ? m[1] : basename(file).replace(/\.json(\.gz)?$/, "")}`;
}

function readSummaries(files: string[], sims: Map<string, Simulation>, skipped: Skipped[]) {
  const scores: MethodScore[] = [];
  const undecided: { judge: string; simulation: string; verdict: string }[] = [];
  const judges = new Set<string>();
  for (const file of files) {
    const json = readJsonFile(file, skipped);
    if (json === undefined) continue;
    if (!isObject(json) || !Array.isArray(json.entries)) {
      skipped.push({ folder: file, reason: "not a judge-viewer summary (no entries[])" });
      continue;
    }
    const judge = judgeOfFile(file);
    judges.add(judge);
    json.entries.forEach((e, i) => {
      if (!isObject(e) || typeof e.simulation_id !== "string" || e.simulation_id === "") {
        skipped.push({ folder: `${file}, entries[${i}]`, reason: "an entry without a simulation_id" });
        return;
      }
      if (!sims.has(e.simulation_id)) sims.set(e.simulation_id, simulationOfEntry(e, file));
      const verdict = verdictOf(e.judge_verdict);
      if (verdict === undefined) undecided.push({ judge, simulation: e.simulation_id, verdict: str(e.judge_verdict) });
      else scores.push({ trajectory_id: e.simulation_id, method: judge, score: verdict === "PASS" ? 1 : 0 });
    });
  }
  return { scores, undecided, judges: judges.size };
}

/** A trajectory from a summary entry alone: its simulation id, task, domain (from the file) and reward. */
function simulationOfEntry(e: Record<string, unknown>, file: string): Simulation {
  const domain = /^([a-z]+)-/.exec(basename(file))?.[1] ?? "unknown-domain";
  const r = Number(e.tau2_reward);
  return {
    domain,
    trajectory: {
      trajectory_id: e.simulation_id as string,
      task_id: `${domain}/${str(e.task_id)}`,
      harness: "unknown-harness",
      model: "unknown-model",
      source: str(e.label) || null,
      condition: "none",
      trial: null,
      outcome: r === 1 ? "PASS" : r === 0 ? "FAIL" : null,
      reward: Number.isFinite(r) ? r : null,
    },
    checks: [],
    basis: new Set(),
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
