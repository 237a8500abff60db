// `gcpc items` (issue 58.1): which checklist items carry no information, which point the wrong way, which repeat
// another, and which the judge gets wrong. Everything is computed per item from the primary judge's first run,
// over the trajectories of the item's task; no figure pools items of different tasks.
import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { seedFor } from "../estimates/bootstrap-interval.js";
import { gradeAt } from "../schema/grades.js";
import { newcombeDifference } from "../stats/newcombe.js";
import { wilsonInterval } from "../stats/wilson.js";
import { cohenKappa, sensitivitySpecificity } from "../stats/two-coder-agreement.js";
import { Xor4096 } from "../stats/xor4096.js";
import { compareCodePoints } from "../order.js";
import { isBinary, type PreparedStore } from "./prepared.js";

/** Agreement at or above which two items of a task count as repeating each other. */
export const REDUNDANT_AGREEMENT = 0.98;
/** Fewest trajectories two items must both decide before their agreement is read as redundancy. */
export const REDUNDANT_MIN_SHARED = 10;
/** Judge unreliable on an item: Cohen's κ against the reference below this, on at least {@link JUDGE_MIN_UNITS}. */
export const JUDGE_KAPPA_FLOOR = 0.4;
export const JUDGE_MIN_UNITS = 10;

export const ITEM_ESTIMATORS = {
  difficulty:
    "share of Yes among the item's decided verdicts (a graded item's mean grade), primary judge, first run; " +
    "Wilson score interval (fractional counts for grades)",
  discrimination:
    "against the official outcome, within the item's task: Yes rate on PASS − on FAIL with Newcombe's hybrid " +
    "score interval (1998, method 10); AUC = P(item on a PASS run > on a FAIL run) + ½ P(tie) (for a Yes/No item " +
    "0.5 + half the difference); point-biserial r = Pearson's r of the grade and PASS = 1. Where the task has no " +
    "PASS/FAIL outcome: the item–rest r, Pearson's r of the grade and the mean grade of the trajectory's other " +
    "decided items",
  control:
    "negative control: the task's outcomes (or, without one, the rest scores) shuffled among its trajectories, " +
    "R times (Fisher–Yates, seeded per task); p = (1 + shuffles whose |difference| (|r|) reaches the observed) / " +
    "(R + 1); an item counts as informative when p < 0.05",
  redundancy: `two items of one task whose verdicts agree on ≥ ${REDUNDANT_AGREEMENT * 100}% of the trajectories both decide (at least ${REDUNDANT_MIN_SHARED})`,
  judge:
    "primary judge against the reference judge on the item's units both decide: agreement, Cohen's κ, sensitivity " +
    "and specificity for Yes with Wilson score intervals",
} as const;

export interface ItemJudgeQuality {
  units: number;
  agreement: number;
  kappa: number | null;
  sensitivity: number | null;
  sensitivity_ci: [number, number] | null;
  specificity: number | null;
  specificity_ci: [number, number] | null;
}

export interface ItemDiagnostic {
  task_id: string;
  item_id: string;
  text: string;
  category: string | null;
  /** Trajectories of the task the primary judge decided on this item (not Abstain, not applicable). */
  decided: number;
  difficulty: number | null;
  difficulty_ci: [number, number] | null;
  /** Every decided verdict the same (and at least two of them): the item cannot separate anything. */
  constant: boolean;
  /** "outcome" where the task has PASS and FAIL runs with this item decided; "rest" otherwise; null when neither. */
  against: "outcome" | "rest" | null;
  pass_n: number;
  fail_n: number;
  /** Yes rate on PASS − on FAIL, and its interval. */
  difference: number | null;
  difference_ci: [number, number] | null;
  auc: number | null;
  point_biserial: number | null;
  item_rest: number | null;
  /** The negative control's p for this item (see ITEM_ESTIMATORS.control); null where nothing varies. */
  control_p: number | null;
  informative: boolean;
  /** Yes more often on failing runs, the interval of the difference below 0. */
  wrong_sign: boolean;
  /** The task's other items whose verdicts agree with this one's on ≥ 98% of shared trajectories. */
  redundant_with: string[];
  judge: ItemJudgeQuality | null;
}

export interface ItemToFix {
  task_id: string;
  item_id: string;
  text: string;
  why: string;
}

export interface ItemDiagnostics {
  judge: string;
  reference_judge: string | null;
  items: number;
  /** Items no trajectory got a decided verdict on (all Abstain, not applicable, or not judged). */
  undecided: number;
  constant: number;
  constant_share: number | null;
  wrong_sign: number;
  informative: number;
  /** Items the control could test (something varies), of which `informative` passed it. */
  tested: number;
  /** Items compared against the official outcome with an interval (Yes/No items of tasks with PASS and FAIL runs). */
  tested_outcome: number;
  redundant_pairs: { task_id: string; a: string; b: string; shared: number; agreement: number }[];
  judge_unreliable: number;
  to_fix: ItemToFix[];
  by_item: ItemDiagnostic[];
  /** Per category (where items have one): items, constant, wrong sign, informative, mean difficulty. */
  by_category: { category: string; items: number; constant: number; wrong_sign: number; informative: number }[];
  control: { shuffles: number; seed: string };
  estimators: typeof ITEM_ESTIMATORS;
}

/** Pearson's r of two equal-length columns; null when either is constant or there are fewer than 3 pairs. */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 3) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null;
}

/** P(a > b) + ½ P(a = b) over every pair of a value on PASS and one on FAIL (Mann–Whitney, ties counted half). */
export function pairAuc(pass: readonly number[], fail: readonly number[]): number | null {
  if (pass.length === 0 || fail.length === 0) return null;
  let wins = 0;
  for (const a of pass) for (const b of fail) wins += a > b ? 1 : a === b ? 0.5 : 0;
  return wins / (pass.length * fail.length);
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The rows of one task: per trajectory its grades of every item (NaN undecided, -1 not applicable), its outcome. */
interface TaskRows {
  grades: number[][];
  outcome: (0 | 1 | null)[];
  reference: (number[] | null)[];
}

function taskRows(p: PreparedStore, reference: string | null): Map<string, TaskRows> {
  const byTask = new Map<string, TaskRows>();
  p.trajectories.forEach((t, k) => {
    const labels = p.labelsAt(k);
    if (labels === undefined) return;
    const items = p.checklist.get(t.task_id) ?? [];
    const rows = byTask.get(t.task_id) ?? { grades: [], outcome: [], reference: [] };
    byTask.set(t.task_id, rows);
    rows.grades.push(items.map((_, i) => gradeAt(labels, i)));
    rows.outcome.push(isBinary(t) ? (t.outcome === "PASS" ? 1 : 0) : null);
    const ref = reference ? p.labelsAt(k, reference) : undefined;
    rows.reference.push(ref === undefined ? null : items.map((_, i) => gradeAt(ref, i)));
  });
  return byTask;
}

const decidedGrade = (g: number) => g >= 0;

/** The item's discrimination statistic on given outcomes: the Yes-rate difference (outcome) or r (rest). */
function separation(x: readonly number[], y: readonly number[], against: "outcome" | "rest"): number | null {
  if (against === "rest") return pearson(x, y);
  const pass: number[] = [];
  const fail: number[] = [];
  for (let i = 0; i < x.length; i++) (y[i] === 1 ? pass : fail).push(x[i]);
  return pass.length && fail.length ? mean(pass) - mean(fail) : null;
}

/** Fisher–Yates shuffle in place with the seeded stream (the same order on every engine). */
function shuffle(xs: number[], rng: Xor4096): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng.uniform() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
}

/** Every item's diagnostics, the store's summary, and the items to fix, ranked. */
export function itemDiagnostics(p: PreparedStore, settings: BootstrapSettings, shuffles = 1000): ItemDiagnostics {
  const referenceName = p.store.manifest.reference_judge ?? null;
  const reference =
    referenceName && referenceName !== p.primaryJudge && p.counts.judges.includes(referenceName) ? referenceName : null;
  const rowsOf = taskRows(p, reference);
  const byItem: ItemDiagnostic[] = [];
  const redundantPairs: ItemDiagnostics["redundant_pairs"] = [];
  const tasks = [...p.checklist.keys()].sort(compareCodePoints);
  for (const task of tasks) {
    const items = p.checklist.get(task)!;
    const rows = rowsOf.get(task) ?? { grades: [], outcome: [], reference: [] };
    const rng = new Xor4096(seedFor(settings, `items:control:${task}`));
    const redundantWith = items.map(() => [] as string[]);
    for (let a = 0; a < items.length; a++)
      for (let b = a + 1; b < items.length; b++) {
        let shared = 0;
        let same = 0;
        for (const g of rows.grades)
          if (decidedGrade(g[a]) && decidedGrade(g[b])) {
            shared++;
            if (g[a] === g[b]) same++;
          }
        if (shared >= REDUNDANT_MIN_SHARED && same / shared >= REDUNDANT_AGREEMENT) {
          redundantPairs.push({
            task_id: task,
            a: items[a].item_id,
            b: items[b].item_id,
            shared,
            agreement: same / shared,
          });
          redundantWith[a].push(items[b].item_id);
          redundantWith[b].push(items[a].item_id);
        }
      }
    items.forEach((item, i) => {
      const x: number[] = [];
      const outcome: (0 | 1 | null)[] = [];
      const rest: number[] = [];
      const refUnits: [number, number][] = [];
      rows.grades.forEach((g, r) => {
        if (!decidedGrade(g[i])) return;
        x.push(g[i]);
        outcome.push(rows.outcome[r]);
        const others = g.filter((v, j) => j !== i && decidedGrade(v));
        rest.push(others.length ? mean(others) : Number.NaN);
        const ref = rows.reference[r]?.[i];
        if (ref !== undefined && decidedGrade(ref)) refUnits.push([ref, g[i]]);
      });
      const n = x.length;
      const yes = x.reduce((s, v) => s + v, 0);
      const constant = n >= 2 && x.every((v) => v === x[0]);
      // Against the outcome where the item's trajectories hold both PASS and FAIL; else against the rest.
      const withOutcome = x.flatMap((v, r) => (outcome[r] === null ? [] : [[v, outcome[r]!] as const]));
      const pass = withOutcome.filter(([, o]) => o === 1).map(([v]) => v);
      const fail = withOutcome.filter(([, o]) => o === 0).map(([v]) => v);
      const restPairs = x.flatMap((v, r) => (Number.isNaN(rest[r]) ? [] : [[v, rest[r]] as const]));
      const against = pass.length && fail.length ? "outcome" : restPairs.length >= 3 ? "rest" : null;
      const binaryItem = x.every((v) => v === 0 || v === 1);
      let difference: number | null = null;
      let differenceCi: [number, number] | null = null;
      let auc: number | null = null;
      let pointBiserial: number | null = null;
      let itemRest: number | null = null;
      let controlP: number | null = null;
      let xs: number[] = [];
      let ys: number[] = [];
      if (against === "outcome") {
        xs = withOutcome.map(([v]) => v);
        ys = withOutcome.map(([, o]) => o);
        difference = mean(pass) - mean(fail);
        differenceCi = binaryItem
          ? newcombeDifference(
              fail.reduce((s, v) => s + v, 0),
              fail.length,
              pass.reduce((s, v) => s + v, 0),
              pass.length,
            )
          : null;
        auc = pairAuc(pass, fail);
        pointBiserial = pearson(xs, ys);
      } else if (against === "rest") {
        xs = restPairs.map(([v]) => v);
        ys = restPairs.map(([, r]) => r);
        itemRest = pearson(xs, ys);
      }
      const observed = against ? separation(xs, ys, against) : null;
      if (against && observed !== null && !constant) {
        const shuffled = [...ys];
        let reached = 0;
        for (let s = 0; s < shuffles; s++) {
          shuffle(shuffled, rng);
          const v = separation(xs, shuffled, against);
          // A tolerance for the same value reached through another summation order.
          if (v !== null && Math.abs(v) >= Math.abs(observed) - 1e-12) reached++;
        }
        controlP = (1 + reached) / (1 + shuffles);
      }
      let judge: ItemJudgeQuality | null = null;
      if (reference && refUnits.length) {
        const a = refUnits.map(([r]) => r);
        const b = refUnits.map(([, j]) => j);
        const ones = new Array(a.length).fill(1);
        const rates = sensitivitySpecificity(a, b, ones);
        const positives = a.filter((v) => v === 1).length;
        const negatives = a.length - positives;
        const finite = (v: number) => (Number.isFinite(v) ? v : null);
        judge = {
          units: a.length,
          agreement: a.filter((v, u) => v === b[u]).length / a.length,
          kappa: finite(cohenKappa(a, b, ones)),
          sensitivity: finite(rates.sensitivity),
          sensitivity_ci: positives ? wilsonInterval(rates.sensitivity * positives, positives) : null,
          specificity: finite(rates.specificity),
          specificity_ci: negatives ? wilsonInterval(rates.specificity * negatives, negatives) : null,
        };
      }
      byItem.push({
        task_id: task,
        item_id: item.item_id,
        text: item.text,
        category: item.category ?? null,
        decided: n,
        difficulty: n ? yes / n : null,
        difficulty_ci: n ? wilsonInterval(yes, n) : null,
        constant,
        against,
        pass_n: pass.length,
        fail_n: fail.length,
        difference,
        difference_ci: differenceCi,
        auc,
        point_biserial: pointBiserial,
        item_rest: itemRest,
        control_p: controlP,
        informative: controlP !== null && controlP < 0.05,
        wrong_sign: differenceCi !== null && differenceCi[1] < 0,
        redundant_with: redundantWith[i],
        judge,
      });
    });
  }
  const judgeUnreliable = (d: ItemDiagnostic) =>
    d.judge !== null && d.judge.units >= JUDGE_MIN_UNITS && d.judge.kappa !== null && d.judge.kappa < JUDGE_KAPPA_FLOOR;
  // Ranked by what the figures say: the wrong way first, then a judge that cannot be trusted on it, then no
  // information at all, then a repeat of another item; within each, by task and item.
  const reasons: [string, (d: ItemDiagnostic) => string | null][] = [
    [
      "wrong sign",
      (d) =>
        d.wrong_sign
          ? `Yes more often on failing runs: ${pct(d.difference!)} [${pct(d.difference_ci![0])}, ${pct(d.difference_ci![1])}]`
          : null,
    ],
    [
      "judge unreliable",
      (d) =>
        judgeUnreliable(d) ? `κ ${d.judge!.kappa!.toFixed(2)} against ${reference} on ${d.judge!.units} units` : null,
    ],
    [
      "constant",
      (d) =>
        d.constant
          ? `always ${d.difficulty === 1 ? "Yes" : d.difficulty === 0 ? "No" : "the same"} (${d.decided} trajectories)`
          : null,
    ],
    ["never decided", (d) => (d.decided === 0 ? "no trajectory got a Yes, No or grade on it" : null)],
    ["redundant", (d) => (d.redundant_with.length ? `agrees with ${d.redundant_with.join(", ")} on ≥ 98%` : null)],
  ];
  const toFix: ItemToFix[] = [];
  for (const [kind, why] of reasons)
    for (const d of byItem) {
      const text = why(d);
      if (text) toFix.push({ task_id: d.task_id, item_id: d.item_id, text: d.text, why: `${kind}: ${text}` });
    }
  const categories = [...new Set(byItem.map((d) => d.category).filter((c): c is string => c !== null))].sort(
    compareCodePoints,
  );
  const constant = byItem.filter((d) => d.constant).length;
  return {
    judge: p.primaryJudge,
    reference_judge: reference,
    items: byItem.length,
    undecided: byItem.filter((d) => d.decided === 0).length,
    constant,
    constant_share: byItem.length ? constant / byItem.length : null,
    wrong_sign: byItem.filter((d) => d.wrong_sign).length,
    informative: byItem.filter((d) => d.informative).length,
    tested: byItem.filter((d) => d.control_p !== null).length,
    tested_outcome: byItem.filter((d) => d.difference_ci !== null).length,
    redundant_pairs: redundantPairs,
    judge_unreliable: byItem.filter(judgeUnreliable).length,
    to_fix: toFix,
    by_item: byItem,
    by_category: categories.map((category) => {
      const of = byItem.filter((d) => d.category === category);
      return {
        category,
        items: of.length,
        constant: of.filter((d) => d.constant).length,
        wrong_sign: of.filter((d) => d.wrong_sign).length,
        informative: of.filter((d) => d.informative).length,
      };
    }),
    control: { shuffles, seed: `${settings.seed}:items:control:TASK` },
    estimators: ITEM_ESTIMATORS,
  };
}

const pct = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(100 * v).toFixed(1)} pp`;
