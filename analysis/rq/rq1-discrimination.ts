import type { ScoreLookup } from "./score-column.js";
import { DrawComponents, pairedDeltaDrawSe } from "../stats/draw-components.js";
import { shareAbove } from "../stats/bootstrap.js";
import { ClusteredAuc } from "../stats/clustered-auc.js";
import {
  FEW_CLUSTERS,
  headline,
  bootstrapIntervals,
  estimatorNaming,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, finiteCI, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { pairedObuchowskiTest } from "../stats/obuchowski.js";
import {
  AUC_ESTIMATOR,
  aucWithCIColumns,
  clusterIntervalProblem,
  taskClusters,
  type AucEstimate,
  type AucJob,
} from "./common.js";
import { aucColumnsOf, populationColumns, scoredColumns, type PopulationColumns } from "./population-columns.js";
/** RQ1's paired ΔAUC as a job (analysis/rq/jobs.ts). */
export interface PairedJob {
  kind: "paired";
  columns: PairedColumns;
  methods: [string, string];
  settings: BootstrapSettings;
}

type Rq1Job = AucJob | PairedJob;

/** Runs one of RQ1's jobs on this thread. */
const runRq1Job = (job: Rq1Job) =>
  job.kind === "auc"
    ? aucWithCIColumns(job.method, job.columns, job.settings, job.figure)
    : pairedAucColumns(job.columns, job.methods, job.settings);
import { methodScoreMaps } from "./method-scores.js";
import { isOutcomeFree, NOT_OUTCOME_FREE } from "./outcome-free.js";
import { judgeAgreement, type JudgeAgreement } from "./judge-agreement.js";
import { isBinary, type PreparedStore } from "./prepared.js";
import type { TrajectoryFrame } from "./trajectory-frame.js";

export interface PairedDelta {
  available: true;
  methods: [string, string];
  n: number;
  tasks: number;
  auc_a: number;
  auc_b: number;
  delta: number;
  /** Null, with `ci_reason`, when not estimable (contract rule 14). */
  ci: [number, number] | null;
  ci_reason?: string;
  few_clusters: boolean;
  positive_share: number | null;
  bootstrap: BootstrapDescriptor | null;
  /** The ΔAUC draws, for the Figure 4A histogram. */
  draws: number[];
  /** Obuchowski's paired clustered test of ΔAUC = 0 (Wald CI, two-sided p); null fields with a reason. */
  test: { se: number | null; z: number | null; p: number | null; ci: [number, number] | null; reason?: string };
}

export interface Rq1Result {
  population: string;
  estimator: string;
  auc: AucEstimate[];
  paired: PairedDelta | NotAvailable;
  by_condition: AucEstimate[];
  /** Agreement of the store's holistic judges (method scores judge:…) with each other, task-clustered CI. */
  judge_agreement: JudgeAgreement | NotAvailable;
}

/**
 * RQ1 (paper §4.2, contract "RQ1"): AUC of each log-only scorer on its own
 * available sample, paired ΔAUC = AUC(gcpc) − AUC(holistic) on the shared
 * subset (both AUCs recomputed on each draw), and AUC(gcpc) by condition.
 * Outcome-inclusive scores are excluded: they contain the label.
 */
export function rq1Discrimination(p: PreparedStore, settings: BootstrapSettings, pairedWith = "holistic"): Rq1Result {
  const plan = rq1Plan(p, settings, pairedWith);
  return plan.assemble(plan.jobs.map(runRq1Job));
}

/**
 * RQ1 as jobs (analysis/rq/jobs.ts) and the function that builds the result from their results, in order.
 * `stored`, when given, holds the stored methods' AUC jobs already started from the store's trajectory
 * frame ({@link rq1StoredJobs}); the plan then leaves them out, and `assemble` takes their results too.
 */
export function rq1Plan(
  p: PreparedStore,
  settings: BootstrapSettings,
  pairedWith = "holistic",
  stored: readonly AucJob[] = [],
): { jobs: Rq1Job[]; assemble: (results: readonly unknown[], storedResults?: readonly unknown[]) => Rq1Result } {
  const pop = populationColumns(p, isBinary);
  const maps = methodScoreMaps(p);
  const gcpc = maps.get("gcpc")!;
  const other = maps.get(pairedWith);
  const all = () => true;
  // Every interval of RQ1 is one job (analysis/rq/jobs.ts), so a runner can share them between threads.
  const started = new Map(stored.map((job, k) => [job.method, k]));
  const methods = logOnlyMethods(maps);
  const methodJobs = aucJobs(
    pop,
    methods.filter(([method]) => !started.has(method)),
    headline(settings),
  );
  const conditionJobs: AucJob[] = (["none", "curated", "self_generated"] as const).flatMap((condition) => {
    const columns = aucColumnsOf(pop, (i) => pop.trajectories[i].condition === condition, gcpc);
    const figure = `rq1:condition:${condition}`;
    const method = `gcpc (${condition})`;
    const job = { kind: "auc" as const, method, columns, settings: headline(settings), figure };
    return columns.scores.length === 0 ? [] : [job];
  });
  const pairedJob: PairedJob[] = [];
  if (p.hasJudgments && other) {
    const { values, ...rest } = scoredColumns(pop, all, [gcpc, other]);
    const columns = { a: values[0], b: values[1], ...rest };
    pairedJob.push({ kind: "paired", columns, methods: ["gcpc", pairedWith], settings: headline(settings) });
  }
  const jobs = [...methodJobs, ...conditionJobs, ...pairedJob];
  pop.scored.clear(); // the jobs hold their own columns; `assemble` below shares this scope
  return {
    jobs,
    assemble(results, storedResults = []) {
      // Each method's estimate in the maps' order, from the stored jobs' results or the plan's own.
      let late = 0;
      const byMethod = methods.map(([method]) => {
        const k = started.get(method);
        return k === undefined ? results[late++] : storedResults[k];
      });
      const all = [...byMethod, ...results.slice(late)];
      return assembleRq1(p, all, { methods: methods.length, conditions: conditionJobs.length, pairedWith, settings });
    },
  };
}

function assembleRq1(
  p: PreparedStore,
  results: readonly unknown[],
  o: { methods: number; conditions: number; pairedWith: string; settings: BootstrapSettings },
): Rq1Result {
  const { methods, conditions, pairedWith } = o;
  const judge_agreement = judgeAgreement(p, o.settings);
  const other = methodScoreMaps(p).get(pairedWith);
  const auc = notedAuc(p, results.slice(0, methods) as AucEstimate[]);
  const by_condition = notedAuc(p, results.slice(methods, methods + conditions) as AucEstimate[]);
  if (!p.hasJudgments)
    return {
      population: "deduplicated binary-outcome trajectories",
      estimator: estimatorNaming(AUC_ESTIMATOR, o.settings.interval),
      auc,
      paired: notAvailable("the store holds no judgments"),
      by_condition,
      judge_agreement,
    };
  return {
    population: "deduplicated binary-outcome trajectories; own available sample per method (gcpc: not zero-evidence)",
    estimator: estimatorNaming(AUC_ESTIMATOR, o.settings.interval),
    auc,
    paired: other
      ? (results[results.length - 1] as PairedDelta | NotAvailable)
      : notAvailable(`no method_scores for '${pairedWith}'`),
    by_condition,
    judge_agreement,
  };
}

/**
 * The AUC jobs of the stored methods (method_scores and the verifier's test share), which read only the
 * trajectory frame: the CLI starts them while the judgments are still being read. A stored method named
 * like a computed score (gcpc, gcpc_outcome) is left to {@link rq1Plan}, where it replaces that score.
 */
export function rq1StoredJobs(frame: TrajectoryFrame, settings: BootstrapSettings): AucJob[] {
  const pop = populationColumns(frame, isBinary);
  const methods = logOnlyMethods(frame.storedScores).filter(([method]) => !COMPUTED.includes(method));
  return aucJobs(pop, methods, headline(settings));
}

/** The scores computed from the judgments (methodScoreMaps), before the stored ones. */
const COMPUTED = ["gcpc", "gcpc_outcome"];

/** The methods RQ1 reports an AUC for: all but the outcome-inclusive score, which contains the label. */
const logOnlyMethods = (maps: ReadonlyMap<string, ScoreLookup>) =>
  [...maps].filter(([method]) => method !== "gcpc_outcome");

/** One AUC job per method, on its own available sample. */
function aucJobs(
  pop: PopulationColumns,
  methods: readonly [string, ScoreLookup][],
  settings: BootstrapSettings,
): AucJob[] {
  return methods.map(([method, scores]) => ({
    kind: "auc" as const,
    method,
    columns: aucColumnsOf(pop, () => true, scores),
    settings,
    figure: `rq1:auc:${method}`,
  }));
}

/** What every format prints beside an AUC whose score is computed from items that decide the outcome. */
export { NOT_OUTCOME_FREE } from "./outcome-free.js";

function notedAuc(p: PreparedStore, auc: AucEstimate[]): AucEstimate[] {
  for (const estimate of auc) {
    estimate.outcome_free = isOutcomeFree(p, estimate.method);
    // verifier_tests reads the official verifier: shown, but flagged as not outcome-free.
    if (estimate.method === "verifier_tests")
      estimate.note = "reads the official verifier's per-test results: not an outcome-free score";
    else if (estimate.method === "gcpc" && !p.hasJudgments)
      estimate.note = "not available: the store holds no judgments";
    else if (estimate.method === "gcpc" && p.unweightedGcpc)
      estimate.note = "weighted: Σ w·grade / Σ w over the applicable decided items (unweighted: gcpc (unweighted))";
    else if (!estimate.outcome_free) estimate.note = NOT_OUTCOME_FREE + (estimate.note ? `; ${estimate.note}` : "");
  }
  return auc;
}

/**
 * Whether a method's score is outcome-free: GCPC unless every item it counts enters the outcome; the
 * all-items GCPC of a store of both kinds and the verifier's test share never; a stored method score is
 * taken as the store gives it (built upstream, not from the store's items).
 */
/**
 * The paired comparison of two scores on the same trajectories (RQ1's ΔAUC): both AUCs on each
 * task-clustered draw, and Obuchowski's paired clustered test. Also what the site's Compare page runs
 * in the browser (analysis/browser.ts), so both give the same numbers for the same rows and seed.
 */
export function pairedAucComparison(
  rows: ReadonlyArray<{ a: number; b: number; pass: boolean; task: string }>,
  methods: [string, string],
  settings: BootstrapSettings,
): PairedDelta | NotAvailable {
  return pairedAucColumns(pairedColumns(rows), methods, settings);
}

/** Both scores of the shared trajectories as columns (what a paired job carries; see AucColumns). */
export interface PairedColumns {
  a: Float64Array;
  b: Float64Array;
  pass: Uint8Array;
  clusterOf: Int32Array;
  clusters: number;
}

function pairedColumns(rows: ReadonlyArray<{ a: number; b: number; pass: boolean; task: string }>): PairedColumns {
  const { clusterOf, clusters } = taskClusters(rows.map((r) => r.task));
  return {
    a: Float64Array.from(rows, (r) => r.a),
    b: Float64Array.from(rows, (r) => r.b),
    pass: Uint8Array.from(rows, (r) => (r.pass ? 1 : 0)),
    clusterOf,
    clusters,
  };
}

/** {@link pairedAucComparison} on columns. */
export function pairedAucColumns(
  columns: PairedColumns,
  methods: [string, string],
  settings: BootstrapSettings,
): PairedDelta | NotAvailable {
  const pass = columns.pass;
  const n = pass.length;
  if (!pass.includes(1) || !pass.includes(0))
    return notAvailable(`shared subset of ${methods.join(" and ")} has ${n} trajectories and not both outcome classes`);
  const { clusterOf, clusters } = columns;
  const scoresA = columns.a;
  const scoresB = columns.b;
  const aucA = new ClusteredAuc(scoresA, pass, clusterOf, clusters);
  const aucB = new ClusteredAuc(scoresB, pass, clusterOf, clusters);
  const [estA, estB] = [aucA.estimate(), aucB.estimate()];
  const ob = pairedObuchowskiTest(scoresA, scoresB, pass, clusterOf, settings.level);
  const test = {
    se: finite(ob.se),
    z: finite(ob.z),
    p: finite(ob.p),
    ci: finiteCI(ob.ci),
    ...(ob.reason ? { reason: ob.reason } : {}),
  };
  const base = { available: true as const, methods, n, tasks: clusters, auc_a: estA, auc_b: estB };
  const few_clusters = clusters < FEW_CLUSTERS;
  const problem = clusterIntervalProblem(pass, clusterOf, clusters);
  if (problem) {
    const none = { positive_share: null, bootstrap: null, draws: [] };
    return { ...base, delta: estA - estB, ci: null, ci_reason: problem, few_clusters, ...none, test };
  }
  const res = bootstrapIntervals({
    settings,
    figure: `rq1:paired:${methods.join("-")}`,
    clusters,
    estimator: "paired ΔAUC, both AUCs on the same task-clustered draw; percentile (type-7)",
    accept: (w) => aucA.hasBothClasses(w),
    statistics: { delta: (w) => aucA.evaluateDraw(w) - aucB.evaluateDraw(w) },
    ...(settings.interval === "studentized"
      ? {
          standardErrors: {
            delta: pairedDeltaDrawSe(
              new DrawComponents(scoresA, pass, clusterOf, clusters),
              new DrawComponents(scoresB, pass, clusterOf, clusters),
            ),
          },
        }
      : {}),
  });
  return {
    ...base,
    delta: estA - estB,
    ci: res.ci.delta,
    few_clusters,
    positive_share: shareAbove(res.draws.delta, 0),
    bootstrap: res.bootstrap,
    draws: Array.from(res.draws.delta),
    test,
  };
}
