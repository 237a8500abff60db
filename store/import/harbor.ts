import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Judgment, Item, Store, Task, Trajectory, VerifierResult } from "../../analysis/schema/tables.js";
import { compareCodePoints } from "../../analysis/rq/order.js";
import { fsErrorText } from "../fs-error-text.js";

/** A trial folder that could not be imported, and why. */
export interface Skipped {
  folder: string;
  reason: string;
}

export interface HarborImport {
  store: Store;
  skipped: Skipped[];
  /** Job-level result.json files seen (not trials; ignored on purpose). */
  jobLevel: string[];
}

interface TrialFiles {
  folder: string;
  rel: string;
  result: any;
  config: any | undefined;
  ctrf: any | undefined;
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

function readJson(path: string): { value?: any; error?: string } {
  try {
    return { value: JSON.parse(readFileSync(path, "utf8")) };
  } catch (e) {
    return { error: (e as Error).message.split("\n")[0] };
  }
}

/**
 * Walks Harbor / SkillsBench trial folders and builds an outcome-level store:
 * tasks from task names, trajectories (harness, model, condition, trial
 * index, outcome from the reward, exceptions as tags) and verifier_results
 * from CTRF reports. Folders that cannot be read are listed in `skipped`; the
 * import continues with the rest.
 */
export function importHarbor(roots: string[], options: { benchmark?: string; name?: string } = {}): HarborImport {
  const skipped: Skipped[] = [];
  const jobLevel: string[] = [];
  const trials: TrialFiles[] = [];
  // Folders by real path: a folder reached twice (through a symbolic link) is imported once,
  // and a link back up the tree cannot loop.
  const visited = new Map<string, string>();
  const walk = (root: string, dir: string) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (e) {
      skipped.push({ folder: dir, reason: fsReason(e) });
      return;
    }
    const first = visited.get(real);
    if (first !== undefined) {
      skipped.push({
        folder: dir,
        reason: `same folder as ${first} (reached twice through a symbolic link); imported once`,
      });
      return;
    }
    visited.set(real, dir);
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (e) {
      skipped.push({ folder: dir, reason: fsReason(e) });
      return;
    }
    if (entries.includes("result.json")) {
      const r = readJson(join(dir, "result.json"));
      if (r.error) skipped.push({ folder: dir, reason: `result.json is not valid JSON (${r.error})` });
      else if (r.value === null || typeof r.value !== "object")
        skipped.push({ folder: dir, reason: "result.json is not a JSON object" });
      else if (!("task_name" in r.value)) jobLevel.push(dir);
      else {
        const cfg = entries.includes("config.json") ? readJson(join(dir, "config.json")) : undefined;
        const ctrfPath = join(dir, "verifier", "ctrf.json");
        const ctrf = existsSync(ctrfPath) ? readJson(ctrfPath) : undefined;
        if (cfg?.error)
          skipped.push({ folder: dir, reason: `config.json is not valid JSON (${cfg.error}); imported without it` });
        if (ctrf?.error)
          skipped.push({
            folder: dir,
            reason: `verifier/ctrf.json is not valid JSON (${ctrf.error}); imported without per-test results`,
          });
        trials.push({
          folder: dir,
          rel: `${relative(root, dir)}`,
          result: r.value,
          config: cfg?.value,
          ctrf: ctrf?.value,
        });
        return; // a trial folder holds no further trials
      }
    } else if (entries.includes("config.json") || entries.includes("verifier")) {
      skipped.push({ folder: dir, reason: "no result.json: not a complete trial folder" });
    }
    for (const e of entries) {
      if (e === "verifier") continue;
      const p = join(dir, e);
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch (err) {
        skipped.push({ folder: p, reason: fsReason(err) });
        continue;
      }
      if (isDir) walk(root, p);
    }
  };
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) skipped.push({ folder: root, reason: "not a directory" });
    else walk(root, root);
  }

  const tasks = new Map<string, Set<string>>();
  const rows: (Trajectory & { started: string })[] = [];
  const verifier_results: VerifierResult[] = [];
  const ids = new Set<string>();
  for (const t of trials) {
    const r = t.result;
    const task = typeof r.task_name === "string" && r.task_name ? r.task_name : undefined;
    if (!task) {
      skipped.push({ folder: t.folder, reason: "result.json has no task_name" });
      continue;
    }
    const condition = conditionFromPath(t.rel) ?? (String(r.source ?? "").includes("no-skills") ? "none" : undefined);
    if (!condition) {
      skipped.push({
        folder: t.folder,
        reason: "cannot tell the skill condition from the path (expected skills / noskills / no_skills)",
      });
      continue;
    }
    const harness = r.agent_info?.name ?? t.config?.agent?.name ?? r.config?.agent?.name;
    const model =
      r.config?.agent?.model_name ??
      t.config?.agent?.model_name ??
      (r.agent_info?.model_info ? `${r.agent_info.model_info.provider}/${r.agent_info.model_info.name}` : undefined);
    if (!harness || !model) {
      skipped.push({
        folder: t.folder,
        reason: "cannot find the harness (agent_info.name) or model (config.agent.model_name)",
      });
      continue;
    }
    const reward = r.verifier_result?.rewards?.reward;
    const tags = ["harbor"];
    if (r.exception_info) tags.push(`exception:${r.exception_info.exception_type ?? "unknown"}`);
    if (reward === undefined || reward === null) tags.push("no-verifier-result");
    if (!t.ctrf) tags.push("no-ctrf");
    let id = String(r.trial_name ?? t.rel.split(sep).pop());
    if (ids.has(id)) id = `${id}-${String(r.id ?? "").slice(0, 8)}`;
    ids.add(id);
    if (!tasks.has(task)) tasks.set(task, new Set());
    const tests = t.ctrf?.results?.tests;
    if (t.ctrf && !Array.isArray(tests))
      skipped.push({
        folder: t.folder,
        reason: "verifier/ctrf.json has no results.tests[]; imported without per-test results",
      });
    else if (Array.isArray(tests)) {
      const seen = new Set<string>();
      for (const test of tests) {
        if (typeof test?.name !== "string" || seen.has(test.name)) continue;
        seen.add(test.name);
        tasks.get(task)!.add(test.name);
        verifier_results.push({ trajectory_id: id, test_id: test.name, status: CTRF_STATUS[test.status] ?? "other" });
      }
    }
    rows.push({
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
    });
  }
  // Trial index within (task, harness, model, source, condition), by start time then id.
  const cells = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = JSON.stringify([row.task_id, row.harness, row.model, row.source ?? null, row.condition]);
    if (!cells.has(key)) cells.set(key, []);
    cells.get(key)!.push(row);
  }
  for (const list of cells.values()) {
    list.sort((a, b) => compareCodePoints(a.started, b.started) || compareCodePoints(a.trajectory_id, b.trajectory_id));
    list.forEach((row, i) => (row.trial = i + 1));
  }
  const trajectories: Trajectory[] = rows
    .map(({ started: _started, ...t }) => t)
    .sort((a, b) => compareCodePoints(a.trajectory_id, b.trajectory_id));
  const taskRows: Task[] = [...tasks.keys()]
    .sort(compareCodePoints)
    .map((task_id) => ({
      task_id,
      benchmark: options.benchmark ?? "skillsbench",
      verifier_tests: [...tasks.get(task_id)!].sort(compareCodePoints),
    }));
  return {
    store: {
      manifest: {
        name: options.name ?? "harbor import",
        description: `Imported from Harbor trial folders: ${roots.join(", ")}`,
        judgments_optional: true,
      },
      tasks: taskRows,
      items: [] as Item[],
      trajectories,
      judgments: [] as Judgment[],
      verifier_results,
    },
    skipped,
    jobLevel,
  };
}
