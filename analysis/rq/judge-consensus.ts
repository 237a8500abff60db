// `gcpc consensus` (issue 58.2): several judges of the same items, few or no human labels. Dawid–Skene
// (analysis/stats/dawid-skene.ts) estimates each judge's sensitivity and specificity per item category without
// requiring a human label, anchored by the reference judge's labels where store.json names one; the latent
// consensus gives each trajectory a consensus credit, set beside the majority vote's.
import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { seedFor } from "../estimates/bootstrap-interval.js";
import { clusterDraws } from "../stats/cluster-draws.js";
import { percentileCI } from "../stats/bootstrap.js";
import { expandedPercentileLevel } from "../stats/expanded-percentile.js";
import { gradeAt, gradeChar } from "../schema/grades.js";
import type { LabelRun } from "../schema/label-vectors.js";
import { dawidSkene, majority, type DsUnits } from "../stats/dawid-skene.js";
import { compareCodePoints } from "../order.js";
import { mean } from "../stats/shares.js";
import { prepareStore, type PreparedStore } from "./prepared.js";
import type { StoreFrame } from "../schema/store.js";

export const CONSENSUS_ESTIMATORS = {
  model:
    "Dawid & Skene (1979), two classes: each (trajectory, item) has an unseen true verdict; each judge says Yes on a " +
    "true Yes with its sensitivity and No on a true No with its specificity, independently given the truth; rates " +
    "and the share of true Yes per item category; EM from the majority vote, to 1e-10 or 1,000 rounds",
  labels:
    "each judge's first run; Yes and No only (Abstain, NotApplicable and grades strictly between 0 and 1 are not " +
    "decided); where store.json names a reference judge with labels, its Yes/No fixes the truth of that unit (an " +
    "anchor) and it is not one of the judges estimated",
  interval:
    "task-clustered expanded percentile bootstrap (Hesterberg 2015, on the number of tasks): tasks resampled with " +
    "all their units, the model fitted again on each " +
    "draw (EM started from the sample's fit); a draw on which a rate is undefined is left out of its interval " +
    "(none when fewer than half are kept)",
  consensus:
    "a trajectory's consensus credit: the mean P(true Yes) over its items some judge decided; the majority " +
    "credit: the mean over the same items of the majority vote (a tie counts ½)",
} as const;

/** Refits of the model behind each rate's interval, `gcpc consensus`'s and the site's default: each refits EM. */
export const CONSENSUS_RESAMPLES = 200;

export interface JudgeRates {
  judge: string;
  category: string;
  /** Units of the category the judge decided. */
  decided: number;
  sensitivity: number | null;
  sensitivity_ci: [number, number] | null;
  specificity: number | null;
  specificity_ci: [number, number] | null;
  /** Of the resamples, those on which each rate was defined (its interval's draws; half at least, else none). */
  defined_draws: [number, number];
}

export interface ConsensusReport {
  judges: string[];
  reference_judge: string | null;
  units: number;
  anchored: number;
  categories: { category: string; units: number; prior: number | null }[];
  rates: JudgeRates[];
  converged: boolean;
  rounds: number;
  /** Units whose majority vote (no tie) and consensus (P ≠ ½) disagree. */
  majority_disagreements: number;
  majority_decided: number;
  mean_consensus_credit: number | null;
  mean_majority_credit: number | null;
  trajectories: { trajectory_id: string; consensus_credit: number; majority_credit: number }[];
  estimators: typeof CONSENSUS_ESTIMATORS;
}

/** What a fit reads: the units, and for each its task (the bootstrap's cluster) and trajectory. */
export interface Built {
  units: DsUnits;
  task: Int32Array;
  trajectory: Int32Array;
  /** Per unit: the item's position in its task's checklist. */
  item: Int32Array;
  tasks: string[];
  categories: string[];
}

/** Every (trajectory, item) some judge (or the reference) labelled, with each judge's Yes (1), No (0) or −1. */
export function buildUnits(p: PreparedStore, judges: string[], reference: string | null): Built {
  const labels: number[] = [];
  const stratum: number[] = [];
  const anchor: number[] = [];
  const task: number[] = [];
  const trajectory: number[] = [];
  const item: number[] = [];
  const taskIndex = new Map<string, number>();
  const categoryIndex = new Map<string, number>();
  const binary = (g: number) => (g === 1 ? 1 : g === 0 ? 0 : -1);
  p.trajectories.forEach((t, k) => {
    const items = p.checklist.get(t.task_id) ?? [];
    const runs = judges.map((j) => p.labelsAt(k, j));
    const ref = reference ? p.labelsAt(k, reference) : undefined;
    items.forEach((it, i) => {
      const row = runs.map((l) => (l === undefined ? -1 : binary(gradeAt(l, i))));
      const r = ref === undefined ? -1 : binary(gradeAt(ref, i));
      if (row.every((x) => x < 0) && r < 0) return;
      const category = it.group ?? it.category ?? "all";
      if (!categoryIndex.has(category)) categoryIndex.set(category, categoryIndex.size);
      if (!taskIndex.has(t.task_id)) taskIndex.set(t.task_id, taskIndex.size);
      labels.push(...row);
      stratum.push(categoryIndex.get(category)!);
      anchor.push(r);
      task.push(taskIndex.get(t.task_id)!);
      trajectory.push(k);
      item.push(i);
    });
  });
  return {
    units: {
      labels: Int8Array.from(labels),
      judges: judges.length,
      stratum: Int32Array.from(stratum),
      strata: categoryIndex.size,
      reference: Int8Array.from(anchor),
    },
    task: Int32Array.from(task),
    trajectory: Int32Array.from(trajectory),
    item: Int32Array.from(item),
    tasks: [...taskIndex.keys()],
    categories: [...categoryIndex.keys()],
  };
}

/** The judges a consensus estimates (every judge but the reference), and the reference judge with labels. */
export function consensusJudges(p: PreparedStore): { judges: string[]; reference: string | null } {
  const named = p.store.manifest.reference_judge ?? null;
  const reference = named && p.counts.judges.includes(named) ? named : null;
  return { judges: p.counts.judges.filter((j) => j !== reference).sort(compareCodePoints), reference };
}

/**
 * The store's judges' error rates per category and the consensus; null when fewer than two judges (other than the
 * reference) labelled the store and no reference judge did.
 */
export function consensusReport(p: PreparedStore, settings: BootstrapSettings): ConsensusReport | null {
  const { judges, reference } = consensusJudges(p);
  // Two judges, or one anchored by the reference's labels: with one and no anchor nothing separates its errors
  // from the truth.
  if (judges.length < (reference ? 1 : 2)) return null;
  const b = buildUnits(p, judges, reference);
  const fit = dawidSkene(b.units);
  const rates = rateIntervals(b, fit, judges, settings);
  return { judges, reference_judge: reference, ...summary(p, b, fit), rates, estimators: CONSENSUS_ESTIMATORS };
}

/**
 * Each (judge, category)'s rates with their task-bootstrap intervals: the model refitted on every draw of tasks.
 * A draw whose tasks leave a rate undefined (no true Yes, or no true No, of the category) is left out of that
 * rate's interval; `defined_draws` says how many were kept.
 */
function rateIntervals(
  b: Built,
  fit: ReturnType<typeof dawidSkene>,
  judges: string[],
  settings: BootstrapSettings,
): JudgeRates[] {
  const n = b.task.length;
  const S = b.categories.length;
  const J = judges.length;
  const B = b.tasks.length >= 2 ? settings.resamples : 0;
  const se = Array.from({ length: S * J }, () => new Float64Array(B));
  const sp = Array.from({ length: S * J }, () => new Float64Array(B));
  const draws = clusterDraws(seedFor(settings, "consensus:rates"), b.tasks.length);
  const taskWeights = new Float64Array(b.tasks.length);
  const unitWeights = new Float64Array(n);
  for (let d = 0; d < B; d++) {
    draws.draw(taskWeights);
    for (let i = 0; i < n; i++) unitWeights[i] = taskWeights[b.task[i]];
    const f = dawidSkene(b.units, unitWeights, fit);
    for (let s = 0; s < S; s++)
      for (let j = 0; j < J; j++) {
        se[s * J + j][d] = f.sensitivity[s][j];
        sp[s * J + j][d] = f.specificity[s][j];
      }
  }
  const interval = (values: Float64Array) => rateInterval(values, settings.level, b.tasks.length);
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  return b.categories.flatMap((category, s) =>
    judges.map((judge, j) => {
      let decided = 0;
      for (let i = 0; i < n; i++) if (b.units.stratum[i] === s && b.units.labels[i * J + j] >= 0) decided++;
      return {
        judge,
        category,
        decided,
        sensitivity: finite(fit.sensitivity[s][j]),
        sensitivity_ci: finite(fit.sensitivity[s][j]) === null ? null : interval(se[s * J + j]),
        specificity: finite(fit.specificity[s][j]),
        specificity_ci: finite(fit.specificity[s][j]) === null ? null : interval(sp[s * J + j]),
        defined_draws: [se[s * J + j].filter(Number.isFinite).length, sp[s * J + j].filter(Number.isFinite).length],
      };
    }),
  );
}

/**
 * A rate's interval from its bootstrap draws over `tasks` tasks: the draws where it is defined, read as an expanded
 * percentile interval (Hesterberg 2015) on the number of tasks; null when fewer than half the draws (or 2) define
 * it. The plain percentile interval covered 90.8–93.0% at 95% over 40 tasks (bench/consensus-coverage.ts 400 100).
 */
export function rateInterval(draws: Float64Array, level: number, tasks: number): [number, number] | null {
  const kept = draws.filter(Number.isFinite);
  if (!(kept.length >= Math.max(2, draws.length / 2)) || tasks < 2) return null;
  return percentileCI(kept, expandedPercentileLevel(level, tasks));
}

/** Units, anchors, priors, the consensus and majority credits per trajectory, and where the two disagree. */
function summary(p: PreparedStore, b: Built, fit: ReturnType<typeof dawidSkene>) {
  const perTrajectory = new Map<number, { c: number; v: number; n: number }>();
  let disagree = 0;
  let decided = 0;
  for (let i = 0; i < b.task.length; i++) {
    // The model's own starting point (dawid-skene.ts majority): NaN where no judge decided.
    const vote = majority(b.units, i);
    const post = fit.posterior[i];
    if (Number.isNaN(vote) || Number.isNaN(post)) continue;
    if (vote !== 0.5 && post !== 0.5) {
      decided++;
      if ((vote === 1) !== post > 0.5) disagree++;
    }
    const acc = perTrajectory.get(b.trajectory[i]) ?? { c: 0, v: 0, n: 0 };
    acc.c += post;
    acc.v += vote;
    acc.n++;
    perTrajectory.set(b.trajectory[i], acc);
  }
  const trajectories = [...perTrajectory.entries()]
    .sort(([a], [c]) => a - c)
    .map(([k, a]) => ({
      trajectory_id: p.trajectories[k].trajectory_id,
      consensus_credit: a.c / a.n,
      majority_credit: a.v / a.n,
    }));
  const meanOrNull = (xs: number[]) => (xs.length ? mean(xs) : null);
  return {
    units: b.task.length,
    anchored: b.units.reference.filter((r) => r >= 0).length,
    categories: b.categories.map((category, s) => ({
      category,
      units: b.units.stratum.filter((x) => x === s).length,
      prior: Number.isFinite(fit.prior[s]) ? fit.prior[s] : null,
    })),
    converged: fit.converged,
    rounds: fit.rounds,
    majority_disagreements: disagree,
    majority_decided: decided,
    mean_consensus_credit: meanOrNull(trajectories.map((t) => t.consensus_credit)),
    mean_majority_credit: meanOrNull(trajectories.map((t) => t.majority_credit)),
    trajectories,
  };
}

/** The name `--judge consensus` scores by (unless the store has a judge of that name). */
export const CONSENSUS_JUDGE = "consensus";

/**
 * The store's label vectors with one more judge, "consensus": each trajectory's run 1 grades every item some judge
 * decided by its Dawid–Skene posterior P(true Yes) (a grade in [0, 1]; "." where none decided), so a trajectory's
 * GCPC under it is its consensus credit and `--judge consensus` scores by the latent consensus (issue 58.2).
 * Undefined when the consensus cannot be estimated (consensusReport's rule) or a judge of that name exists.
 *
 * `anchored: false` leaves the reference judge's labels out of the fit altogether (two judges then needed): the
 * consensus as the prediction of a judge-corrected estimate must not see the labels the estimate corrects with,
 * or prediction-powered inference loses its guarantee (Angelopoulos et al. 2023 assume a prediction rule fixed
 * independently of the labelled sample); an anchored consensus equals the reference wherever it labelled.
 */
export function consensusLabelRuns(p: PreparedStore, anchored = true): Map<string, LabelRun> | undefined {
  if (p.counts.judges.includes(CONSENSUS_JUDGE)) return undefined;
  const { judges, reference: named } = consensusJudges(p);
  const reference = anchored ? named : null;
  if (judges.length < (reference ? 1 : 2)) return undefined;
  const b = buildUnits(p, judges, reference);
  const fit = dawidSkene(b.units);
  const chars = new Map<number, string[]>();
  for (let i = 0; i < b.trajectory.length; i++) {
    const post = fit.posterior[i];
    if (Number.isNaN(post)) continue;
    const k = b.trajectory[i];
    let row = chars.get(k);
    if (!row) {
      row = new Array<string>(p.checklist.get(p.trajectories[k].task_id)?.length ?? 0).fill(".");
      chars.set(k, row);
    }
    row[b.item[i]] = gradeChar(post);
  }
  return new Map(
    [...chars].map(([k, row]) => [
      p.trajectories[k].trajectory_id,
      { judge: CONSENSUS_JUDGE, run: 1, labels: row.join("") },
    ]),
  );
}

/**
 * The store with the consensus as one more judge (consensusLabelRuns), prepared; the store as it was, prepared,
 * when the consensus cannot be estimated or the store has a judge of that name (`--judge consensus` then says so
 * or scores by that judge).
 */
export function preparedWithConsensus(store: StoreFrame, anchored = true): PreparedStore {
  const p = prepareStore(store);
  const added = consensusLabelRuns(p, anchored);
  if (!added) return p;
  const runs = new Map<string, LabelRun[]>();
  for (const [id, list] of store.labels.runs) runs.set(id, [...list]);
  for (const [id, run] of added) runs.set(id, [...(runs.get(id) ?? []), run]);
  return prepareStore({ ...store, labels: { judgments: store.labels.judgments, runs } });
}
