import type { Store, StoreFrame } from "../schema/store.js";
import { DEFAULT_SETTINGS, headlineRule, type BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { finite } from "../estimates/not-defined.js";
import { isBinary, prepareStore, type PreparedStore, type StoreCounts } from "./prepared.js";
import { rq1Plan, type Rq1Result } from "./rq1-discrimination.js";
import { rq2Human, type Rq2Result } from "./rq2-human.js";
import { rq3Plan, type Rq3Result } from "./rq3-skill-effects.js";
import { rq4Plan, type Rq4Result } from "./rq4-ablations.js";
import { rq5Reliability, type Rq5Result } from "./rq5-reliability.js";
import { outcomePlan, type OutcomeLevelResult } from "./outcome-level.js";
import { startJobs, type JobRunner } from "./jobs.js";
import type { EarlyJobs } from "./early-jobs.js";
import type { NotAvailable } from "../estimates/not-defined.js";
import { compareCodePoints } from "../order.js";
import { notAvailable } from "../estimates/not-defined.js";
import type { ArmField } from "./arms/arm-pairs.js";
import { overviewArmFields } from "./arms/arm-fields.js";
import { leaderboard, type Leaderboard } from "./arms/leaderboard.js";

export interface PerTrajectoryRow {
  trajectory_id: string;
  task_id: string;
  condition: string;
  outcome: string | null;
  gcpc: number | null;
  gcpc_outcome: number | null;
  perfect: number;
  coverage: number | null;
  zero_evidence: boolean;
}

import { rubricAnalysis, type RubricResult } from "./rubric.js";

export interface AnalysisReport {
  /** The contract version the store was written for (store.json; 1 when it names none). */
  schema_version: number;
  /** `benchmarks`: the benchmarks of the tasks analysed (code-point order), the population every figure pools. */
  store: { name: string; synthetic: boolean; description: string | null; primary_judge: string; benchmarks: string[] };
  settings: BootstrapSettings;
  counts: StoreCounts;
  /**
   * The user's arms first (the report's first section, the site's first page): the arms by the fields that vary
   * (analysis/rq/arms/arm-fields.ts), each with its pass rate, task-clustered CI, rank interval, joint rank set
   * and caveat; pairwise tests are `gcpc leaderboard`'s.
   */
  arms: { by: ArmField[]; leaderboard: Leaderboard } | NotAvailable;
  rq1: Rq1Result;
  rq2: Rq2Result;
  rq3: Rq3Result;
  rq4: Rq4Result;
  rq5: Rq5Result;
  /** Binary outcome view: pass rates and uplift with CIs, cell transitions. */
  outcomes: OutcomeLevelResult | NotAvailable;
  /** Graded, weighted and hierarchical checklists (analysis/rq/rubric.ts); schema_version 2 stores only. */
  rubric?: RubricResult;
  per_trajectory?: PerTrajectoryRow[];
}

/** Every analysis of the contract on one store: a pure function of (store, settings). */
export function analyzeStore(
  store: Store | StoreFrame,
  settings: BootstrapSettings = DEFAULT_SETTINGS,
  options: AnalyzeOptions = {},
): AnalysisReport {
  options.onProgress?.("preparing store");
  return analyzePrepared(prepareStore(store, options.early?.frame), settings, options);
}

export interface AnalyzeOptions {
  perTrajectory?: boolean;
  onProgress?: (step: string) => void;
  /** Another thread for the independent intervals of RQ1 and the binary outcomes (same results). */
  runner?: JobRunner;
  /** Intervals already started from this store's trajectory frame, with these settings (same results). */
  early?: EarlyJobs;
}

/** The same on a store already prepared (the site build keeps the prepared store for its data files). */
export function analyzePrepared(
  p: PreparedStore,
  settings: BootstrapSettings = DEFAULT_SETTINGS,
  options: AnalyzeOptions = {},
): AnalysisReport {
  const progress = options.onProgress ?? (() => {});
  const c = p.counts;
  progress(
    `scored ${c.unique_trajectories} trajectories (${c.judgments} judgments, ${c.duplicates_dropped} duplicates)`,
  );
  // RQ1's intervals and the uplift rows are independent jobs (analysis/rq/jobs.ts): with a runner they
  // start on the other thread now, while this one computes RQ2–RQ5, then helps with what is left.
  // Two batches, RQ1's first, so the other thread starts on it while this one builds the uplift jobs. With
  // `early`, the uplift rows and the stored methods' AUCs were started before the store was prepared.
  const early = options.early;
  if (early && (early.frame.trajectories !== p.trajectories || !sameSettings(early.settings, settings)))
    throw new Error("analyzePrepared: the early jobs were started for another store or other settings");
  const stored = early?.rq1Stored;
  const rq1Jobs = rq1Plan(p, settings, undefined, stored?.jobs);
  const rq1Pending = startJobs(rq1Jobs.jobs, options.runner);
  const outcomeJobs = early?.outcomes.plan ?? outcomePlan(p, settings);
  const outcomeList = "available" in outcomeJobs ? [] : outcomeJobs.jobs;
  const outcomePending = early?.outcomes.pending ?? startJobs(outcomeList, options.runner);
  let jobCount = rq1Jobs.jobs.length + (stored?.jobs.length ?? 0) + outcomeList.length;
  progress("RQ2 human agreement");
  const rq2 = rq2Human(p, settings);
  progress("RQ3 skill effects");
  // RQ3's intervals and clustered tests are jobs too, started before RQ4 and RQ5 are computed here.
  const rq3Jobs = rq3Plan(p, settings);
  const rq3Pending = startJobs(rq3Jobs.jobs, options.runner);
  jobCount += rq3Jobs.jobs.length;
  progress("RQ4 ablations");
  // RQ4 repeats RQ1's AUCs as its checklist row; they are filled in below, once the jobs are done.
  const checklist: Rq1Result["auc"] = [];
  // Its separations' intervals are jobs too, started before RQ5 is computed here.
  const rq4Jobs = rq4Plan(p, settings, checklist);
  const rq4Pending = startJobs(rq4Jobs.jobs, options.runner);
  jobCount += rq4Jobs.jobs.length;
  progress("RQ5 reliability and transfer");
  const rq5 = rq5Reliability(p, settings);
  progress(
    `RQ1 discrimination, binary outcomes, RQ3 and RQ4 intervals: ${jobCount} jobs ` +
      `(RQ1 intervals ${headlineRule(settings)}; ${settings.resamples} per uplift row)`,
  );
  // Help with both batches before waiting on either: the worker may still be on RQ1's last job.
  rq1Pending.help();
  stored?.pending.help();
  outcomePending.help();
  rq3Pending.help();
  rq4Pending.help();
  const rq1 = rq1Jobs.assemble(rq1Pending.wait(), stored?.pending.wait());
  const rq3 = rq3Jobs.assemble(rq3Pending.wait());
  const rq4 = rq4Jobs.assemble(rq4Pending.wait());
  for (const estimate of rq1.auc) checklist.push(estimate);
  const outcomes = "available" in outcomeJobs ? outcomeJobs : outcomeJobs.assemble(outcomePending.wait());
  const report: AnalysisReport = {
    schema_version: p.store.manifest.schema_version ?? 1,
    store: storeHeader(p),
    settings,
    counts: p.counts,
    arms: storeArms(p, settings),
    rq1,
    rq2,
    rq3,
    rq4,
    rq5,
    outcomes,
    // Graded, weighted and hierarchical checklists: a schema_version 2 store only (version 1 reports unchanged).
    ...((p.store.manifest.schema_version ?? 1) >= 2 ? { rubric: rubricAnalysis(p, settings) } : {}),
  };
  if (options.perTrajectory) report.per_trajectory = perTrajectory(p);
  return report;
}

/** The report's `store` block: the manifest's words, the primary judge and the benchmarks analysed. */
function storeHeader(p: PreparedStore): AnalysisReport["store"] {
  const m = p.store.manifest;
  return {
    name: m.name,
    synthetic: m.synthetic === true,
    description: m.description ?? null,
    primary_judge: p.primaryJudge,
    benchmarks: [...new Set(p.store.tasks.map((t) => t.benchmark))].sort(compareCodePoints),
  };
}

const sameSettings = (a: BootstrapSettings, b: BootstrapSettings) => JSON.stringify(a) === JSON.stringify(b);

export function perTrajectory(p: PreparedStore): PerTrajectoryRow[] {
  return p.trajectories.map((t, k) => {
    const m = p.metrics.atSlot(k);
    return {
      trajectory_id: t.trajectory_id,
      task_id: t.task_id,
      condition: t.condition,
      outcome: t.outcome ?? null,
      gcpc: finite(m.gcpc),
      gcpc_outcome: finite(m.gcpc_outcome),
      perfect: m.perfect,
      coverage: finite(m.coverage),
      zero_evidence: m.zero_evidence,
    };
  });
}

/**
 * The store's arms by the fields that vary, with values and ranks (no pairwise tests: `gcpc leaderboard`): by
 * pass rate, or by GCPC in a store with no binary outcome (GCPC needs none).
 */
function storeArms(p: PreparedStore, settings: BootstrapSettings): AnalysisReport["arms"] {
  const by = overviewArmFields(p);
  if (by.length === 0)
    return notAvailable("one arm only, or no grouping by harness, model, source or condition gives 2 to 15 arms");
  const metric = p.trajectories.some(isBinary) ? "pass_rate" : "gcpc";
  const board = leaderboard(p, { by, metric, settings, pairwise: false });
  return "available" in board ? board : { by, leaderboard: board };
}
