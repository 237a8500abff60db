// τ²-bench judge-viewer summaries: one judge per file, its verdict words read as 1, 0 or undecided.
import { basename } from "node:path";
import type { MethodScore } from "../../analysis/schema/tables.js";
import { readJsonFile, type Skipped } from "./walk.js";
import { isObject, str, type Simulation } from "./tau2-results.js";

export const PASS_WORDS = new Set(["pass", "satisfied", "satisfactory", "compliant", "correct"]);

export const FAIL_WORDS = new Set(["fail", "failure", "unsatisfactory", "unsatisfied"]);

/** A judge-viewer verdict as PASS, FAIL or undecided (partially satisfied, unknown, anything else). */
export function verdictOf(raw: unknown): "PASS" | "FAIL" | undefined {
  const v = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  return PASS_WORDS.has(v) ? "PASS" : FAIL_WORDS.has(v) ? "FAIL" : undefined;
}

/** The judge a summary file holds: the prompt named in its file name (`…summary_<prompt>.json[.gz]`). */
export function judgeOfFile(file: string): string {
  const m = /summary_(.+?)\.json(\.gz)?$/.exec(basename(file));
  return `judge:${m ? m[1] : basename(file).replace(/\.json(\.gz)?$/, "")}`;
}

export function readSummaries(files: string[], sims: Map<string, Simulation>, skipped: Skipped[]) {
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
export function simulationOfEntry(e: Record<string, unknown>, file: string): Simulation {
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
