import { basename, dirname, join, relative, sep } from "node:path";
import { amount, isoTime } from "./run-fields.js";
import type { Item, Judgment, Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import { jsonFilesBelow, readJsonFile, type Skipped } from "./walk.js";
import { realRunManifest } from "./real-manifest.js";
import { textOption, type Importer } from "./importer.js";

/**
 * `gcpc import terminal-bench DIR...`: the trees `tb run` writes and the Terminal-Bench leaderboard keeps
 * (results/<dataset>@<version>/<YYYYMMDD>_<agent>_<model>/<run>/<task>/<trial>/results.json, run-level
 * results.json files holding every trial of the run again, and a few submissions that keep their trials
 * only in run-level `<stamp>_results.json` files). One trajectory per trial, deduplicated on the trial's
 * `id` (else on run and trial name); items are the tests of `parser_results`, unioned per task, each
 * outcome-determining (is_resolved is true exactly when every test passed; a missing is_resolved is FAIL, as
 * the harness's own accuracy counts it); judgments passed → Yes,
 * failed → No, absent → Abstain; a trial whose tests did not run (parser_results null) has no judgment
 * (zero evidence) and keeps its failure mode as a tag.
 */
export interface TerminalBenchImport {
  store: Store;
  skipped: Skipped[];
  /** Trials seen again (a run-level file repeating its trials, a run copied into two folders). */
  duplicates: number;
  /** Results files read (trial-level and run-level). */
  files: number;
  /** Runs whose results.json lists fewer trials than their folders hold, with the names missing. */
  notes: string[];
}

/** One trial as the importer keeps it, before trial indices are assigned. */
interface TrialRecord {
  key: string;
  harness: string;
  model: string;
  benchmark: string;
  run: string;
  runStart: string;
  taskId: string;
  trialName: string;
  started: string;
  resolved: boolean | null;
  failureMode: string | null;
  tests: Record<string, string> | null;
  /** The trial's end (trial_ended_at) and its tokens (total_input_tokens + total_output_tokens), where given. */
  ended: string;
  tokens: number | null;
}

/** The fields of a trial this importer reads (every other field, the instruction included, is left out). */
interface TrialJson {
  id?: unknown;
  trial_name?: unknown;
  task_id?: unknown;
  is_resolved?: unknown;
  failure_mode?: unknown;
  parser_results?: unknown;
  trial_started_at?: unknown;
  trial_ended_at?: unknown;
  total_input_tokens?: unknown;
  total_output_tokens?: unknown;
}

const LEADERBOARD_FOLDER = /^(\d{8})_([^_]+)_(.+)$/;
const DATASET_FOLDER = /^(.+)[@:](\d[\w.-]*)$/;
export const VERIFIER_JUDGE = "verifier";

export function importTerminalBench(
  roots: string[],
  options: { harness?: string; model?: string; name?: string } = {},
): TerminalBenchImport {
  const skipped: Skipped[] = [];
  const files = jsonFilesBelow(roots, (name) => name === "results.json" || name.endsWith("_results.json"), skipped);
  const metadata = new Map<string, RunMetadata | null>();
  const trials = new Map<string, TrialRecord>();
  let duplicates = 0;
  // Per run: the trial names its run-level results.json lists, and those its trial folders hold.
  const listed = new Map<string, Set<string>>();
  const inFolders = new Map<string, Set<string>>();
  for (const file of files) {
    const json = readJsonFile(file, skipped);
    if (json === undefined) continue;
    const found = trialsOf(json);
    if (!found) {
      skipped.push({ folder: file, reason: "neither a trial's nor a run's results.json (no task_id, no results[])" });
      continue;
    }
    const context = runContext(file, found.level, metadata, options);
    const names = found.level === "run" ? listed : inFolders;
    if (!names.has(context.run)) names.set(context.run, new Set());
    const problems = new Map<string, number[]>();
    for (const [i, t] of found.trials.entries()) {
      const record = trialRecord(t, context);
      if (typeof record === "string") {
        problems.set(record, [...(problems.get(record) ?? []), i]);
        continue;
      }
      names.get(context.run)!.add(record.trialName);
      if (trials.has(record.key)) duplicates++;
      else trials.set(record.key, record);
    }
    // One line per file and reason, with a count (a file of trials without task ids listed a line per trial).
    for (const [reason, at] of problems)
      skipped.push({
        folder: file,
        reason: `${at.length} trial(s): ${reason} (${found.level === "run" ? "results" : "trial"}[${at
          .slice(0, 5)
          .join("], [")}]${at.length > 5 ? ", …" : ""})`,
      });
  }
  return {
    store: storeOf([...trials.values()], roots, options.name),
    skipped,
    duplicates,
    files: files.length,
    notes: unlistedTrials(listed, inFolders),
  };
}

/**
 * Runs whose own results.json lists fewer trials than their trial folders hold (an adapter run listed 507 of
 * 516): the folders' trials are imported, and the run's missing names are said.
 */
function unlistedTrials(listed: Map<string, Set<string>>, inFolders: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  for (const [run, names] of listed) {
    const folders = inFolders.get(run);
    if (!folders) continue;
    const missing = [...folders].filter((n) => !names.has(n)).sort(compareCodePoints);
    if (missing.length)
      out.push(
        `${run}: its results.json lists ${names.size} trial(s), its folders hold ${folders.size}; not listed ` +
          `(imported from their folders): ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}`,
      );
  }
  return out;
}

/** A results file's trials: the file itself (trial level) or its `results` array (run level). */
function trialsOf(json: unknown): { level: "trial" | "run"; trials: TrialJson[] } | undefined {
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined;
  const o = json as Record<string, unknown>;
  if (typeof o.task_id === "string" && typeof o.trial_name === "string") return { level: "trial", trials: [o] };
  if (Array.isArray(o.results))
    return { level: "run", trials: o.results.filter((t): t is TrialJson => !!t && typeof t === "object") };
  return undefined;
}

interface RunMetadata {
  agent_name?: unknown;
  model_name?: unknown;
  dataset_name?: unknown;
  dataset_version?: unknown;
  start_time?: unknown;
}

interface RunContext {
  run: string;
  harness: string;
  model: string;
  benchmark: string;
  start: string | undefined;
}

/**
 * The run a results file belongs to, and its arm: harness and model from the leaderboard folder
 * `YYYYMMDD_<agent>_<model>` where the path has one, else from the run's run_metadata.json; --harness and
 * --model override both. The benchmark is the dataset's name and version (metadata, else the path).
 */
function runContext(
  file: string,
  level: "trial" | "run",
  cache: Map<string, RunMetadata | null>,
  options: { harness?: string; model?: string },
): RunContext {
  const stem = basename(file).replace(/_?_results\.json$|^results\.json$/, "");
  // A trial's file sits at <run>/<task>/<trial>/results.json; a run's at <run>/results.json or <run>_results.json.
  const runDir = level === "trial" ? dirname(dirname(dirname(file))) : dirname(file);
  const run = stem ? join(runDir, stem) : runDir;
  const meta = metadataOf(runDir, cache);
  const parts = run.split(sep);
  const board = parts
    .map((p) => LEADERBOARD_FOLDER.exec(p))
    .reverse()
    .find((m) => m !== null);
  const dataset = parts
    .map((p) => DATASET_FOLDER.exec(p))
    .reverse()
    .find((m) => m !== null);
  const text = (x: unknown) => (typeof x === "string" && x.trim() !== "" ? x.trim() : undefined);
  const metaBenchmark =
    text(meta?.dataset_name) && text(meta?.dataset_version)
      ? `${text(meta?.dataset_name)}@${text(meta?.dataset_version)}`
      : undefined;
  return {
    run,
    harness: options.harness ?? board?.[2] ?? text(meta?.agent_name) ?? "unknown-harness",
    model: options.model ?? board?.[3] ?? text(meta?.model_name) ?? "unknown-model",
    benchmark: metaBenchmark ?? (dataset ? `${dataset[1]}@${dataset[2]}` : "terminal-bench"),
    start: text(meta?.start_time),
  };
}

function metadataOf(runDir: string, cache: Map<string, RunMetadata | null>): RunMetadata | null {
  if (!cache.has(runDir)) {
    const quiet: Skipped[] = [];
    const json = readJsonFile(join(runDir, "run_metadata.json"), quiet, true);
    cache.set(runDir, json && typeof json === "object" ? (json as RunMetadata) : null);
  }
  return cache.get(runDir)!;
}

/** A trial as the importer keeps it, or the reason it cannot be read. */
function trialRecord(t: TrialJson, c: RunContext): TrialRecord | string {
  if (typeof t.task_id !== "string" || t.task_id === "" || typeof t.trial_name !== "string")
    return "without a task_id or trial_name string";
  const tests = testsOf(t.parser_results);
  if (tests === undefined) return "parser_results is neither null nor an object of test → status";
  const started = typeof t.trial_started_at === "string" ? t.trial_started_at : "";
  return {
    key: typeof t.id === "string" && t.id !== "" ? `id:${t.id}` : `run:${c.run}\u0000${t.trial_name}`,
    harness: c.harness,
    model: c.model,
    benchmark: c.benchmark,
    run: c.run,
    runStart: c.start ?? "",
    taskId: t.task_id,
    trialName: t.trial_name,
    started,
    resolved: typeof t.is_resolved === "boolean" ? t.is_resolved : null,
    failureMode: typeof t.failure_mode === "string" ? t.failure_mode : null,
    tests,
    ended: typeof t.trial_ended_at === "string" ? t.trial_ended_at : "",
    tokens: tokensOf(t),
  };
}

/** Input plus output tokens when both are counts (Terminal-Bench leaves them null when the agent reports none). */
function tokensOf(t: TrialJson): number | null {
  const input = amount(t.total_input_tokens);
  const output = amount(t.total_output_tokens);
  return input !== undefined && output !== undefined ? input + output : null;
}

/** parser_results as test → status; null stays null (the tests did not run); anything else is undefined. */
function testsOf(x: unknown): Record<string, string> | null | undefined {
  if (x === null || x === undefined) return null;
  if (typeof x !== "object" || Array.isArray(x)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(x)) if (typeof v === "string") out[k] = v;
  return out;
}

/** started_at, completed_at and duration_s from trial_started_at / trial_ended_at, and tokens, where given. */
function runTimes(r: TrialRecord): Partial<Trajectory> {
  const started = isoTime(r.started);
  const ended = isoTime(r.ended);
  const seconds = started && ended ? (Date.parse(ended) - Date.parse(started)) / 1000 : NaN;
  return {
    ...(started ? { started_at: started } : {}),
    ...(ended ? { completed_at: ended } : {}),
    ...(seconds >= 0 ? { duration_s: seconds } : {}),
    ...(r.tokens !== null ? { tokens: r.tokens } : {}),
  };
}

const LABEL_OF_STATUS: Record<string, Judgment["label"]> = { passed: "Yes", failed: "No" };

/** The store: tasks, one outcome-determining item per test, trajectories with trial indices, judgments. */
function storeOf(records: TrialRecord[], roots: string[], name?: string): Store {
  const runStart = runStarts(records);
  const testsOfTask = new Map<string, Set<string>>();
  const benchmarkOf = new Map<string, string>();
  for (const r of records) {
    if (!testsOfTask.has(r.taskId)) testsOfTask.set(r.taskId, new Set());
    for (const test of Object.keys(r.tests ?? {})) testsOfTask.get(r.taskId)!.add(test);
    if (!benchmarkOf.has(r.taskId)) benchmarkOf.set(r.taskId, r.benchmark);
  }
  const checklist = new Map([...testsOfTask].map(([task, set]) => [task, [...set].sort(compareCodePoints)]));
  const trajectories: Trajectory[] = [];
  const judgments: Judgment[] = [];
  for (const [trial, r] of withTrialIndex(records, runStart)) {
    const trajectory_id = `${r.harness}/${r.model}/${r.taskId}/${trial}`;
    trajectories.push({
      trajectory_id,
      task_id: r.taskId,
      harness: r.harness,
      model: r.model,
      condition: "none",
      trial,
      // A trial with no is_resolved (its tests timed out or could not be parsed) is unresolved in Terminal-Bench's
      // own accounting (n_unresolved counts it; accuracy = n_resolved / trials): FAIL, tagged.
      outcome: r.resolved === true ? "PASS" : "FAIL",
      ...tagsOf(r),
      ...runTimes(r),
    });
    if (r.tests === null) continue;
    for (const test of checklist.get(r.taskId)!) {
      const status = r.tests[test];
      judgments.push({
        trajectory_id,
        item_id: test,
        label: status === undefined ? "Abstain" : (LABEL_OF_STATUS[status] ?? "Abstain"),
        judge: VERIFIER_JUDGE,
        evidence: status === undefined ? `test ${test}: not in this trial's parser_results` : `test ${test}: ${status}`,
      });
    }
  }
  const tasks: Task[] = [...checklist.keys()].sort(compareCodePoints).map((task_id) => ({
    task_id,
    benchmark: benchmarkOf.get(task_id)!,
    verifier_tests: checklist.get(task_id)!,
  }));
  const items: Item[] = tasks.flatMap((t) =>
    checklist.get(t.task_id)!.map((test) => ({
      task_id: t.task_id,
      item_id: test,
      text: `verifier test ${test} passes`,
      route: "assertion" as const,
      assertion_ref: test,
      determines_outcome: true,
    })),
  );
  trajectories.sort((a, b) => compareCodePoints(a.trajectory_id, b.trajectory_id));
  return {
    // No test ran anywhere (every parser_results null or empty): an outcome-only store.
    manifest: realRunManifest(
      {
        name: name ?? "terminal-bench import",
        description:
          `Imported by gcpc import terminal-bench from ${roots.length} folder(s). Items are the verifier's tests ` +
          "(outcome-determining: is_resolved is true exactly when every test passed).",
        primary_judge: VERIFIER_JUDGE,
      },
      judgments.length,
    ),
    tasks,
    items,
    trajectories,
    judgments,
  };
}

/**
 * Trials with their index within (harness, model, task): the run's order by start time within the arm,
 * then the trial's own start and name (a run holding several attempts of a task numbers them in order).
 */
function withTrialIndex(records: TrialRecord[], runStart: Map<string, string>): [number, TrialRecord][] {
  const sorted = [...records].sort(
    (a, b) =>
      compareCodePoints(a.harness, b.harness) ||
      compareCodePoints(a.model, b.model) ||
      compareCodePoints(a.taskId, b.taskId) ||
      compareCodePoints(runStart.get(a.run)!, runStart.get(b.run)!) ||
      compareCodePoints(a.run, b.run) ||
      compareCodePoints(a.started, b.started) ||
      compareCodePoints(a.trialName, b.trialName),
  );
  const out: [number, TrialRecord][] = [];
  let previous = "";
  let index = 0;
  for (const r of sorted) {
    const cell = `${r.harness}\u0000${r.model}\u0000${r.taskId}`;
    index = cell === previous ? index + 1 : 1;
    previous = cell;
    out.push([index, r]);
  }
  return out;
}

/** The path of a file relative to the root it was found under (for messages). */
export const relativeTo = (root: string, file: string) => relative(root, file) || basename(file);

/** A trial's failure mode (unless unset) and a missing is_resolved, as tags. */
function tagsOf(r: TrialRecord): { tags?: string[] } {
  const tags = [
    ...(r.failureMode && r.failureMode !== "unset" ? [`failure_mode:${r.failureMode}`] : []),
    ...(r.resolved === null ? ["is_resolved:null"] : []),
  ];
  return tags.length ? { tags } : {};
}

/** A run's start: its metadata's, else its first trial's (so runs order by time within an arm). */
function runStarts(records: TrialRecord[]): Map<string, string> {
  const runStart = new Map<string, string>();
  for (const r of records) {
    const s = r.runStart || r.started;
    if (!runStart.has(r.run) || s < runStart.get(r.run)!) runStart.set(r.run, s);
  }
  return runStart;
}

/** `gcpc import terminal-bench DIR... [--harness H] [--model M] [--name NAME]`. */
export const importer: Importer = {
  kind: "terminal-bench",
  inputs: "paths",
  options: {
    harness: { help: "the harness of every trial (default from the folders or run_metadata.json)" },
    model: { help: "the model of every trial (default from the folders or run_metadata.json)" },
    name: { help: "the store's name" },
  },
  async read(inputs, values) {
    const r = importTerminalBench(inputs, {
      harness: textOption(values, "harness"),
      model: textOption(values, "model"),
      name: textOption(values, "name"),
    });
    const notes = [`${r.files} results file(s) read; ${r.duplicates} repeated trial(s) deduplicated`, ...r.notes];
    return { store: r.store, skipped: r.skipped, notes };
  },
};
