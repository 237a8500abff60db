import {
  bootstrapIntervals,
  headline,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { gradeAt } from "../schema/grades.js";
import { PLAIN } from "../scoring/official-outcome.js";
import { holm } from "../stats/multiplicity.js";
import {
  cohenKappa,
  percentAgreement,
  quadraticKappa,
  sensitivitySpecificity,
  twoCoderAlpha,
} from "../stats/two-coder-agreement.js";
import { compareCodePoints } from "../order.js";
import { taskClusters } from "./common.js";
import { GATED_GCPC, methodScoreMaps, UNWEIGHTED_GCPC } from "./method-scores.js";
import { isBinary, type PreparedStore } from "./prepared.js";
import { pairedAucComparison, type PairedDelta } from "./rq1-discrimination.js";

/**
 * Graded, weighted and hierarchical checklists (schema_version 2): which credit predicts the outcome best, and
 * how far each judge agrees with the reference judge (a human consensus), item by item.
 */

/** A paired ΔAUC without its draws (the report keeps the figures, not the 10,000 draws). */
export type PairedFigures = Omit<PairedDelta, "draws"> & { holm_p: number | null };

export interface CreditComparison {
  /** The credits compared: plain (mean grade), weighted, gated; each a method of RQ1's AUC table. */
  credits: { credit: "plain" | "weighted" | "gated"; method: string }[];
  pairs: (PairedFigures | (NotAvailable & { methods: [string, string] }))[];
  /** The credit with the highest AUC, and whether its ΔAUC to each other credit has a Holm-adjusted p < 0.05. */
  best: { method: string; separated: boolean } | null;
  estimator: string;
}

export interface Agreement {
  /** Units: (trajectory, item) with a decided label from both judges (Abstain and NotApplicable left out). */
  units: number;
  tasks: number;
  percent: number | null;
  percent_ci: [number, number] | null;
  kappa: number | null;
  kappa_ci: [number, number] | null;
  alpha: number | null;
  alpha_ci: [number, number] | null;
  /** Quadratic-weighted κ, grades as numbers (for ordinal grades; equals a Yes/No store's plain κ). */
  kappa_quadratic: number | null;
  kappa_quadratic_ci: [number, number] | null;
  /** The judge's Yes (grade 1) against the reference's: sensitivity and specificity, task-clustered CIs. */
  sensitivity: number | null;
  sensitivity_ci: [number, number] | null;
  specificity: number | null;
  specificity_ci: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
}

export interface JudgeVsReference {
  judge: string;
  reference: string;
  /** nominal when every grade of either judge is 0 or 1 (Yes/No), else interval (grades as numbers). */
  alpha_metric: "nominal" | "interval";
  overall: Agreement;
  by_group: (Agreement & { group: string })[];
  /** AUC against the outcome of plain GCPC from the reference's labels and from this judge's, paired. */
  auc: PairedFigures | NotAvailable;
}

export interface RubricResult {
  credit: CreditComparison | NotAvailable;
  judges: JudgeVsReference[] | NotAvailable;
}

const AGREEMENT_ESTIMATOR =
  "per-item agreement of two judges: percent, Cohen's κ (values as categories), Krippendorff's α; " +
  "task-clustered percentile bootstrap (type-7)";

export function rubricAnalysis(p: PreparedStore, settings: BootstrapSettings): RubricResult {
  return { credit: creditComparison(p, settings), judges: judgesVsReference(p, settings) };
}

function withoutDraws(d: PairedDelta | NotAvailable, holmP: number | null): PairedFigures | NotAvailable {
  if (!("delta" in d)) return d;
  const { draws: _draws, ...rest } = d;
  return { ...rest, holm_p: holmP };
}

/** Plain, weighted and gated credit against the outcome: RQ1's paired ΔAUC for each pair, Holm over the pairs. */
function creditComparison(p: PreparedStore, settings: BootstrapSettings): CreditComparison | NotAvailable {
  const maps = methodScoreMaps(p);
  const weighted = maps.has(UNWEIGHTED_GCPC);
  const credits: CreditComparison["credits"] = [
    { credit: "plain", method: weighted ? UNWEIGHTED_GCPC : "gcpc" },
    ...(weighted ? [{ credit: "weighted" as const, method: "gcpc" }] : []),
    ...(maps.has(GATED_GCPC) ? [{ credit: "gated" as const, method: GATED_GCPC }] : []),
  ];
  if (credits.length < 2) return notAvailable("the items carry neither weights nor prerequisites: plain credit only");
  const pairs: [string, string][] = [];
  for (let i = 0; i < credits.length; i++)
    for (let j = i + 1; j < credits.length; j++) pairs.push([credits[i].method, credits[j].method]);
  const results = pairs.map((m) => {
    const [a, b] = [maps.get(m[0])!, maps.get(m[1])!];
    const rows = p.trajectories.filter(isBinary).flatMap((t) => {
      const [x, y] = [a.get(t.trajectory_id), b.get(t.trajectory_id)];
      return x !== undefined && y !== undefined && Number.isFinite(x) && Number.isFinite(y)
        ? [{ a: x, b: y, pass: t.outcome === "PASS", task: t.task_id }]
        : [];
    });
    return pairedAucComparison(rows, m, headline(settings));
  });
  const adjusted = holm(results.map((r) => ("delta" in r ? r.test.p : null)));
  const figures = results.map((r, i) =>
    "delta" in r ? withoutDraws(r, adjusted[i]) : { ...r, methods: pairs[i] },
  ) as CreditComparison["pairs"];
  return {
    credits,
    pairs: figures,
    best: bestCredit(figures),
    estimator:
      "paired ΔAUC as RQ1's (same trajectories, both AUCs on each task-clustered draw); " +
      "p: Obuchowski's paired clustered test, Holm-adjusted over the pairs",
  };
}

function bestCredit(pairs: CreditComparison["pairs"]): CreditComparison["best"] {
  const auc = new Map<string, number>();
  for (const r of pairs)
    if ("delta" in r) {
      auc.set(r.methods[0], r.auc_a);
      auc.set(r.methods[1], r.auc_b);
    }
  if (auc.size === 0) return null;
  const method = [...auc].sort((x, y) => y[1] - x[1] || compareCodePoints(x[0], y[0]))[0][0];
  const separated = pairs
    .filter((r) => "delta" in r && r.methods.includes(method))
    .every((r) => "delta" in r && r.holm_p !== null && r.holm_p < 0.05);
  return { method, separated };
}

interface Units {
  task: string[];
  group: string[];
  a: number[];
  b: number[];
}

/** (trajectory, item) units both judges decided (grades), with each item's task and group. */
function unitsOf(p: PreparedStore, reference: string, judge: string): Units {
  const units: Units = { task: [], group: [], a: [], b: [] };
  for (let k = 0; k < p.trajectories.length; k++) {
    const [ra, rb] = [p.labelsAt(k, reference), p.labelsAt(k, judge)];
    if (ra === undefined || rb === undefined) continue;
    const items = p.checklist.get(p.trajectories[k].task_id)!;
    for (let i = 0; i < items.length; i++) {
      const [x, y] = [gradeAt(ra, i), gradeAt(rb, i)];
      if (!(x >= 0 && y >= 0)) continue;
      units.task.push(p.trajectories[k].task_id);
      units.group.push(items[i].group ?? "(no group)");
      units.a.push(x);
      units.b.push(y);
    }
  }
  return units;
}

function agreement(u: Units, metric: "nominal" | "interval", settings: BootstrapSettings, figure: string): Agreement {
  const { clusterOf, clusters } = taskClusters(u.task);
  const ones = new Float64Array(u.a.length).fill(1);
  const w = new Float64Array(u.a.length);
  const rates = sensitivitySpecificity(u.a, u.b, ones);
  const base = {
    units: u.a.length,
    tasks: clusters,
    percent: finite(percentAgreement(u.a, u.b, ones)),
    kappa: finite(cohenKappa(u.a, u.b, ones)),
    alpha: finite(twoCoderAlpha(u.a, u.b, ones, metric)),
    kappa_quadratic: finite(quadraticKappa(u.a, u.b, ones)),
    sensitivity: finite(rates.sensitivity),
    specificity: finite(rates.specificity),
  };
  if (clusters < 2) {
    const none = { percent_ci: null, kappa_ci: null, alpha_ci: null, kappa_quadratic_ci: null };
    return { ...base, ...none, sensitivity_ci: null, specificity_ci: null, bootstrap: null };
  }
  // On each draw the sensitivity statistic computes both rates and the specificity one reads them (in order).
  let drawn = rates;
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator: AGREEMENT_ESTIMATOR,
    statistics: {
      percent: (cw) => {
        for (let i = 0; i < w.length; i++) w[i] = cw[clusterOf[i]];
        return percentAgreement(u.a, u.b, w);
      },
      kappa: () => cohenKappa(u.a, u.b, w),
      alpha: () => twoCoderAlpha(u.a, u.b, w, metric),
      kappa_quadratic: () => quadraticKappa(u.a, u.b, w),
      sensitivity: () => {
        drawn = sensitivitySpecificity(u.a, u.b, w);
        return drawn.sensitivity;
      },
      specificity: () => drawn.specificity,
    },
  });
  return {
    ...base,
    percent_ci: res.ci.percent,
    kappa_ci: res.ci.kappa,
    alpha_ci: res.ci.alpha,
    kappa_quadratic_ci: res.ci.kappa_quadratic,
    sensitivity_ci: res.ci.sensitivity,
    specificity_ci: res.ci.specificity,
    bootstrap: res.bootstrap,
  };
}

/** Each judge against the store's reference judge (store.json reference_judge), per item and by item group. */
export function judgesVsReference(p: PreparedStore, settings: BootstrapSettings): JudgeVsReference[] | NotAvailable {
  const reference = p.store.manifest.reference_judge;
  if (!reference) return notAvailable("store.json names no reference_judge");
  if (!p.counts.judges.includes(reference)) return notAvailable(`the reference judge "${reference}" has no labels`);
  const others = p.counts.judges.filter((j) => j !== reference);
  if (others.length === 0) return notAvailable("no judge besides the reference");
  return others.map((judge) => {
    const u = unitsOf(p, reference, judge);
    const metric = [...u.a, ...u.b].every((x) => x === 0 || x === 1) ? "nominal" : "interval";
    const groups = [...new Set(u.group)].sort(compareCodePoints);
    const pick = (g: string): Units => {
      const keep = u.group.map((x) => x === g);
      const f = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
      return { task: f(u.task), group: f(u.group), a: f(u.a), b: f(u.b) };
    };
    return {
      judge,
      reference,
      alpha_metric: metric,
      overall: agreement(u, metric, settings, `rubric:agreement:${judge}`),
      by_group:
        groups.length > 1
          ? groups.map((g) => ({ group: g, ...agreement(pick(g), metric, settings, `rubric:agreement:${judge}:${g}`) }))
          : [],
      auc: judgeAuc(p, reference, judge, settings),
    };
  });
}

function judgeAuc(p: PreparedStore, reference: string, judge: string, settings: BootstrapSettings) {
  const rows = p.trajectories.flatMap((t, k) => {
    if (!isBinary(t)) return [];
    const [a, b] = [p.scoreAt(k, PLAIN, "exclude", reference), p.scoreAt(k, PLAIN, "exclude", judge)];
    return Number.isFinite(a) && Number.isFinite(b) ? [{ a, b, pass: t.outcome === "PASS", task: t.task_id }] : [];
  });
  return withoutDraws(pairedAucComparison(rows, [`gcpc [${reference}]`, `gcpc [${judge}]`], headline(settings)), null);
}
