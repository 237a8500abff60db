import { readFileSync } from "node:fs";
import { amount, isoTime } from "./run-fields.js";
import { basename } from "node:path";
import { InputError } from "../problems.js";
import type { Item, Judgment, MethodScore, Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { fsReason, jsonFilesBelow, noteRead, readJsonFile, type Skipped } from "./walk.js";
import { realRunManifest } from "./real-manifest.js";
import { ZipError, zipMembers, type ZipMember } from "./zip-members.js";
import { textOption, type Importer } from "./importer.js";

/**
 * `gcpc import inspect LOG... [--outcome SCORER] [--items SCORER] [--threshold X]`: Inspect's `.json` logs and
 * `.eval` logs (a zip archive: header.json and samples/<id>_epoch_<n>.json, nested when the id holds "/"; stored,
 * deflate or zstd members, store/import/zip-members.ts). A sample × epoch is a trajectory (task = the eval's task /
 * the sample id, trial = the epoch, model = the eval's model). `--outcome` names the scorer whose value decides
 * PASS or FAIL (C/I, true/false, 1/0, or a number at or above `--threshold`; without it, each log's only scalar
 * scorer, if it has exactly one); `--items` names a scorer whose value is a dict, each key an item and each value
 * Yes, No or Abstain; every other scalar scorer is a method score. A scorer's explanation is kept as the evidence
 * of its judgments.
 */
export interface InspectImport {
  store: Store;
  skipped: Skipped[];
  logs: number;
  /** The scorers of each log with their value types, and how attempts were numbered. */
  notes: string[];
}

interface Sample {
  id?: unknown;
  epoch?: unknown;
  scores?: unknown;
  /** Per model: input_tokens, output_tokens, total_tokens (and total_cost in newer logs). */
  model_usage?: unknown;
  total_time?: unknown;
  /** When the sample started and completed (UTC datetime strings; Inspect's EvalSample and EvalSampleSummary). */
  started_at?: unknown;
  completed_at?: unknown;
}

/**
 * A sample's run fields (Inspect's EvalSample): tokens (Σ over its models of total_tokens, else input + output),
 * cost (Σ total_cost, where every model gives one), wall-clock seconds (total_time) and its start and completion
 * times; absent when absent. `model_usage` only: `role_usage` counts the same calls again by role.
 */
export function sampleUsage(s: Sample): Partial<Pick<Trajectory, RunField>> {
  const out: Partial<Pick<Trajectory, RunField>> = {};
  if (isObject(s.model_usage)) {
    const usages = Object.values(s.model_usage).filter(isObject);
    const tokens = usages.map((u) => {
      const input = amount(u.input_tokens);
      const output = amount(u.output_tokens);
      return amount(u.total_tokens) ?? (input !== undefined && output !== undefined ? input + output : NaN);
    });
    if (usages.length && tokens.every(Number.isFinite)) out.tokens = tokens.reduce((a, b) => a + b, 0);
    const costs = usages.map((u) => amount(u.total_cost) ?? NaN);
    if (usages.length && costs.every(Number.isFinite)) out.cost_usd = costs.reduce((a, b) => a + b, 0);
  }
  const duration = amount(s.total_time);
  if (duration !== undefined) out.duration_s = duration;
  const started = isoTime(s.started_at);
  const completed = isoTime(s.completed_at);
  if (started) out.started_at = started;
  if (completed) out.completed_at = completed;
  return out;
}

type RunField = "tokens" | "cost_usd" | "duration_s" | "started_at" | "completed_at";

interface Log {
  file: string;
  evalId: string;
  /** When the eval started (eval.created, else stats.started_at): the order of attempts across logs. */
  started: string;
  task: string;
  model: string;
  samples: Sample[];
}

export interface InspectOptions {
  outcome?: string;
  items?: string;
  threshold?: number;
  name?: string;
}

const isObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);

export async function importInspect(inputs: string[], options: InspectOptions = {}): Promise<InspectImport> {
  const skipped: Skipped[] = [];
  const files = jsonFilesBelow(inputs, (n) => n.endsWith(".json") || n.endsWith(".eval"), skipped);
  const logs: Log[] = [];
  for (const file of files) {
    const log = file.endsWith(".eval") ? await readEvalLog(file, skipped) : readJsonLog(file, skipped);
    if (log) logs.push(log);
  }
  const scorers = logs.map(scorersOf);
  checkNamedScorers(logs, scorers, options);
  const notes = logs.map((log, i) => `${basename(log.file)}: scorers ${scorerText(scorers[i])}`);
  const store = storeOf(logs, options, skipped);
  notes.push(numberAttempts(store.trajectories, logs));
  return { store, skipped, logs: logs.length, notes };
}

/** Each scorer of a log with the kinds of value it holds (C/I letters, number, boolean, dict, text). */
function scorersOf(log: Log): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const s of log.samples) {
    if (!isObject(s.scores)) continue;
    for (const [name, sc] of Object.entries(s.scores)) {
      if (!out.has(name)) out.set(name, new Set());
      const v = isObject(sc) ? sc.value : undefined;
      out
        .get(name)!
        .add(
          typeof v === "string" && /^[CIPN]$/.test(v)
            ? "C/I/P/N"
            : isObject(v)
              ? "dict"
              : v === null || v === undefined
                ? "none"
                : typeof v === "boolean"
                  ? "boolean"
                  : typeof v === "number"
                    ? "number"
                    : "text",
        );
    }
  }
  return out;
}

const scorerText = (m: Map<string, Set<string>>) =>
  m.size === 0
    ? "(none)"
    : [...m]
        .sort(([a], [b]) => compareCodePoints(a, b))
        .map(([name, kinds]) => `${name} (${[...kinds].sort(compareCodePoints).join(", ")})`)
        .join(", ");

/** `--outcome` / `--items` naming a scorer that no log holds: refused, listing the scorers that exist. */
function checkNamedScorers(logs: Log[], scorers: Map<string, Set<string>>[], options: InspectOptions): void {
  const all = new Map<string, Set<string>>();
  for (const m of scorers) for (const [k, v] of m) all.set(k, new Set([...(all.get(k) ?? []), ...v]));
  for (const flag of ["outcome", "items"] as const) {
    const name = options[flag];
    if (name === undefined || all.has(name) || logs.length === 0) continue;
    throw new InputError(
      `--${flag} ${JSON.stringify(name)}: no log has that scorer; the scorers found are ${scorerText(all)}`,
    );
  }
}

/**
 * Attempt numbers unique per (task, model) across logs: two runs of the same task and model in two logs each
 * have an epoch 1, and trial = epoch made them one attempt. Attempts are numbered 1, 2, … in the order of their
 * log's start time, then eval id, then epoch. Returns the sentence the import prints.
 */
function numberAttempts(trajectories: Trajectory[], logs: Log[]): string {
  const rank = new Map(
    [...logs]
      .sort((a, b) => compareCodePoints(a.started, b.started) || compareCodePoints(a.evalId, b.evalId))
      .map((l, i) => [l.evalId, i]),
  );
  const groups = new Map<string, { t: Trajectory; log: number; epoch: number }[]>();
  // A trajectory id is `<eval id>/<sample id>/epoch-<n>`; an eval id may itself hold "/" (a file path when the
  // log names no eval id), so each id is matched to the longest eval id it starts with.
  const ids = [...rank.keys()].sort((a, b) => b.length - a.length);
  for (const t of trajectories) {
    const evalId = ids.find((id) => t.trajectory_id.startsWith(`${id}/`));
    const key = `${t.task_id}\u0000${t.model}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push({ t, log: evalId === undefined ? 0 : rank.get(evalId)!, epoch: t.trial ?? 1 });
  }
  let fromSeveral = 0;
  for (const list of groups.values()) {
    list.sort((a, b) => a.log - b.log || a.epoch - b.epoch);
    if (new Set(list.map((x) => x.log)).size > 1) fromSeveral++;
    list.forEach((x, i) => {
      x.t.trial = i + 1;
    });
  }
  return (
    "attempts (trial) numbered 1, 2, … per task and model across logs, in the order of the log's start time, " +
    `eval id and epoch: ${fromSeveral} task-model pair(s) hold attempts from more than one log`
  );
}

function logOf(file: string, header: unknown, samples: Sample[], skipped: Skipped[]): Log | undefined {
  const ev = isObject(header) && isObject(header.eval) ? header.eval : undefined;
  if (!ev || typeof ev.task !== "string" || typeof ev.model !== "string") {
    skipped.push({ folder: file, reason: "not an Inspect log (no eval.task and eval.model)" });
    return undefined;
  }
  const evalId = typeof ev.eval_id === "string" ? ev.eval_id : typeof ev.run_id === "string" ? ev.run_id : file;
  const stats = isObject(header) && isObject(header.stats) ? header.stats : {};
  const started =
    typeof ev.created === "string" ? ev.created : typeof stats.started_at === "string" ? stats.started_at : "";
  // A log with no sample adds nothing: always listed, so a run that comes out short says why.
  if (samples.length === 0) {
    skipped.push({ folder: file, reason: "the log holds no sample (nothing to import from it)" });
    return undefined;
  }
  return { file, evalId, started, task: ev.task, model: ev.model, samples };
}

function readJsonLog(file: string, skipped: Skipped[]): Log | undefined {
  const json = readJsonFile(file, skipped);
  if (json === undefined) return undefined;
  const all: unknown[] = isObject(json) && Array.isArray(json.samples) ? json.samples : [];
  all.forEach((x, i) => {
    if (!isObject(x)) skipped.push({ folder: `${file}, samples[${i}]`, reason: "a sample that is not an object" });
  });
  return logOf(file, json, all.filter(isObject) as Sample[], skipped);
}

async function readEvalLog(file: string, skipped: Skipped[]): Promise<Log | undefined> {
  let members: ZipMember[];
  try {
    noteRead(file);
    members = zipMembers(readFileSync(file));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    skipped.push({ folder: file, reason: code ? fsReason(e) : `not a zip archive (${(e as Error).message})` });
    return undefined;
  }
  const member = (m: ZipMember) => {
    try {
      return JSON.parse(m.read().toString("utf8")) as unknown;
    } catch (e) {
      const what = e instanceof ZipError ? e.message : `not valid JSON (${(e as Error).message.split("\n")[0]})`;
      skipped.push({ folder: `${file} :: ${m.name}`, reason: what });
      return undefined;
    }
  };
  const header = members.find((m) => m.name === "header.json");
  if (!header) {
    skipped.push({ folder: file, reason: "the .eval archive has no header.json member" });
    return undefined;
  }
  const head = member(header);
  if (head === undefined) return undefined;
  const samples: Sample[] = [];
  // A sample id holding "/" is written as a nested member (samples/a/b/c_epoch_1.json): read every depth.
  const names = members.filter((m) => /^samples\/.+\.json$/.test(m.name));
  names.sort((a, b) => compareCodePoints(a.name, b.name));
  for (const m of names) {
    const sample = member(m);
    if (isObject(sample)) samples.push(sample);
    else if (sample !== undefined)
      skipped.push({ folder: `${file} :: ${m.name}`, reason: "a sample that is not an object" });
  }
  return logOf(file, head, samples, skipped);
}

type Value = "PASS" | "FAIL" | null;

/** A scalar score value as an outcome: C/I, true/false, 1/0, or a number against the threshold. */
export function outcomeOfValue(v: unknown, threshold?: number): Value | undefined {
  if (v === "C" || v === true || v === "true") return "PASS";
  if (v === "I" || v === false || v === "false") return "FAIL";
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
  if (!Number.isFinite(n)) return undefined;
  if (threshold !== undefined) return n >= threshold ? "PASS" : "FAIL";
  return n === 1 ? "PASS" : n === 0 ? "FAIL" : null;
}

/** An item value as a label: C/true/1/yes → Yes, I/false/0/no → No, anything else (N, P, null) → Abstain. */
export function labelOfValue(v: unknown, threshold?: number): Judgment["label"] {
  const s = typeof v === "string" ? v.trim().toLowerCase() : v;
  if (s === "c" || s === true || s === "yes" || s === "true") return "Yes";
  if (s === "i" || s === false || s === "no" || s === "false") return "No";
  if (typeof v === "number" && Number.isFinite(v)) {
    if (threshold !== undefined) return v >= threshold ? "Yes" : "No";
    return v === 1 ? "Yes" : v === 0 ? "No" : "Abstain";
  }
  return "Abstain";
}

/** A scalar value as a method score in [0, 1]: C/true → 1, I/false → 0, a number in [0, 1] as it is. */
function methodScoreOf(v: unknown): number | undefined {
  if (v === "C" || v === true) return 1;
  if (v === "I" || v === false) return 0;
  return typeof v === "number" && v >= 0 && v <= 1 ? v : undefined;
}

/** The scorer that decides a log's outcome: --outcome, else the log's only scalar scorer (none when several). */
function outcomeScorer(log: Log, options: InspectOptions): string | undefined {
  if (options.outcome) return options.outcome;
  const scalar = new Set<string>();
  for (const s of log.samples)
    if (isObject(s.scores))
      for (const [k, v] of Object.entries(s.scores)) if (isObject(v) && !isObject(v.value)) scalar.add(k);
  return scalar.size === 1 ? [...scalar][0] : undefined;
}

interface Built {
  trajectories: Trajectory[];
  judgments: Judgment[];
  scores: MethodScore[];
  itemsOfTask: Map<string, Set<string>>;
  benchmarkOf: Map<string, string>;
}

function storeOf(logs: Log[], options: InspectOptions, skipped: Skipped[]): Store {
  const outcomes = new Set<string>();
  const b: Built = { trajectories: [], judgments: [], scores: [], itemsOfTask: new Map(), benchmarkOf: new Map() };
  const seen = new Set<string>();
  for (const log of logs)
    log.samples.forEach((s, i) => {
      if (s.id === undefined || s.id === null) {
        skipped.push({ folder: `${log.file}, samples[${i}]`, reason: "a sample without an id" });
        return;
      }
      const epoch = Number(s.epoch ?? 1);
      const key = `${log.evalId}\u0000${String(s.id)}\u0000${epoch}`;
      if (seen.has(key)) return; // the same log in both forms (or copied): one trajectory
      seen.add(key);
      const outcome = outcomeScorer(log, options);
      if (outcome) outcomes.add(outcome);
      addSample(b, log, s, Number.isInteger(epoch) ? epoch : 1, { ...options, outcome });
    });
  const judge = options.items ? `inspect:${options.items}` : "inspect";
  const tasks: Task[] = [...b.benchmarkOf.keys()].sort(compareCodePoints).map((task_id) => ({
    task_id,
    benchmark: b.benchmarkOf.get(task_id)!,
  }));
  const items: Item[] = tasks.flatMap((t) =>
    [...(b.itemsOfTask.get(t.task_id) ?? [])].sort(compareCodePoints).map((item_id) => ({
      task_id: t.task_id,
      item_id,
      text: item_id,
      route: "judge" as const,
      determines_outcome: options.items !== undefined && outcomes.has(options.items),
    })),
  );
  b.trajectories.sort((x, y) => compareCodePoints(x.trajectory_id, y.trajectory_id));
  return {
    manifest: realRunManifest(
      {
        name: options.name ?? "inspect import",
        description:
          `Imported by gcpc import inspect from ${logs.length} log(s); outcome from scorer(s) ` +
          `${[...outcomes].sort(compareCodePoints).join(", ") || "(none: every trajectory non-binary)"}` +
          `${options.items ? `; items from scorer ${options.items}` : ""}.`,
        primary_judge: judge,
      },
      b.judgments.length,
    ),
    tasks,
    items,
    trajectories: b.trajectories,
    judgments: b.judgments.map((j) => ({ ...j, judge })),
    ...(b.scores.length ? { method_scores: b.scores } : {}),
  };
}

function addSample(b: Built, log: Log, s: Sample, epoch: number, options: InspectOptions): void {
  const task_id = `${log.task}/${String(s.id)}`;
  const trajectory_id = `${log.evalId}/${String(s.id)}/epoch-${epoch}`;
  const scores = isObject(s.scores) ? s.scores : {};
  const value = (name: string | undefined) => (name && isObject(scores[name]) ? scores[name].value : undefined);
  const result = options.outcome ? outcomeOfValue(value(options.outcome), options.threshold) : undefined;
  if (!b.benchmarkOf.has(task_id)) b.benchmarkOf.set(task_id, log.task);
  b.trajectories.push({
    trajectory_id,
    task_id,
    harness: "inspect",
    model: log.model,
    condition: "none",
    trial: epoch,
    outcome: result ?? null,
    ...sampleUsage(s),
  });
  for (const [name, sc] of Object.entries(scores)) {
    if (!isObject(sc)) continue;
    if (name === options.items && isObject(sc.value)) {
      if (!b.itemsOfTask.has(task_id)) b.itemsOfTask.set(task_id, new Set());
      const explanation = typeof sc.explanation === "string" ? sc.explanation : undefined;
      for (const [item_id, v] of Object.entries(sc.value)) {
        b.itemsOfTask.get(task_id)!.add(item_id);
        const label = labelOfValue(v, options.threshold);
        b.judgments.push({ trajectory_id, item_id, label, ...(explanation ? { evidence: explanation } : {}) });
      }
      continue;
    }
    if (name === options.outcome) continue;
    const score = methodScoreOf(sc.value);
    if (score !== undefined) b.scores.push({ trajectory_id, method: name, score });
  }
}

/** `gcpc import inspect LOG... [--outcome SCORER] [--items SCORER] [--threshold X] [--name NAME]`. */
export const importer: Importer = {
  kind: "inspect",
  inputs: "paths",
  options: {
    outcome: { help: "the scorer deciding PASS/FAIL (default: a log's only scalar scorer)" },
    items: { help: "a dict-valued scorer whose keys are checklist items" },
    threshold: { help: "numeric values at or above it PASS (and Yes)" },
    name: { help: "the store's name" },
  },
  async read(inputs, values) {
    const raw = textOption(values, "threshold");
    const threshold = raw === undefined ? undefined : Number(raw);
    if (threshold !== undefined && !Number.isFinite(threshold))
      throw new InputError(`--threshold must be a number, got "${raw}"`);
    const r = await importInspect(inputs, {
      outcome: textOption(values, "outcome"),
      items: textOption(values, "items"),
      threshold,
      name: textOption(values, "name"),
    });
    return { store: r.store, skipped: r.skipped, notes: [`${r.logs} log(s) read`, ...r.notes] };
  },
};
