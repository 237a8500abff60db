import { seedFor, type BootstrapDescriptor, type BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import type { CriterionEffect } from "../criterion-effects.js";
import type { ItemChange } from "./item-changes.js";
import { armSides, pairArms, type Pairing, type Selector } from "./arm-pairs.js";
import type { PreparedStore } from "../prepared.js";
import { comparePairs, type PairingChoice } from "./compare-pairs.js";
import { judgeCorrectedDelta, referenceJudgeOf, type CorrectionOptions } from "./judge-corrected.js";
import { unpairedCompare, type UnpairedCompareResult } from "./unpaired-compare.js";
import type { ArmSummary } from "./arm-summary.js";
import type { CorrectedEstimate } from "./judge-corrected.js";
import { armTable, tableView, type ArmRow, type ArmTable } from "./arm-table.js";
import { NO_OUTCOME, noPassRateDelta, passRateDelta } from "./pass-rate-delta.js";
import { scoreDelta } from "./score-delta.js";
import { items, transitions, type TransitionCell } from "./compare-transitions.js";
import { measuredFloor, type CompareFloor } from "./attempt-floor.js";
import { attemptMetricDelta, type AttemptMetricDelta } from "./attempt-metric-delta.js";
import type { AttemptMetric } from "../../stats/pass-at-k.js";
import { caveatsOf, judgeCaveat } from "./compare-caveats.js";

export { armTable, tableView, type ArmRow, type ArmTable } from "./arm-table.js";
export { NO_OUTCOME } from "./pass-rate-delta.js";
export type { TransitionCell } from "./compare-transitions.js";
export type { CompareFloor } from "./attempt-floor.js";

export { ARM_FIELDS, type ArmField, type Pairing, type Selector } from "./arm-pairs.js";

export { fieldOf } from "./arm-view.js";

export type { ArmSummary } from "./arm-summary.js";

export interface CompareResult {
  method: string;
  /**
   * What every view prints beside the figures: the score is not outcome-free, few matched tasks, the arms ran
   * different task sets. Empty when there is nothing to say.
   */
  caveats: string[];
  a: ArmSummary;
  b: ArmSummary;
  where: Selector;
  /** The fields both sides of a pair share (besides the task; and the trial index under trial pairing). */
  matched_on: string[];
  pairing: PairingChoice;
  matched: { tasks: number; pairs: number; unmatched_a: number; unmatched_b: number; no_trial: number };
  pass_rate_delta: {
    /**
     * Each side's pass rate over the matched units (the mean over units of the unit's pass rate): the two
     * figures the Δ is the difference of. ArmSummary.pass_rate is over all of the arm's runs, matched or not.
     */
    rate_a: number | null;
    rate_b: number | null;
    estimate: number | null;
    ci: [number, number] | null;
    /**
     * Two-sided: exact McNemar when every task holds one trial pair; else the task-level sign-flip test of the
     * per-task differences (clustered: repeated attempts of a task are not independent).
     */
    p: number | null;
    test: string;
    /** Whether the test treats the task as the unit (true) or the pairs as independent (McNemar). */
    clustered: boolean;
    bootstrap: BootstrapDescriptor | null;
    /** Set when there is no pass-rate Δ (a store with no binary outcome): why, in one line. */
    reason?: string;
  };
  /**
   * The score's Δ (b − a; GCPC by default) over the same matched units: per unit the mean score of each side's
   * attempts, the mean over units, a task-clustered CI and the task-level sign-flip test.
   */
  score_delta: {
    method: string;
    estimate: number | null;
    ci: [number, number] | null;
    degenerate?: true;
    p: number | null;
    test: string;
    test_mc_se?: number | null;
    tasks: number;
    units: number;
    bootstrap?: BootstrapDescriptor | null;
    /** `--judge-corrected`: the Δ as the reference judge (`reference_judge`) would have scored both arms. */
    corrected?: CorrectedEstimate | NotAvailable;
    reference_judge?: string;
  };
  transitions: Record<string, TransitionCell> | NotAvailable;
  /**
   * Per (task, item) on the FAIL→FAIL pairs and on all pairs; `by_item`: per item id across tasks over all pairs
   * (what a store with no outcome shows), item-changes.ts.
   */
  items: { fail_fail: CriterionEffect[]; all: CriterionEffect[]; by_item: ItemChange[] } | NotAvailable;
  /** The attempt floor when an arm repeats attempts, else the judge retest floor (analysis/rq/noise-floor.ts). */
  noise_floor: CompareFloor;
  /** `--metric pass^k|pass@k --k K`: the Δ of the arms' per-cell consistency or coverage (attempt-metric-delta.ts). */
  attempt_delta?: AttemptMetricDelta | NotAvailable;
}

/**
 * The figure name a comparison's seeds derive from: the two selectors in sorted order (a swap draws the same
 * resamples) and the filter. compareArmTable and the judge-corrected Δ of compareArms both seed from it.
 */
function compareFigure(o: { a: Selector; b: Selector; where?: Selector }): string {
  return `compare:${[JSON.stringify(o.a), JSON.stringify(o.b)].sort().join("|")}:${JSON.stringify(o.where ?? {})}`;
}

/**
 * Any two arms of a store compared on matched units (paper §4.3's with/without-skill pairs, generalised): a
 * pair shares its task and every descriptive field that neither arm nor the filter names ("everything else
 * equal"). Trial pairing matches attempt k with attempt k (a trajectory without a trial index is never
 * matched, contract rule 12); task pairing compares each matched cell's mean over its attempts. The pass-rate
 * Δ (b − a) is the mean over pairs, its CI a task-clustered paired bootstrap, with an exact paired test
 * beside it; under trial pairing the four outcome transitions carry the score's Δ distribution, its median
 * with a task-clustered CI and the shares beyond the noise floor, and every checklist item gets an exact
 * McNemar test with BH q (FAIL→FAIL pairs and all pairs).
 */
export function compareArms(
  p: PreparedStore,
  o: {
    a: Selector;
    b: Selector;
    where?: Selector;
    pair?: Pairing;
    method?: string;
    /** GCPC scored by this judge on every trajectory (one it did not label has no score). */
    judge?: string;
    settings: BootstrapSettings;
    /** The GCPC Δ corrected towards the store's reference judge (judge-corrected.ts). */
    corrected?: CorrectionOptions;
    /** pass^k or pass@k with its k (attempt-metric-delta.ts). */
    attempts?: { metric: AttemptMetric; k: number };
  },
): CompareResult | UnpairedCompareResult | NotAvailable {
  const table = armTable(p, o.method ?? "gcpc", o.judge);
  if ("available" in table) return table;
  const r = compareArmTable(table, o);
  if ("available" in r || !o.corrected) return r;
  // Arms with no matched unit: the correction is of matched units' differences, so it is not computed, and the
  // result says why rather than dropping it without a word (issue 55.1).
  if ("unpaired" in r) return { ...r, corrected: notAvailable(UNPAIRED_CORRECTION) };
  if (table.method !== "gcpc") return notAvailable("--judge-corrected corrects the GCPC Δ: drop --method");
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") return reference;
  const units = armMatchedUnits(table, o);
  if ("available" in units) return units;
  const byId = new Map(table.rows.map((row) => [row.id, row.score ?? NaN]));
  const ids = (ks: number[]) => ks.map((k) => table.rows[k].id);
  const figure = compareFigure(o);
  const corrected = judgeCorrectedDelta(
    p,
    units.units.map((u) => ({ task: u.task, a: ids(u.a), b: ids(u.b) })),
    (id) => byId.get(id) ?? NaN,
    reference,
    o.settings,
    figure,
    o.corrected,
  );
  return { ...r, score_delta: { ...r.score_delta, corrected, reference_judge: reference } };
}

export const UNPAIRED_CORRECTION =
  "the arms share no matched unit, and the judge-corrected Δ corrects matched units' differences (the reference " +
  "judge's labels of the same units on both sides); each arm's corrected mean on its own tasks is what gcpc " +
  "leaderboard --metric gcpc --judge-corrected prints, and their difference compares different tasks";

/**
 * The matched pairs of two arms by trial index (as `gcpc compare --pair trial` matches them): each pair's task
 * and the two rows of the arm table (arms that overlap, even an arm with itself, are refused). What the
 * explorer's arms mode lists.
 */
export function armTrialPairs(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector },
): { task: string; a: number; b: number }[] | NotAvailable {
  const view = tableView(table.rows);
  const chosen = armSides(view, o, false);
  if ("available" in chosen) return chosen;
  const { pairs } = pairArms(view, chosen.sides, chosen.shared, "trial");
  return pairs.map((x) => ({ task: x.task, a: x.a[0], b: x.b[0] }));
}

/**
 * The matched units of a comparison as `compareArmTable` pairs them with the same options (trial pairs, or under
 * task pairing each matched cell's attempts): the task and the arm table's rows on each side. What the Compare
 * page's per-task table, scatter and drill-down show, so that they hold exactly the units the Δ is over.
 */
export function armMatchedUnits(
  table: ArmTable,
  o: { a: Selector; b: Selector; where?: Selector; pair?: Pairing },
): { mode: Pairing; units: { task: string; a: number[]; b: number[] }[] } | NotAvailable {
  const rows = table.rows;
  const compared = comparePairs(tableView(rows), o, {
    pair: o.pair,
    selfPairs: true,
    // The units only: outcomes pair into transitions, which this does not read.
    outcome: (k) => rows[k].outcome ?? "FAIL",
    score: (k) => rows[k].score ?? NaN,
  });
  if ("available" in compared) return compared;
  return {
    mode: compared.pairing.mode,
    units: compared.built.pairs.map((x) => ({ task: x.task, a: [...x.a], b: [...x.b] })),
  };
}

/** {@link compareArms} on an arm table: the same code the site's Compare page runs in the browser. */
export function compareArmTable(
  table: ArmTable,
  o: {
    a: Selector;
    b: Selector;
    where?: Selector;
    pair?: Pairing;
    settings: BootstrapSettings;
    /** pass^k or pass@k with its k: the Δ of the arms' per-cell consistency or coverage beside the pass rate. */
    attempts?: { metric: AttemptMetric; k: number };
  },
): CompareResult | UnpairedCompareResult | NotAvailable {
  const where = o.where ?? {};
  const rows = table.rows;
  const score = (k: number) => rows[k].score ?? NaN;
  // The comparison verb (analysis/rq/arms/compare-pairs.ts), as RQ3 calls it with the paper's options.
  const hasOutcome = rows.some((r) => r.outcome !== null);
  const compared = comparePairs(tableView(rows), o, {
    pair: o.pair,
    selfPairs: true,
    // Without any outcome the transitions are not computed (below): the placeholder is never read.
    outcome: (k) => rows[k].outcome ?? "FAIL",
    score,
  });
  if ("available" in compared) return compared;
  const { sides, shared, pairing, built } = compared;
  const figure = compareFigure(o);
  const a = summary(rows, o.a, sides.a);
  const b = summary(rows, o.b, sides.b);
  // No unit matches (e.g. each arm ran its own tasks): each arm over its own tasks, labelled unpaired.
  if (built.pairs.length === 0) return unpairedCompare(table, sides, { a, b }, { where, settings: o.settings, figure });
  const floor = measuredFloor(table, sides, shared, score);
  const tasks = new Set(built.pairs.map((x) => x.task)).size;
  return {
    method: table.method,
    caveats: [...caveatsOf(table, a, b, tasks), ...judgeCaveat(rows, built.pairs)],
    a,
    b,
    where,
    matched_on: shared,
    pairing,
    matched: {
      tasks,
      pairs: built.pairs.length,
      unmatched_a: built.unmatched.a,
      unmatched_b: built.unmatched.b,
      no_trial: built.noTrial,
    },
    pass_rate_delta: hasOutcome
      ? passRateDelta(rows, built.pairs, pairing.mode, o.settings, `${figure}:pass_rate`)
      : noPassRateDelta(),
    score_delta: scoreDelta(table, built.pairs, o.settings, `${figure}:score`),
    transitions: !hasOutcome
      ? notAvailable(NO_OUTCOME)
      : pairing.mode === "trial"
        ? transitions(compared.groups, floor.value, o.settings, figure)
        : notAvailable("task pairing: an attempt has no partner, so outcomes do not pair into transitions"),
    items:
      pairing.mode === "trial"
        ? items(
            table,
            // The transitions' pairs: a side without a score (zero-evidence) has no verdicts to compare either.
            built.pairs.filter((x) => Number.isFinite(score(x.a[0])) && Number.isFinite(score(x.b[0]))),
            seedFor(o.settings, `${figure}:items`),
          )
        : notAvailable("task pairing: per-item changes need attempt-level pairs (use --pair trial)"),
    noise_floor: floor,
    ...(o.attempts
      ? {
          attempt_delta: attemptMetricDelta(rows, built.pairs, {
            ...o.attempts,
            settings: o.settings,
            figure: `${figure}:${o.attempts.metric}:${o.attempts.k}`,
          }),
        }
      : {}),
  };
}

function summary(rows: ArmRow[], selector: Selector, slots: number[]): ArmSummary {
  const passes = slots.filter((k) => rows[k].outcome === "PASS").length;
  const binary = slots.filter((k) => rows[k].outcome !== null).length;
  return {
    selector,
    trajectories: slots.length,
    tasks: new Set(slots.map((k) => rows[k].task)).size,
    pass_rate: binary ? passes / binary : null,
  };
}
