import { ClusteredSeparation, type SeparationSums } from "../stats/separation.js";
import type { AbstentionRule, OutcomeStep } from "../scoring/official-outcome.js";
import {
  bootstrapIntervals,
  degenerateMark,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { taskClusters, type AucEstimate } from "./common.js";
import { compareCodePoints } from "../order.js";
import { gcpcIsOutcomeFree, isBinary, type PreparedStore } from "./prepared.js";
/** One separation's interval as a job (analysis/rq/jobs.ts): its per-task sums, not its rows. */
export interface SeparationJob {
  kind: "separation";
  sums: SeparationSums;
  settings: BootstrapSettings;
  figure: string;
}

export interface SeparationRow {
  variant: string;
  design: string;
  n: number;
  n_pass: number;
  n_fail: number;
  separation: number | null;
  /** Separation minus the first row's (the plain baseline). */
  increment: number | null;
  ci: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
  /** Tasks of the population: the clusters the interval resamples. */
  tasks: number;
  /**
   * False when the variant reads the official outcome (endpoint, propagation, per-test results) or scores
   * outcome-determining items: its separation of PASS from FAIL is then partly the outcome itself.
   */
  outcome_free: boolean;
  /** Fewer than 10 tasks: the interval is shown, but its coverage falls below nominal (contract rule 14). */
  few_clusters: boolean;
  degenerate?: true;
}

export interface Rq4Result {
  /** Panel A: descriptive AUC per method on its own sample (the RQ1 rows). */
  checklist: AucEstimate[];
  /** Panel B: official-outcome step ablation on the same trajectories. */
  outcome_step: SeparationRow[] | NotAvailable;
  /** Panel C: primary (Abstain excluded) vs forced verdict (Abstain → No), with and without official outcome. */
  abstention: SeparationRow[] | NotAvailable;
  evidence_replacement:
    | { n: number; strict_share: number | null; incl_abstain_share: number | null; rows_total: number }
    | NotAvailable;
  idle_floor: { n: number; zero: number; undefined_gcpc: number; values: (number | null)[] } | NotAvailable;
  schema_audit: { scheme: string; n: number; covered: number; covered_share: number | null }[] | NotAvailable;
  /** Paper §3.4: how often Perfect agrees with the official outcome, endpoint excluded (the definition) and
   * included. */
  perfect_agreement: { n: number; without_endpoint: number | null; with_endpoint: number | null } | NotAvailable;
}

export const OUTCOME_STEP_VARIANTS: { variant: string; design: string; step: OutcomeStep }[] = [
  {
    variant: "none",
    design: "GCPC (no official outcome): endpoint off, propagation off",
    step: { endpoint: false, propagation: false },
  },
  { variant: "endpoint", design: "Endpoint only", step: { endpoint: true, propagation: false } },
  { variant: "propagation", design: "Propagation only", step: { endpoint: false, propagation: true } },
  {
    variant: "both",
    design: "Both operations (GCPC with official outcome)",
    step: { endpoint: true, propagation: true },
  },
];

/** Extension rows, shown when the store has verifier_results: per-test propagation on FAIL. */
export const PER_TEST_VARIANTS: { variant: string; design: string; step: OutcomeStep }[] = [
  {
    variant: "per_test",
    design: "Per-test propagation: PASS propagation, and on FAIL assertion items set from their test's CTRF status",
    step: { endpoint: false, propagation: true, perTest: true },
  },
  {
    variant: "per_test_both",
    design: "Per-test propagation + endpoint",
    step: { endpoint: true, propagation: true, perTest: true },
  },
];

type SeparationVariant = { variant: string; design: string; step: OutcomeStep; abstention?: AbstentionRule };

/**
 * PASS–FAIL separation of each score variant on the same trajectories; each task-clustered CI is a job
 * (analysis/rq/jobs.ts) carrying the variant's per-task sums, filled in by `assemble` (ci and bootstrap
 * stay null where there are fewer than 2 tasks).
 */
function separationRows(
  p: PreparedStore,
  { pop, popSlots }: { pop: PreparedStore["trajectories"]; popSlots: Int32Array },
  variants: SeparationVariant[],
  o: { settings: BootstrapSettings; figure: string },
): { rows: SeparationRow[]; jobs: SeparationJob[] } | NotAvailable {
  const pass = pop.map((t) => t.outcome === "PASS");
  let nPass = 0;
  for (const x of pass) if (x) nPass++;
  if (nPass === 0 || nPass === pop.length)
    return notAvailable(`needs PASS and FAIL trajectories with plain GCPC defined (have ${pop.length})`);
  const { clusterOf, clusters } = taskClusters(pop.map((t) => t.task_id));
  const rows: SeparationRow[] = [];
  const jobs: SeparationJob[] = [];
  // Every variant's scores in one pass over the trajectories (each one's labels read once).
  const byVariant = p.scoreColumns(pop, variants, popSlots);
  for (const [vi, v] of variants.entries()) {
    const sep = new ClusteredSeparation(byVariant[vi], pass, clusterOf, clusters);
    const estimate = sep.estimate();
    if (clusters >= 2)
      jobs.push({ kind: "separation", sums: sep.sums, settings: o.settings, figure: `${o.figure}:${v.variant}` });
    rows.push({
      variant: v.variant,
      design: v.design,
      n: pop.length,
      n_pass: nPass,
      n_fail: pop.length - nPass,
      separation: estimate,
      increment: rows.length ? estimate - rows[0].separation! : 0,
      ci: null,
      bootstrap: null,
      tasks: clusters,
      few_clusters: clusters < FEW_CLUSTERS,
      outcome_free: gcpcIsOutcomeFree(p) && !v.step.endpoint && !v.step.propagation && !v.step.perTest,
    });
  }
  return { rows, jobs };
}

/** A separation's task-clustered percentile interval, from its per-task sums (a job of analysis/rq/jobs.ts). */
export function separationInterval(job: { sums: SeparationSums; settings: BootstrapSettings; figure: string }) {
  const sep = ClusteredSeparation.fromSums(job.sums);
  const interval = bootstrapIntervals({
    settings: job.settings,
    figure: job.figure,
    clusters: sep.clusters,
    estimator: "mean(PASS) − mean(FAIL); task-clustered percentile bootstrap (type-7)",
    statistics: { s: (w) => sep.evaluate(w) },
  });
  return { ci: interval.ci.s, bootstrap: interval.bootstrap, ...degenerateMark(interval.bootstrap) };
}

export type SeparationInterval = ReturnType<typeof separationInterval>;

/** RQ4 (paper §4.5, Table 3). Population: deduplicated binary trajectories with plain GCPC defined (rule 7). */
export function rq4Ablations(p: PreparedStore, settings: BootstrapSettings, checklist: AucEstimate[]): Rq4Result {
  const plan = rq4Plan(p, settings, checklist);
  return plan.assemble(plan.jobs.map(separationInterval));
}

/**
 * RQ4 with its separations' intervals as jobs, and the function that builds the result from their
 * results, in order (the report starts them on the other thread and computes RQ5 meanwhile).
 */
export function rq4Plan(
  p: PreparedStore,
  settings: BootstrapSettings,
  checklist: AucEstimate[],
): { jobs: SeparationJob[]; assemble: (results: readonly unknown[]) => Rq4Result } {
  // By slot: trajectories[k]'s metrics are metrics.atSlot(k), and its scores are read with k (scoreColumns),
  // with no lookup of its id.
  const kept: number[] = [];
  for (const [k, t] of p.trajectories.entries()) if (isBinary(t) && !p.metrics.atSlot(k).zero_evidence) kept.push(k);
  const popSlots = Int32Array.from(kept);
  const pop = Array.from(popSlots, (k) => p.trajectories[k]);
  const separations = (variants: SeparationVariant[], figure: string) =>
    separationRows(p, { pop, popSlots }, variants, { settings, figure });
  if (!p.hasJudgments) {
    const na = notAvailable("the store holds no judgments (outcome-only store)");
    const result: Rq4Result = {
      checklist,
      outcome_step: na,
      abstention: na,
      evidence_replacement: na,
      idle_floor: na,
      schema_audit: notAvailable("no schema_audit table"),
      perfect_agreement: na,
    };
    return { jobs: [], assemble: () => result };
  }
  const variants = p.testResults.size > 0 ? [...OUTCOME_STEP_VARIANTS, ...PER_TEST_VARIANTS] : OUTCOME_STEP_VARIANTS;
  const outcome_step = separations(variants, "rq4:outcome_step");
  const abstention = separations(ABSTENTION_VARIANTS, "rq4:abstention");
  const rest = {
    evidence_replacement: evidenceReplacement(p),
    idle_floor: idleFloor(p),
    schema_audit: schemaAudit(p),
    perfect_agreement: perfectAgreement(p),
  };
  const planned = [outcome_step, abstention];
  const jobs = planned.flatMap((x) => ("available" in x ? [] : x.jobs));
  const assemble = (results: readonly unknown[]): Rq4Result => {
    let next = 0;
    // Rows with a job take its interval, in job order; the others keep ci and bootstrap null.
    const filled = (x: typeof outcome_step) =>
      "available" in x
        ? x
        : x.rows.map((row) => (x.jobs.length ? { ...row, ...(results[next++] as SeparationInterval) } : row));
    return { checklist, outcome_step: filled(outcome_step), abstention: filled(abstention), ...rest };
  };
  return { jobs, assemble };
}

const WITH_OUTCOME = { endpoint: true, propagation: true };
const PLAIN_STEP = { endpoint: false, propagation: false };
const ABSTENTION_VARIANTS: SeparationVariant[] = [
  { variant: "primary", design: "Primary rule: Abstain excluded (with official outcome)", step: WITH_OUTCOME },
  {
    variant: "forced",
    design: "Forced verdict: every Abstain → No (with official outcome)",
    step: WITH_OUTCOME,
    abstention: "forced_no",
  },
  { variant: "primary_plain", design: "Primary rule, plain GCPC", step: PLAIN_STEP },
  { variant: "forced_plain", design: "Forced verdict, plain GCPC", step: PLAIN_STEP, abstention: "forced_no" },
];

/** Evidence replacement (§4.5): shares of Yes items that turn No (or No/Abstain) once the evidence is replaced. */
function evidenceReplacement(p: PreparedStore): Rq4Result["evidence_replacement"] {
  const er = p.store.evidence_replacements;
  if (!er) return notAvailable("no evidence_replacements table");
  const yes = er.filter((r) => r.before === "Yes");
  const strict = yes.filter((r) => r.after === "No").length;
  const incl = yes.filter((r) => r.after === "No" || r.after === "Abstain").length;
  return {
    n: yes.length,
    strict_share: yes.length ? strict / yes.length : null,
    incl_abstain_share: yes.length ? incl / yes.length : null,
    rows_total: er.length,
  };
}

/** The idle-agent floor (§3.4): trajectories tagged idle should score GCPC = 0. */
function idleFloor(p: PreparedStore): Rq4Result["idle_floor"] {
  const idle = p.trajectories.filter((t) => t.tags?.includes("idle"));
  if (!idle.length) return notAvailable("no trajectories tagged 'idle'");
  const metrics = idle.map((t) => p.metrics.get(t.trajectory_id)!);
  return {
    n: idle.length,
    zero: metrics.filter((m) => m.gcpc === 0).length,
    undefined_gcpc: metrics.filter((m) => m.zero_evidence).length,
    values: metrics.map((m) => finite(m.gcpc)),
  };
}

function schemaAudit(p: PreparedStore): Rq4Result["schema_audit"] {
  const sa = p.store.schema_audit;
  if (!sa) return notAvailable("no schema_audit table");
  return [...new Set(sa.map((r) => r.scheme))].sort(compareCodePoints).map((scheme) => {
    const rows = sa.filter((r) => r.scheme === scheme);
    const covered = rows.filter((r) => r.covered).length;
    return { scheme, n: rows.length, covered, covered_share: rows.length ? covered / rows.length : null };
  });
}

/** Perfect vs the official outcome on deduplicated binary trajectories (zero-evidence included: Perfect is defined). */
function perfectAgreement(p: PreparedStore): Rq4Result["perfect_agreement"] {
  let n = 0;
  let agreeWithout = 0;
  let agreeWith = 0;
  for (const [k, t] of p.trajectories.entries()) {
    if (!isBinary(t)) continue;
    n++;
    const perfect = p.metrics.atSlot(k).perfect === 1;
    const pass = t.outcome === "PASS";
    if (perfect === pass) agreeWithout++;
    if ((perfect && pass) === pass) agreeWith++; // the endpoint is No on FAIL, so only a PASS can stay perfect
  }
  if (n === 0) return notAvailable("no binary-outcome trajectories");
  return { n, without_endpoint: agreeWithout / n, with_endpoint: agreeWith / n };
}
