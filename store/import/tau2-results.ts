// τ²-bench results files read into simulations: the run's agent, model and domain, each simulation's checks
// (DB, ACTION, NL_ASSERTION, COMMUNICATE, ENV_ASSERTION) and which of them decide its reward.
import { basename } from "node:path";
import { amount, isoTime } from "./run-fields.js";
import type { Judgment, Trajectory } from "../../analysis/schema/tables.js";
import type { Skipped } from "./walk.js";

export const KIND_OF_BASIS: Record<string, string> = {
  DB: "DB",
  ACTION: "ACTION",
  COMMUNICATE: "COMMUNICATE",
  ENV_ASSERTION: "ENV_ASSERTION",
  NL_ASSERTION: "NL_ASSERTION",
};

export interface Check {
  key: string;
  kind: string;
  text: string;
  label: Judgment["label"];
  evidence?: string;
}

export interface Simulation {
  trajectory: Trajectory;
  domain: string;
  checks: Check[];
  basis: Set<string>;
}

export const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);

export const str = (x: unknown) => (typeof x === "string" ? x : x === undefined || x === null ? "" : JSON.stringify(x));

export const yesNo = (met: unknown): Judgment["label"] => (met === true ? "Yes" : met === false ? "No" : "Abstain");

/** τ²'s domains, for a file name that is the last place left to find one in. */
export const KNOWN_DOMAINS = ["airline", "retail", "telecom", "mock", "medical_triage", "vacation_rental", "banking"];

/** τ²'s terminations before evaluation: its evaluator gives reward 0 and evaluates no check. */
export const PREMATURE = new Set(["max_steps", "too_many_errors"]);

export type Source = "info" | "top-level fields" | "task definitions" | "file name" | "unknown";

export interface RunInfo {
  harness: string;
  model: string;
  domain: string;
  sources: { harness: Source; model: Source; domain: Source };
}

/** The first non-empty string among fields of `o`. */
export const firstOf = (o: Record<string, unknown>, keys: string[]) =>
  keys.map((k) => (typeof o[k] === "string" ? (o[k] as string) : "")).find((v) => v !== "") ?? "";

/**
 * The agent's implementation and LLM and the domain of a results file, from wherever the format holds them, in
 * this order: `info` (what `tau2 run` writes), top-level fields (some leaderboard submissions), the task
 * definitions (`user_scenario.instructions.domain`), the file name (a known domain named in it). A domain
 * found nowhere is the file's own (`unknown-domain:<file name>`), so tasks of two such files never merge.
 */
export function runInfo(json: Record<string, unknown>, file: string): RunInfo {
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
export function basisOfTasks(json: Record<string, unknown>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of Array.isArray(json.tasks) ? json.tasks : []) {
    if (!isObject(t) || t.id === undefined) continue;
    const criteria = isObject(t.evaluation_criteria) ? t.evaluation_criteria : {};
    if (Array.isArray(criteria.reward_basis)) out.set(str(t.id), new Set(criteria.reward_basis.map(str)));
  }
  return out;
}

export function readResults(
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
export class ImportNotes {
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
export function simulationOf(
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
      ...simulationUsage(s),
    } as Trajectory,
    checks: evaluated ? checksOf(reward) : [],
    basis:
      taskBasis ?? new Set(evaluated ? (Array.isArray(reward.reward_basis) ? reward.reward_basis : []).map(str) : []),
  };
}

/** Every check of a simulation's reward_info, keyed by kind and index. */
export function checksOf(r: Record<string, unknown>): Check[] {
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

/**
 * A simulation's times and cost as the contract's trajectory fields (τ²'s SimulationRun: start_time, end_time,
 * duration in seconds, agent_cost and user_cost in US dollars): cost_usd is the agent's cost (the user simulator's
 * is the benchmark's, not the agent's); absent fields stay absent. τ² writes its times without a zone: read as UTC
 * (run-fields.ts).
 */
export function simulationUsage(s: Record<string, unknown>): Partial<Trajectory> {
  const started = isoTime(s.start_time);
  const completed = isoTime(s.end_time);
  const duration = amount(s.duration);
  const cost = amount(s.agent_cost);
  return {
    ...(started ? { started_at: started } : {}),
    ...(completed ? { completed_at: completed } : {}),
    ...(duration !== undefined ? { duration_s: duration } : {}),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
}
