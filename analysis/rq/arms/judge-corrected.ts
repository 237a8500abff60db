import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { seedFor, type BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { emptyPpiClusters, FEW_LABELLED_TASKS, ppiMean, type PpiEstimate } from "../../stats/ppi-mean.js";
import { PLAIN } from "../../scoring/official-outcome.js";
import type { PreparedStore } from "../prepared.js";

/** A judge-corrected estimate with the one line that says which figure to report. */
export type CorrectedEstimate = PpiEstimate & { advice: CorrectionAdvice };

/** What `--judge-corrected` asks: which reference labels to keep, and λ when it is fixed. */
export interface CorrectionOptions {
  /** Keep the reference judge's labels of these tasks only ("what if we had labelled only these?"). */
  referenceTasks?: ReadonlySet<string>;
  /** A fixed λ in [0, 1], or classic PPI's N / (N − n) (default: the power-tuned λ, ppi-mean.ts). */
  lambda?: number | "classic";
}

/** The reference judge a store names (store.json reference_judge), or why there is none to correct towards. */
export function referenceJudgeOf(p: PreparedStore): string | NotAvailable {
  const reference = p.store.manifest.reference_judge;
  if (!reference) return notAvailable("store.json names no reference_judge: there is nothing to correct towards");
  if (!p.counts.judges.includes(reference))
    return notAvailable(`the reference judge "${reference}" labelled no trajectory`);
  if (reference === p.primaryJudge) return notAvailable("the reference judge is the primary judge");
  return reference;
}

/**
 * An arm's mean GCPC as its reference judge would have scored it (issue 47): prediction-powered inference over the
 * arm's trajectories (`slots`, with their task clusters), f the GCPC each trajectory is scored by (`judgeScore`,
 * its scoring judge) and h the reference judge's GCPC where it labelled the trajectory (and, with
 * `referenceTasks`, its task is one of them). Estimator and interval: analysis/stats/ppi-mean.ts.
 */
export function judgeCorrectedMean(
  p: PreparedStore,
  /** The arm's slots and, index for index, each one's task cluster (of `clusters`). */
  arm: { name: string; slots: readonly number[]; slotClusters: ArrayLike<number>; clusters: number },
  judgeScore: (k: number) => number,
  reference: string,
  settings: BootstrapSettings,
  o: CorrectionOptions,
): CorrectedEstimate | NotAvailable {
  const c = emptyPpiClusters(arm.clusters);
  arm.slots.forEach((k, i) => {
    const f = judgeScore(k);
    if (!Number.isFinite(f)) return;
    const t = arm.slotClusters[i];
    c.fAll[t] += f;
    c.nAll[t]++;
    if (o.referenceTasks && !o.referenceTasks.has(p.trajectories[k].task_id)) return;
    const h = p.scoreAt(k, PLAIN, "exclude", reference);
    if (!Number.isFinite(h)) return;
    c.hRef[t] += h;
    c.fRef[t] += f;
    c.nRef[t]++;
  });
  const r = ppiMean(c, {
    seed: seedFor(settings, `judge-corrected:${arm.name}`),
    resamples: settings.resamples,
    level: settings.level,
    lambda: o.lambda,
  });
  if (r) return tooFewLabelled(r) ?? { ...r, advice: correctionAdvice(r) };
  if (!r && o.lambda === "classic" && c.nRef.some((n) => n > 0))
    return notAvailable(`every trajectory of ${arm.name} is labelled: classic PPI has no unlabelled one to use`);
  return r ?? notAvailable(`fewer than 2 tasks of ${arm.name} carry a reference label (${reference})`);
}

/**
 * The score Δ (b − a) of `gcpc compare` as the reference judge would have scored both sides: prediction-powered
 * inference on the matched units' differences (ppi-mean.ts with a unit's Δ for a trajectory's credit). f is a
 * unit's Δ of the arms' mean scores (their scoring judge's GCPC), on every matched unit; h its Δ of the reference
 * judge's GCPC, on the units where the reference labelled an attempt of both sides (and, with `referenceTasks`,
 * the task is listed); there f is taken over the same labelled attempts.
 */
export function judgeCorrectedDelta(
  p: PreparedStore,
  units: readonly { task: string; a: readonly string[]; b: readonly string[] }[],
  judgeScore: (id: string) => number,
  reference: string,
  settings: BootstrapSettings,
  figure: string,
  o: CorrectionOptions,
): CorrectedEstimate | NotAvailable {
  const slotOf = new Map(p.trajectories.map((t, k) => [t.trajectory_id, k]));
  const tasks = [...new Set(units.map((u) => u.task))];
  const clusterOf = new Map(tasks.map((t, i) => [t, i]));
  const c = emptyPpiClusters(tasks.length);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((x, y) => x + y, 0) / xs.length : NaN);
  /** A side's judge mean over all its attempts, and its judge and reference means over the labelled ones. */
  const side = (ids: readonly string[], task: string) => {
    const f = ids.map(judgeScore).filter(Number.isFinite);
    const labelled = o.referenceTasks && !o.referenceTasks.has(task) ? [] : ids;
    const pairs = labelled
      .map((id) => [judgeScore(id), p.scoreAt(slotOf.get(id)!, PLAIN, "exclude", reference)])
      .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    return { f: mean(f), fRef: mean(pairs.map(([x]) => x)), h: mean(pairs.map(([, y]) => y)) };
  };
  for (const u of units) {
    const a = side(u.a, u.task);
    const b = side(u.b, u.task);
    if (!Number.isFinite(a.f) || !Number.isFinite(b.f)) continue;
    const t = clusterOf.get(u.task)!;
    c.fAll[t] += b.f - a.f;
    c.nAll[t]++;
    if (!Number.isFinite(a.h) || !Number.isFinite(b.h)) continue;
    c.hRef[t] += b.h - a.h;
    c.fRef[t] += b.fRef - a.fRef;
    c.nRef[t]++;
  }
  const r = ppiMean(c, {
    seed: seedFor(settings, `${figure}:judge-corrected`),
    resamples: settings.resamples,
    level: settings.level,
    lambda: o.lambda,
  });
  if (r) return tooFewLabelled(r) ?? { ...r, advice: correctionAdvice(r) };
  return r ?? notAvailable(`fewer than 2 matched tasks carry a reference label (${reference}) on both sides`);
}

/**
 * No interval from fewer than FEW_LABELLED_TASKS labelled tasks: with 2–4 a task bootstrap covers 48–88% at 95%
 * nominal, the corrected and the reference-only interval alike, so neither is printed as if it held (issue 55.1).
 */
function tooFewLabelled(r: PpiEstimate): NotAvailable | undefined {
  if (r.reference_tasks >= FEW_LABELLED_TASKS) return undefined;
  return notAvailable(
    `only ${r.reference_tasks} tasks carry a reference label: a task bootstrap over fewer than ` +
      `${FEW_LABELLED_TASKS} covers 48–88% at 95% (docs/statistics.md), so no interval is given; label at least ` +
      `${FEW_LABELLED_TASKS} tasks`,
  );
}

/** Which figure of a judge-corrected row to report, and what happened, in one line (issue 55.1). */
export interface CorrectionAdvice {
  use: "corrected" | "reference-only";
  why: string;
}

/**
 * The one line a reader of a judge-corrected row needs: which figure to report and why. The corrected estimate
 * (given from FEW_LABELLED_TASKS labelled tasks on) is reported where its interval is narrower than the
 * reference-only one (an effective reference count above the real one); otherwise the
 * reference-only figure is, with the reason (every run labelled: nothing to correct with; λ 0: the judge did
 * not track the reference on the labelled runs; a wider interval: the correction cost more than it gave).
 */
export function correctionAdvice(e: PpiEstimate): CorrectionAdvice {
  const ref = "report the reference-only figure";
  if (e.n_reference >= e.n_all)
    return {
      use: "reference-only",
      why: `every run has a reference label, so there is nothing to correct with (λ is 0 by construction): ${ref}`,
    };
  if (e.lambda === 0)
    return {
      use: "reference-only",
      why: `on the ${e.n_reference} labelled runs the judge's credit does not track the reference's (λ 0): ${ref}`,
    };
  const gain = e.effective_reference === null ? Number.POSITIVE_INFINITY : e.effective_reference / e.n_reference;
  if (!(gain > 1))
    return {
      use: "reference-only",
      why:
        "the correction made the interval wider than the reference-only one (worth " +
        `${e.effective_reference?.toFixed(1)} reference labels, fewer than the ${e.n_reference} there are): ${ref}`,
    };
  return {
    use: "corrected",
    why:
      `the judge tracks the reference on the ${e.n_reference} labelled runs (λ ${e.lambda.toFixed(2)}): report the ` +
      "corrected figure, whose interval is as narrow as about " +
      `${e.effective_reference === null ? "unboundedly many" : e.effective_reference.toFixed(0)} reference labels ` +
      "would give",
  };
}
