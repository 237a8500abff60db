// `gcpc items` (issue 58.1): which checklist items carry no information, which point the wrong way, which repeat
// another, and which the judge gets wrong. Everything is computed per item from the primary judge's first run,
// over the trajectories of the item's task; no figure pools items of different tasks.
import type { BootstrapSettings } from "../estimates/bootstrap-interval.js";
import { bootstrapIntervals, seedFor, type BootstrapDescriptor } from "../estimates/bootstrap-interval.js";
import { ClusteredProportions } from "../stats/clustered-proportion.js";
import { gradeAt } from "../schema/grades.js";
import { newcombeDifference } from "../stats/newcombe.js";
import { wilsonInterval } from "../stats/wilson.js";
import { cohenKappa, sensitivitySpecificity } from "../stats/two-coder-agreement.js";
import { Xor4096 } from "../stats/xor4096.js";
import { auc } from "../stats/auc.js";
import { mean } from "../stats/shares.js";
import { pearson } from "../stats/spearman.js";
import { compareCodePoints } from "../order.js";
import { isBinary, type PreparedStore } from "./prepared.js";
import type { ArmField } from "./arms/arm-pairs.js";
import { fieldOf } from "./arms/arm-view.js";

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
  redundancy:
    `two items of one task whose verdicts agree on ≥ ${REDUNDANT_AGREEMENT * 100}% of the trajectories both ` +
    `decide (at least ${REDUNDANT_MIN_SHARED})`,
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
  /** The item's grades summed over the PASS runs and over the FAIL runs (what a category pools). */
  pass_yes: number;
  fail_yes: number;
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
  /** With --by FIELD: the item's decided verdicts and Yes rate per value of the field, in code-point order. */
  by_arm?: { arm: string; decided: number; yes_rate: number }[];
  /** With --by FIELD: the same Yes rate in every arm (at least two): the item cannot separate the arms. */
  arm_constant?: boolean;
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

/**
 * A category's items pooled (ratio estimators over their decided verdicts), with intervals from a bootstrap that
 * resamples the tasks holding the category's items: the items of one task share its trajectories.
 */
export interface CategoryDiagnostic {
  category: string;
  items: number;
  tasks: number;
  constant: number;
  wrong_sign: number;
  informative: number;
  difficulty: number | null;
  difficulty_ci: [number, number] | null;
  /** Pooled Yes rate on PASS − on FAIL over the category's items, tasks with both outcomes. */
  difference: number | null;
  difference_ci: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
}

export interface ItemDiagnostics {
  judge: string;
  reference_judge: string | null;
  items: number;
  /** Items no trajectory got a decided verdict on (all Abstain, not applicable, or not judged). */
  undecided: number;
  /** Items decided on one trajectory only: one verdict has no spread, so no discrimination or constancy. */
  single: number;
  constant: number;
  constant_share: number | null;
  /** The --by field, and the items whose Yes rate is the same in every arm of it (null without --by). */
  by?: ArmField | null;
  arm_constant?: number | null;
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
  by_category: CategoryDiagnostic[];
  control: { shuffles: number; seed: string };
  estimators: typeof ITEM_ESTIMATORS;
}

/** Pearson's r (stats/spearman.ts) as a figure: null with fewer than 3 pairs (two points always give ±1) or a
 * constant column. */
function r3(x: readonly number[], y: readonly number[]): number | null {
  const r = x.length < 3 ? NaN : pearson(x, y);
  return Number.isFinite(r) ? r : null;
}

/** The rows of one task: per trajectory its grades of every item (NaN undecided, -1 not applicable), its outcome. */
interface TaskRows {
  grades: number[][];
  /** Each trajectory's value of the --by field (null without one). */
  arm: (string | null)[];
  outcome: (0 | 1 | null)[];
  reference: (number[] | null)[];
}

function taskRows(p: PreparedStore, reference: string | null, by?: ArmField): Map<string, TaskRows> {
  const byTask = new Map<string, TaskRows>();
  p.trajectories.forEach((t, k) => {
    const labels = p.labelsAt(k);
    if (labels === undefined) return;
    const items = p.checklist.get(t.task_id) ?? [];
    const rows = byTask.get(t.task_id) ?? { grades: [], arm: [], outcome: [], reference: [] };
    byTask.set(t.task_id, rows);
    rows.grades.push(items.map((_, i) => gradeAt(labels, i)));
    rows.arm.push(by ? fieldOf(p, t, by) : null);
    rows.outcome.push(isBinary(t) ? (t.outcome === "PASS" ? 1 : 0) : null);
    const ref = reference ? p.labelsAt(k, reference) : undefined;
    rows.reference.push(ref === undefined ? null : items.map((_, i) => gradeAt(ref, i)));
  });
  return byTask;
}

const decidedGrade = (g: number) => g >= 0;

/** The item's discrimination statistic on given outcomes: the Yes-rate difference (outcome) or r (rest). */
function separation(x: readonly number[], y: readonly number[], against: "outcome" | "rest"): number | null {
  if (against === "rest") return r3(x, y);
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
/** Every item's diagnostics, the store's summary, and the items to fix, ranked. */
export function itemDiagnostics(
  p: PreparedStore,
  settings: BootstrapSettings,
  shuffles = 1000,
  by?: ArmField,
): ItemDiagnostics {
  const named = p.store.manifest.reference_judge ?? null;
  const reference = named && named !== p.primaryJudge && p.counts.judges.includes(named) ? named : null;
  const rowsOf = taskRows(p, reference, by);
  const byItem: ItemDiagnostic[] = [];
  const redundantPairs: ItemDiagnostics["redundant_pairs"] = [];
  for (const task of [...p.checklist.keys()].sort(compareCodePoints)) {
    const items = p.checklist.get(task)!;
    const rows = rowsOf.get(task) ?? { grades: [], arm: [], outcome: [], reference: [] };
    const rng = new Xor4096(seedFor(settings, `items:control:${task}`));
    const pairs = redundantPairsOf(task, items, rows);
    redundantPairs.push(...pairs);
    items.forEach((item, i) => {
      const repeats = pairs.flatMap((q) => (q.a === item.item_id ? [q.b] : q.b === item.item_id ? [q.a] : []));
      byItem.push(diagnoseItem(task, item, itemColumns(rows, i), repeats, rng, shuffles));
    });
  }
  return { ...summarise(byItem, redundantPairs, p.primaryJudge, reference, settings, shuffles), by: by ?? null };
}

/** An item's decided verdicts, and beside each the trajectory's outcome, rest score and reference verdict. */
interface ItemColumns {
  x: number[];
  arm: (string | null)[];
  outcome: (0 | 1 | null)[];
  rest: number[];
  reference: [number, number][];
}

function itemColumns(rows: TaskRows, i: number): ItemColumns {
  const c: ItemColumns = { x: [], arm: [], outcome: [], rest: [], reference: [] };
  rows.grades.forEach((g, r) => {
    if (!decidedGrade(g[i])) return;
    c.x.push(g[i]);
    c.arm.push(rows.arm[r]);
    c.outcome.push(rows.outcome[r]);
    const others = g.filter((v, j) => j !== i && decidedGrade(v));
    c.rest.push(others.length ? mean(others) : Number.NaN);
    const ref = rows.reference[r]?.[i];
    if (ref !== undefined && decidedGrade(ref)) c.reference.push([ref, g[i]]);
  });
  return c;
}

/** Pairs of the task's items whose verdicts agree on ≥ 98% of at least 10 trajectories both decide. */
function redundantPairsOf(task: string, items: { item_id: string }[], rows: TaskRows) {
  const pairs: ItemDiagnostics["redundant_pairs"] = [];
  for (let a = 0; a < items.length; a++)
    for (let b = a + 1; b < items.length; b++) {
      let shared = 0;
      let same = 0;
      for (const g of rows.grades)
        if (decidedGrade(g[a]) && decidedGrade(g[b])) {
          shared++;
          if (g[a] === g[b]) same++;
        }
      if (shared >= REDUNDANT_MIN_SHARED && same / shared >= REDUNDANT_AGREEMENT)
        pairs.push({ task_id: task, a: items[a].item_id, b: items[b].item_id, shared, agreement: same / shared });
    }
  return pairs;
}

type Discrimination = Pick<
  ItemDiagnostic,
  | "against"
  | "pass_n"
  | "fail_n"
  | "pass_yes"
  | "fail_yes"
  | "difference"
  | "difference_ci"
  | "auc"
  | "point_biserial"
  | "item_rest"
> & { xs: number[]; ys: number[] };

/** Against the outcome where the item's trajectories hold both PASS and FAIL; else against the rest. */
function discrimination(c: ItemColumns): Discrimination {
  const withOutcome = c.x.flatMap((v, r) => (c.outcome[r] === null ? [] : [[v, c.outcome[r]!] as const]));
  const pass = withOutcome.filter(([, o]) => o === 1).map(([v]) => v);
  const fail = withOutcome.filter(([, o]) => o === 0).map(([v]) => v);
  const none = { difference: null, difference_ci: null, auc: null, point_biserial: null, item_rest: null };
  const total = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
  const counts = { pass_n: pass.length, fail_n: fail.length, pass_yes: total(pass), fail_yes: total(fail) };
  if (pass.length && fail.length) {
    const xs = withOutcome.map(([v]) => v);
    const ys = withOutcome.map(([, o]) => o as number);
    const binaryItem = c.x.every((v) => v === 0 || v === 1);
    return {
      ...none,
      ...counts,
      against: "outcome",
      difference: counts.pass_yes / pass.length - counts.fail_yes / fail.length,
      difference_ci: binaryItem ? newcombeDifference(counts.fail_yes, fail.length, counts.pass_yes, pass.length) : null,
      // Mann–Whitney with ties counted half (stats/auc.ts), PASS the positives.
      auc: auc(
        xs,
        ys.map((o) => o === 1),
      ),
      point_biserial: r3(xs, ys),
      xs,
      ys,
    };
  }
  const restPairs = c.x.flatMap((v, r) => (Number.isNaN(c.rest[r]) ? [] : [[v, c.rest[r]] as const]));
  if (restPairs.length < 3) return { ...none, ...counts, against: null, xs: [], ys: [] };
  const xs = restPairs.map(([v]) => v);
  const ys = restPairs.map(([, r]) => r);
  return { ...none, ...counts, against: "rest", item_rest: r3(xs, ys), xs, ys };
}

/** The negative control's p: the outcomes (rest scores) shuffled among the item's trajectories `shuffles` times. */
function controlP(d: Discrimination, rng: Xor4096, shuffles: number): number | null {
  if (!d.against) return null;
  const observed = separation(d.xs, d.ys, d.against);
  if (observed === null) return null;
  const shuffled = [...d.ys];
  let reached = 0;
  for (let s = 0; s < shuffles; s++) {
    shuffle(shuffled, rng);
    const v = separation(d.xs, shuffled, d.against);
    // A tolerance for the same value reached through another summation order.
    if (v !== null && Math.abs(v) >= Math.abs(observed) - 1e-12) reached++;
  }
  return (1 + reached) / (1 + shuffles);
}

/** The primary judge against the reference on the item's units both decide. */
function judgeQuality(units: [number, number][]): ItemJudgeQuality | null {
  if (units.length === 0) return null;
  const a = units.map(([r]) => r);
  const b = units.map(([, j]) => j);
  const ones = new Array(a.length).fill(1);
  const rates = sensitivitySpecificity(a, b, ones);
  const positives = a.filter((v) => v === 1).length;
  const negatives = a.length - positives;
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  return {
    units: a.length,
    agreement: a.filter((v, u) => v === b[u]).length / a.length,
    kappa: finite(cohenKappa(a, b, ones)),
    sensitivity: finite(rates.sensitivity),
    sensitivity_ci: positives ? wilsonInterval(rates.sensitivity * positives, positives) : null,
    specificity: finite(rates.specificity),
    specificity_ci: negatives ? wilsonInterval(rates.specificity * negatives, negatives) : null,
  };
}

function diagnoseItem(
  task: string,
  item: { item_id: string; text: string; category?: string | null },
  c: ItemColumns,
  repeats: string[],
  rng: Xor4096,
  shuffles: number,
): ItemDiagnostic {
  const n = c.x.length;
  const yes = c.x.reduce((s, v) => s + v, 0);
  const constant = n >= 2 && c.x.every((v) => v === c.x[0]);
  const full = discrimination(c);
  const { xs: _xs, ys: _ys, ...d } = full;
  const p = constant ? null : controlP(full, rng, shuffles);
  return {
    task_id: task,
    item_id: item.item_id,
    text: item.text,
    category: item.category ?? null,
    decided: n,
    difficulty: n ? yes / n : null,
    difficulty_ci: n ? wilsonInterval(yes, n) : null,
    constant,
    ...d,
    control_p: p,
    informative: p !== null && p < 0.05,
    wrong_sign: d.difference_ci !== null && d.difference_ci[1] < 0,
    redundant_with: repeats,
    judge: judgeQuality(c.reference),
    ...armRates(c),
  };
}

/** The item's Yes rate per arm of --by, and whether it is the same in every arm; nothing without --by. */
function armRates(c: ItemColumns): Pick<ItemDiagnostic, "by_arm" | "arm_constant"> {
  if (c.arm.every((a) => a === null)) return {};
  const sums = new Map<string, { yes: number; n: number }>();
  c.x.forEach((v, r) => {
    const arm = c.arm[r];
    if (arm === null) return;
    const s = sums.get(arm) ?? sums.set(arm, { yes: 0, n: 0 }).get(arm)!;
    s.yes += v;
    s.n++;
  });
  const byArm = [...sums]
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([arm, s]) => ({ arm, decided: s.n, yes_rate: s.yes / s.n }));
  return { by_arm: byArm, arm_constant: byArm.length >= 2 && byArm.every((a) => a.yes_rate === byArm[0].yes_rate) };
}

const judgeUnreliable = (d: ItemDiagnostic) =>
  d.judge !== null && d.judge.units >= JUDGE_MIN_UNITS && d.judge.kappa !== null && d.judge.kappa < JUDGE_KAPPA_FLOOR;

/**
 * The items to fix, ranked by what the figures say: the wrong way first, then a judge that cannot be trusted on
 * it, then no information at all (constant, never decided), then a repeat of another item; within each kind, in
 * task and checklist order.
 */
function itemsToFix(byItem: ItemDiagnostic[], reference: string | null): ItemToFix[] {
  const reasons: [string, (d: ItemDiagnostic) => string | null][] = [
    [
      "wrong sign",
      (d) =>
        d.wrong_sign
          ? `Yes more often on failing runs: ${pct(d.difference!)} ` +
            `[${pct(d.difference_ci![0])}, ${pct(d.difference_ci![1])}]`
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
  return reasons.flatMap(([kind, why]) =>
    byItem.flatMap((d) => {
      const text = why(d);
      return text ? [{ task_id: d.task_id, item_id: d.item_id, text: d.text, why: `${kind}: ${text}` }] : [];
    }),
  );
}

function summarise(
  byItem: ItemDiagnostic[],
  redundantPairs: ItemDiagnostics["redundant_pairs"],
  judge: string,
  reference: string | null,
  settings: BootstrapSettings,
  shuffles: number,
): ItemDiagnostics {
  const count = (f: (d: ItemDiagnostic) => boolean) => byItem.filter(f).length;
  const categories = [...new Set(byItem.flatMap((d) => (d.category === null ? [] : [d.category])))].sort(
    compareCodePoints,
  );
  const constant = count((d) => d.constant);
  return {
    judge,
    reference_judge: reference,
    items: byItem.length,
    undecided: count((d) => d.decided === 0),
    single: count((d) => d.decided === 1),
    constant,
    constant_share: byItem.length ? constant / byItem.length : null,
    arm_constant: byItem.some((d) => d.arm_constant !== undefined) ? count((d) => d.arm_constant === true) : null,
    wrong_sign: count((d) => d.wrong_sign),
    informative: count((d) => d.informative),
    tested: count((d) => d.control_p !== null),
    tested_outcome: count((d) => d.difference_ci !== null),
    redundant_pairs: redundantPairs,
    judge_unreliable: count(judgeUnreliable),
    to_fix: itemsToFix(byItem, reference),
    by_item: byItem,
    by_category: categories.map((category) =>
      categoryDiagnostic(
        category,
        byItem.filter((d) => d.category === category),
        settings,
      ),
    ),
    control: { shuffles, seed: `${settings.seed}:items:control:TASK` },
    estimators: ITEM_ESTIMATORS,
  };
}

/** A category's pooled difficulty and PASS − FAIL difference, task-clustered bootstrap (see CategoryDiagnostic). */
function categoryDiagnostic(category: string, of: ItemDiagnostic[], settings: BootstrapSettings): CategoryDiagnostic {
  const tasks = [...new Set(of.map((d) => d.task_id))].sort(compareCodePoints);
  const clusterOf = new Map(tasks.map((t, c) => [t, c]));
  // Arm 0: every decided verdict; 1: those on FAIL runs; 2: on PASS runs.
  const props = new ClusteredProportions(tasks.length, 3);
  for (const d of of) {
    const c = clusterOf.get(d.task_id)!;
    if (d.decided && d.difficulty !== null) props.add(0, c, d.difficulty * d.decided, d.decided);
    if (d.pass_n && d.fail_n) {
      props.add(1, c, d.fail_yes, d.fail_n);
      props.add(2, c, d.pass_yes, d.pass_n);
    }
  }
  const ones = new Float64Array(tasks.length).fill(1);
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const difficulty = finite(props.rate(0, ones));
  const difference = finite(props.rate(2, ones) - props.rate(1, ones));
  const base = {
    category,
    items: of.length,
    tasks: tasks.length,
    constant: of.filter((d) => d.constant).length,
    wrong_sign: of.filter((d) => d.wrong_sign).length,
    informative: of.filter((d) => d.informative).length,
    difficulty,
    difficulty_ci: null,
    difference,
    difference_ci: null,
    bootstrap: null,
  };
  if (tasks.length < 2 || difficulty === null) return base;
  const withDifference = difference !== null;
  const res = bootstrapIntervals({
    settings,
    figure: `items:category:${category}`,
    clusters: tasks.length,
    estimator:
      "pooled Yes rate and PASS − FAIL difference over the category's items; task-clustered percentile bootstrap",
    statistics: {
      difficulty: (w: Float64Array) => props.rate(0, w),
      difference: (w: Float64Array) => (withDifference ? props.rate(2, w) - props.rate(1, w) : 0),
    },
    // A draw of tasks none of which holds both outcomes has no difference: it is drawn again.
    accept: (w) => !withDifference || Number.isFinite(props.rate(2, w) - props.rate(1, w)),
  });
  return {
    ...base,
    difficulty_ci: res.ci.difficulty,
    difference_ci: withDifference ? res.ci.difference : null,
    bootstrap: res.bootstrap,
  };
}

const pct = (v: number) => `${v >= 0 ? "+" : "−"}${Math.abs(100 * v).toFixed(1)} pp`;
