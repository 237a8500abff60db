import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Task, Trajectory, VerifierResult } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { group } from "d3";
import { compareCodePoints } from "../../analysis/order.js";
import { fsErrorText } from "../fs-error-text.js";

import { noteRead, type Skipped } from "./walk.js";
import { textOption, type Importer } from "./importer.js";
import { userRows } from "./user-rows.js";

export interface HarborImport {
  store: Store;
  skipped: Skipped[];
  /** Job-level result.json files seen (not trials; ignored on purpose). */
  jobLevel: string[];
}

/** The fields of a Harbor trial's result.json this importer reads (all optional: archives vary). */
interface HarborResult {
  task_name?: unknown;
  trial_name?: unknown;
  id?: unknown;
  source?: unknown;
  started_at?: unknown;
  agent_info?: { name?: unknown; model_info?: { provider?: unknown; name?: unknown } };
  config?: HarborConfig;
  verifier_result?: { rewards?: { reward?: unknown } };
  exception_info?: { exception_type?: unknown };
}

interface HarborConfig {
  agent?: { name?: unknown; model_name?: unknown };
}

/** A CTRF test report (verifier/ctrf.json): results.tests[] with name and status. */
interface Ctrf {
  results?: { tests?: unknown };
}

interface TrialFiles {
  folder: string;
  rel: string;
  result: HarborResult;
  config: HarborConfig | undefined;
  ctrf: Ctrf | undefined;
}

/**
 * Condition from the path, the only reliable marker in these archives
 * (data/real/raw/harbor-trials/README.md): a component `noskills`, `no_skills`
 * or containing `-noskills-` means none; `skills` or `-skills-` means curated.
 */
export function conditionFromPath(rel: string): "none" | "curated" | undefined {
  const parts = rel.split(/[\\/]/);
  if (parts.some((p) => p === "noskills" || p === "no_skills" || p.includes("-noskills-"))) return "none";
  if (parts.some((p) => p === "skills" || p.includes("-skills-"))) return "curated";
  return undefined;
}

const CTRF_STATUS: Record<string, VerifierResult["status"]> = {
  passed: "passed",
  failed: "failed",
  skipped: "skipped",
};

/** A file-system error as a listed reason (dangling link, link loop, no permission...). */
function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const text = fsErrorText(e) ?? (e as Error).message.split("\n")[0];
  if (code === "ENOENT") return `dangling symbolic link or vanished file (${text})`;
  if (code === "ELOOP") return `symbolic link loop (${text})`;
  return `cannot read (${text})`;
}

function readJson(path: string): { value?: unknown; error?: string } {
  noteRead(path);
  try {
    return { value: JSON.parse(readFileSync(path, "utf8")) };
  } catch (e) {
    return { error: (e as Error).message.split("\n")[0] };
  }
}

/** What the folder walk collects: trial folders, and everything it had to leave out. */
interface Walk {
  trials: TrialFiles[];
  skipped: Skipped[];
  jobLevel: string[];
  /** Folders by real path: a folder reached twice (through a symbolic link) is imported once. */
  visited: Map<string, string>;
}

/**
 * Walks Harbor / SkillsBench trial folders and builds an outcome-level store:
 * tasks from task names, trajectories (harness, model, condition, trial
 * index, outcome from the reward, exceptions as tags) and verifier_results
 * from CTRF reports. Folders that cannot be read are listed in `skipped`; the
 * import continues with the rest.
 */
export function importHarbor(roots: string[], options: { benchmark?: string; name?: string } = {}): HarborImport {
  const w: Walk = { trials: [], skipped: [], jobLevel: [], visited: new Map() };
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) w.skipped.push({ folder: root, reason: "not a directory" });
    else walkFolder(w, root, root);
  }
  const tests = new Map<string, Set<string>>();
  const rows: (Trajectory & { started: string })[] = [];
  const verifier_results: VerifierResult[] = [];
  const ids = new Set<string>();
  for (const t of w.trials) {
    const row = trialRow(t, w.skipped, ids);
    if (!row) continue;
    if (!tests.has(row.task_id)) tests.set(row.task_id, new Set());
    for (const r of verifierResults(t, row.trajectory_id, w.skipped)) {
      tests.get(row.task_id)?.add(r.test_id);
      verifier_results.push(r);
    }
    rows.push(row);
  }
  assignTrialIndex(rows);
  const trajectories: Trajectory[] = rows
    .map(({ started: _started, ...t }) => t)
    .sort((a, b) => compareCodePoints(a.trajectory_id, b.trajectory_id));
  const taskRows: Task[] = [...tests.keys()].sort(compareCodePoints).map((task_id) => ({
    task_id,
    benchmark: options.benchmark ?? "skillsbench",
    verifier_tests: [...(tests.get(task_id) ?? [])].sort(compareCodePoints),
  }));
  const manifest = {
    name: options.name ?? "harbor import",
    description: `Imported from Harbor trial folders: ${roots.join(", ")}`,
    judgments_optional: true,
  };
  const store: Store = { manifest, tasks: taskRows, items: [], trajectories, judgments: [], verifier_results };
  return { store, skipped: w.skipped, jobLevel: w.jobLevel };
}

/** Visits one folder: a trial folder is collected, anything else is searched for trials below. */
function walkFolder(w: Walk, root: string, dir: string): void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (e) {
    w.skipped.push({ folder: dir, reason: fsReason(e) });
    return;
  }
  const first = w.visited.get(real);
  if (first !== undefined) {
    const reason = `same folder as ${first} (reached twice through a symbolic link); imported once`;
    w.skipped.push({ folder: dir, reason });
    return;
  }
  w.visited.set(real, dir);
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (e) {
    w.skipped.push({ folder: dir, reason: fsReason(e) });
    return;
  }
  if (entries.includes("result.json")) {
    if (collectTrial(w, root, dir, entries)) return; // a trial folder holds no further trials
  } else if (entries.includes("config.json") || entries.includes("verifier")) {
    w.skipped.push({ folder: dir, reason: "no result.json: not a complete trial folder" });
  }
  for (const e of entries) {
    if (e === "verifier") continue;
    const p = join(dir, e);
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      w.skipped.push({ folder: p, reason: fsReason(err) });
      continue;
    }
    if (isDir) walkFolder(w, root, p);
  }
}

/** Reads a folder holding result.json; true when it is a trial (collected), false to keep walking below it. */
function collectTrial(w: Walk, root: string, dir: string, entries: string[]): boolean {
  const r = readJson(join(dir, "result.json"));
  if (r.error) w.skipped.push({ folder: dir, reason: `result.json is not valid JSON (${r.error})` });
  else if (r.value === null || typeof r.value !== "object")
    w.skipped.push({ folder: dir, reason: "result.json is not a JSON object" });
  else if (!("task_name" in r.value)) w.jobLevel.push(dir);
  else {
    const cfg = entries.includes("config.json") ? readJson(join(dir, "config.json")) : undefined;
    const ctrfPath = join(dir, "verifier", "ctrf.json");
    const ctrf = existsSync(ctrfPath) ? readJson(ctrfPath) : undefined;
    if (cfg?.error)
      w.skipped.push({ folder: dir, reason: `config.json is not valid JSON (${cfg.error}); imported without it` });
    if (ctrf?.error) {
      const reason = `verifier/ctrf.json is not valid JSON (${ctrf.error}); imported without per-test results`;
      w.skipped.push({ folder: dir, reason });
    }
    const result = r.value as HarborResult;
    const config = cfg?.value as HarborConfig | undefined;
    w.trials.push({
      folder: dir,
      rel: `${relative(root, dir)}`,
      result,
      config,
      ctrf: ctrf?.value as Ctrf | undefined,
    });
    return true;
  }
  return false;
}

/** One trial as a trajectory row (trial index assigned later), or undefined with the reason in `skipped`. */
function trialRow(t: TrialFiles, skipped: Skipped[], ids: Set<string>): (Trajectory & { started: string }) | undefined {
  const r = t.result;
  const task = typeof r.task_name === "string" && r.task_name ? r.task_name : undefined;
  if (!task) {
    skipped.push({ folder: t.folder, reason: "result.json has no task_name" });
    return undefined;
  }
  const condition = conditionFromPath(t.rel) ?? (String(r.source ?? "").includes("no-skills") ? "none" : undefined);
  if (!condition) {
    const reason = "cannot tell the skill condition from the path (expected skills / noskills / no_skills)";
    skipped.push({ folder: t.folder, reason });
    return undefined;
  }
  const harness = r.agent_info?.name ?? t.config?.agent?.name ?? r.config?.agent?.name;
  const info = r.agent_info?.model_info;
  const model =
    r.config?.agent?.model_name ?? t.config?.agent?.model_name ?? (info ? `${info.provider}/${info.name}` : undefined);
  if (!harness || !model) {
    const reason = "cannot find the harness (agent_info.name) or model (config.agent.model_name)";
    skipped.push({ folder: t.folder, reason });
    return undefined;
  }
  const reward = r.verifier_result?.rewards?.reward;
  const tags = ["harbor"];
  if (r.exception_info) tags.push(`exception:${r.exception_info.exception_type ?? "unknown"}`);
  if (reward === undefined || reward === null) tags.push("no-verifier-result");
  if (!t.ctrf) tags.push("no-ctrf");
  let id = String(r.trial_name ?? t.rel.split(sep).pop());
  if (ids.has(id)) id = `${id}-${String(r.id ?? "").slice(0, 8)}`;
  ids.add(id);
  return {
    trajectory_id: id,
    task_id: task,
    harness: String(harness),
    model: String(model),
    source: t.rel.split(/[\\/]/)[0] || undefined,
    condition,
    outcome: reward === 1 ? "PASS" : reward === 0 ? "FAIL" : undefined,
    reward: typeof reward === "number" ? reward : undefined,
    tags,
    started: String(r.started_at ?? ""),
  };
}

/** Per-test results from the trial's CTRF report (first entry per test name). */
function verifierResults(t: TrialFiles, trajectory_id: string, skipped: Skipped[]): VerifierResult[] {
  const tests = t.ctrf?.results?.tests;
  if (t.ctrf && !Array.isArray(tests)) {
    const reason = "verifier/ctrf.json has no results.tests[]; imported without per-test results";
    skipped.push({ folder: t.folder, reason });
    return [];
  }
  const out: VerifierResult[] = [];
  const seen = new Set<string>();
  for (const test of Array.isArray(tests) ? (tests as { name?: unknown; status?: unknown }[]) : []) {
    if (typeof test?.name !== "string" || seen.has(test.name)) continue;
    seen.add(test.name);
    out.push({ trajectory_id, test_id: test.name, status: CTRF_STATUS[String(test.status)] ?? "other" });
  }
  return out;
}

/** Trial index within (task, harness, model, source, condition), by start time then id. */
function assignTrialIndex(rows: (Trajectory & { started: string })[]): void {
  const cells = group(
    rows,
    (r) => r.task_id,
    (r) => r.harness,
    (r) => r.model,
    (r) => r.source ?? null,
    (r) => r.condition,
  );
  for (const list of leaves<Trajectory & { started: string }>(cells)) {
    list.sort((a, b) => compareCodePoints(a.started, b.started) || compareCodePoints(a.trajectory_id, b.trajectory_id));
    for (const [i, row] of list.entries()) row.trial = i + 1;
  }
}

function leaves<T>(m: Map<unknown, unknown>): T[][] {
  return [...m.values()].flatMap((v) => (v instanceof Map ? leaves<T>(v) : [v as T[]]));
}

/**
 * `gcpc import harbor DIR... [--checklists FILE.jsonl] [--verdicts FILE.jsonl] [--benchmark NAME]`: the trial
 * folders, then the user's own checklist items and verdicts (JSONL rows of the contract) merged by trajectory_id.
 */
export const importer: Importer = {
  kind: "harbor",
  inputs: "paths",
  options: {
    checklists: { file: true, help: "items rows (JSONL, contract fields) added to the store" },
    verdicts: { file: true, help: "judgment rows (JSONL, contract fields) for the imported trials" },
    benchmark: { help: "the benchmark name of every task (default from the folders)" },
  },
  async read(inputs, values) {
    const result = importHarbor(inputs, { benchmark: textOption(values, "benchmark") });
    const store = result.store;
    const checklists = textOption(values, "checklists");
    const verdicts = textOption(values, "verdicts");
    if (checklists) store.items = [...store.items, ...(userRows(checklists, "items", store) as Store["items"])];
    if (verdicts)
      store.judgments = [...store.judgments, ...(userRows(verdicts, "judgments", store) as Store["judgments"])];
    const notes = result.jobLevel.length
      ? [`${result.jobLevel.length} job-level result.json ignored (not trials)`]
      : [];
    return { store, skipped: result.skipped, notes };
  },
};
