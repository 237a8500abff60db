import {
  bootstrapIntervals,
  degenerateMark,
  seedFor,
  FEW_CLUSTERS,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { jointRankSets } from "../../stats/joint-rank-sets.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { weightedRatio } from "../../stats/weighted-ratio.js";
import { signTestPValue } from "../../stats/sign-test.js";
import { holm } from "../../stats/multiplicity.js";
import { compareCodePoints } from "../../order.js";
import { taskClusters } from "../common.js";
import { fieldOf, type ArmField, type Selector } from "./compare-arms.js";
import { methodScoreMaps } from "../method-scores.js";
import { isBinary, type PreparedStore } from "../prepared.js";
import { attemptMetric, type AttemptMetric } from "../../stats/pass-at-k.js";
import { PLAIN } from "../../scoring/official-outcome.js";
import type { PpiEstimate } from "../../stats/ppi-mean.js";
import { judgeCorrectedMean, referenceJudgeOf, type CorrectionOptions } from "./judge-corrected.js";

export type LeaderboardMetric = "pass_rate" | "gcpc" | AttemptMetric;

export interface LeaderboardRow {
  arm: string;
  fields: Record<string, string | null>;
  trajectories: number;
  tasks: number;
  /** Pooled over the arm's trajectories (pass rate: passes / trials; gcpc: mean score). */
  value: number;
  ci: [number, number] | null;
  /** Every draw gave the arm this value (e.g. it passed every task): `ci` has zero width and says nothing. */
  degenerate?: true;
  few_clusters: boolean;
  /** What public leaderboards print: the mean of the per-run values (run = trial index) ± the SE over runs. */
  runs: { k: number; mean: number | null; se: number | null };
  /** Bootstrap rank (1 = best) of the value: its estimate and 95% percentile interval over the same task draws. */
  rank: number;
  rank_ci: [number, number] | null;
  /**
   * Simultaneous rank set: with 95% confidence every arm's true rank lies in its set at once (Mogstad et al.
   * 2024; `rank_joint` says how). Wider than `rank_ci`, which holds for one arm at a time.
   */
  rank_ci_joint: [number, number] | null;
  /**
   * What to read beside the row: few tasks (fewer than 10: interval and ranks unreliable), or an arm that ran
   * fewer of the board's tasks than it holds, or none that another arm ran (its value is on its own tasks: ranks
   * compare different task sets).
   */
  caveat: string | null;
  /** `--judge-corrected`: the arm's mean GCPC as the reference judge would have scored it (judge-corrected.ts). */
  corrected?: PpiEstimate | NotAvailable;
}

export interface PairwiseRow {
  /** Δ = value(row arm) − value(column arm), each a task's mean over its trials, averaged over common tasks. */
  row: string;
  column: string;
  tasks: number;
  delta: number | null;
  ci: [number, number] | null;
  /** Every draw gave this Δ (e.g. the same difference on every common task). */
  degenerate?: true;
  /** Two-sided p of the task-level sign-flip test of the d_t (exact on a common grid, else Monte Carlo). */
  p: number | null;
  p_holm: number | null;
  /** How p was computed: exact (grid 1/L) or Monte Carlo with its draws and standard error. */
  test: { method: string; exact: boolean; mc_se: number | null };
  /** The binomial sign test of sign(d_t) beside it (ignores the sizes of the differences): for comparison. */
  sign_test_p: number | null;
}

export interface Leaderboard {
  by: ArmField[];
  where: Selector;
  metric: LeaderboardMetric;
  estimator: string;
  rows: LeaderboardRow[];
  pairwise: PairwiseRow[];
  /**
   * Which arms the pairwise tests (and the tie groups) cover: the top `top` arms by value of `arms`, Holm over
   * their pairs only. Every arm keeps its value, interval and rank intervals.
   */
  pairwise_scope: { top: number; arms: number; pairs: number; note: string | null };
  /** Runs of adjacent arms (by value) the data cannot separate: every pair's Holm-adjusted p ≥ 0.05 (may overlap). */
  tie_groups: string[][];
  bootstrap: BootstrapDescriptor | null;
  /** How `rank_ci_joint` was computed: the method, the critical value and the pairs it separates. */
  rank_joint: { method: string; critical: number; separated: number; resamples: number; seed: string } | null;
  /** `--judge-corrected`: the reference judge of the rows' `corrected` estimates, and how they are computed. */
  correction?: { reference_judge: string; estimator: string; reference_tasks: number | null };
}

interface Arm {
  arm: string;
  fields: Record<string, string | null>;
  /** Per task (cluster index): the sum of values and the number of trajectories. */
  sum: Float64Array;
  count: Float64Array;
  byRun: Map<number, { sum: number; n: number }>;
  trajectories: number;
  /** The arm's trajectories (store slots) and each one's task cluster, in the order they were grouped. */
  slots: number[];
  slotClusters: number[];
}

/**
 * Every arm (the trajectories grouped by `by`) with its value and a task-clustered interval, the figure
 * leaderboards print beside it (mean over runs ± SE over runs), every pair of arms compared on their common
 * tasks (task-clustered bootstrap CI, the task-level sign-flip test of the task differences, Holm over all
 * pairs), bootstrap rank intervals (every arm re-ranked on each draw of the tasks), simultaneous rank sets
 * (Mogstad et al. 2024), and the tie groups the data cannot separate.
 */
const CORRECTION_ESTIMATOR =
  "prediction-powered inference: θ = mean_ref(h) + λ·(mean_all(f) − mean_ref(f)), f the arm's GCPC by its " +
  "scoring judge on every trajectory, h the reference judge's GCPC on the trajectories it labelled; λ in [0, 1] " +
  "power-tuned (PPI++) to the least variance over the draws unless fixed; task-clustered bootstrap stratified " +
  "by labelled and other tasks, expanded percentile interval (Hesterberg 2015) on the labelled tasks' count";

/** Each row's judge-corrected mean towards the store's reference judge (judge-corrected.ts), and how. */
function correctRows(
  p: PreparedStore,
  arms: Arm[],
  rows: LeaderboardRow[],
  clusters: number,
  scoreOf: (k: number) => number,
  settings: BootstrapSettings,
  corrected: CorrectionOptions,
  stage: (what: string) => void,
): NonNullable<Leaderboard["correction"]> | NotAvailable {
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") return reference;
  stage(`judge-corrected means of ${arms.length} arms towards ${reference}`);
  arms.forEach((a, i) => {
    const cluster = new Map(a.slots.map((k, j) => [k, a.slotClusters[j]]));
    const arm = { name: a.arm, slots: a.slots, clusterOf: (k: number) => cluster.get(k)!, clusters };
    rows[i].corrected = judgeCorrectedMean(p, arm, scoreOf, reference, settings, corrected);
  });
  return {
    reference_judge: reference,
    estimator: CORRECTION_ESTIMATOR,
    reference_tasks: corrected.referenceTasks ? corrected.referenceTasks.size : null,
  };
}

/** The arms the pairwise tests cover by default: the site's heat map and the CLI's table stay readable. */
export const PAIRWISE_TOP = 20;

/** What the GCPC of an arm is: the weighted form in a store whose items carry weights. */
const gcpcName = (p: PreparedStore) => (p.unweightedGcpc ? "mean weighted GCPC (Σ w·grade / Σ w)" : "mean GCPC");

export function leaderboard(
  p: PreparedStore,
  o: {
    by: ArmField[];
    metric?: LeaderboardMetric;
    /** pass^k and pass@k: the k (attempts drawn per task). */
    k?: number;
    /** GCPC: every trajectory scored by this judge's labels (run 1), instead of each one's scoring judge. */
    judge?: string;
    settings: BootstrapSettings;
    where?: Selector;
    /** false: no pairwise tests (nor tie groups), the arms' values and ranks only (the report's first section). */
    pairwise?: boolean;
    /** Pairwise tests among the top N arms by value only (default PAIRWISE_TOP): N arms make N(N − 1)/2 tests. */
    top?: number;
    /** Called as each stage starts (the CLI's progress lines). */
    stage?: (what: string) => void;
    /** GCPC only: each arm's mean corrected towards the store's reference judge (prediction-powered inference). */
    corrected?: CorrectionOptions;
  },
): Leaderboard | NotAvailable {
  const stage = o.stage ?? (() => undefined);
  const metric = o.metric ?? "pass_rate";
  const gcpc = methodScoreMaps(p).get("gcpc")!;
  const judge = o.judge;
  if (judge !== undefined && !p.counts.judges.includes(judge))
    return notAvailable(`no judge "${judge}" in the store (its judges: ${p.counts.judges.join(", ") || "none"})`);
  const scoreOf = (k: number) => {
    const t = p.trajectories[k];
    if (metric !== "gcpc") return t.outcome === "PASS" ? 1 : 0;
    return judge === undefined ? (gcpc.get(t.trajectory_id) ?? NaN) : p.scoreAt(k, PLAIN, "exclude", judge);
  };
  const where = Object.entries(o.where ?? {}) as [ArmField, string][];
  const kept = (k: number) => where.every(([f, v]) => fieldOf(p, p.trajectories[k], f) === v);
  // GCPC is a property of the checklist labels: a trajectory with no binary outcome (a rubric table imported
  // without --outcome) has one all the same. Only the pass rate needs the outcome.
  const needsOutcome = metric !== "gcpc";
  const slots = p.trajectories
    .map((_, k) => k)
    .filter((k) => (!needsOutcome || isBinary(p.trajectories[k])) && Number.isFinite(scoreOf(k)) && kept(k));
  if (slots.length === 0)
    return notAvailable(`no trajectory with a ${metric === "gcpc" ? "GCPC score" : "binary outcome"}`);
  const { clusterOf, clusters, ids } = taskClusters(slots.map((k) => p.trajectories[k].task_id));
  let arms = groupArms(p, slots, o.by, scoreOf, clusterOf, clusters);
  if (metric === "pass^k" || metric === "pass@k") {
    const k = o.k ?? NaN;
    if (!(Number.isInteger(k) && k >= 1)) return notAvailable(`${metric} needs k, a whole number ≥ 1`);
    arms = arms.map((a) => perTaskAttempts(a, metric, k)).filter((a) => a.count.some((c) => c > 0));
    if (arms.length === 0) return notAvailable(`${metric}: no arm ran any task at least ${k} times`);
  }
  // One arm is a leaderboard of one row (no pairs, no joint sets): the Real evaluations page lists every arm.
  stage(`rank intervals of ${arms.length} arms over ${ids.length} tasks (${o.settings.resamples} resamples)`);
  const ranks = rankIntervals(arms, clusters, o.settings);
  const rows = armRows(arms, ranks);
  const order = rows
    .map((_, i) => i)
    .sort((x, y) => rows[y].value - rows[x].value || compareCodePoints(rows[x].arm, rows[y].arm));
  const tests = o.pairwise === false ? null : topPairwise(arms, rows, order, clusters, o, stage);
  let correction: Leaderboard["correction"];
  if (o.corrected) {
    if (metric !== "gcpc" || judge !== undefined) return notAvailable("--judge-corrected applies to --metric gcpc");
    const done = correctRows(p, arms, rows, clusters, scoreOf, o.settings, o.corrected, stage);
    if ("available" in done) return done;
    correction = done;
  }
  return {
    by: o.by,
    where: o.where ?? {},
    metric,
    estimator:
      `${metricName(p, metric, o.k)}${judge === undefined ? "" : ` (every trajectory scored by judge ${judge})`}; ` +
      `task-clustered percentile bootstrap (type-7) over ${ids.length} tasks, every arm re-ranked on each draw`,
    rows: order.map((i) => rows[i]),
    pairwise: tests?.pairwise ?? [],
    pairwise_scope: tests?.scope ?? { top: 0, arms: arms.length, pairs: 0, note: null },
    // No pairwise tests (the report's first section): no tie groups either, rather than one group of every arm.
    tie_groups: tests?.tieGroups ?? [],
    ...(correction ? { correction } : {}),
    bootstrap: ranks.bootstrap,
    rank_joint: ranks.joint
      ? {
          method: ranks.joint.method,
          critical: ranks.joint.critical,
          separated: ranks.joint.separated,
          resamples: ranks.joint.resamples,
          seed: ranks.joint.seed,
        }
      : null,
  };
}

/** What a metric's value is, as the estimator line says it. */
function metricName(p: PreparedStore, metric: LeaderboardMetric, k?: number): string {
  if (metric === "pass_rate") return "pass rate = passes / trials per arm over its trajectories";
  if (metric === "gcpc") return `${gcpcName(p)} per arm over its trajectories`;
  const per =
    metric === "pass^k"
      ? `C(c, ${k}) / C(n, ${k}), the chance that ${k} of its attempts all pass (τ-bench's pass^k)`
      : `1 − C(n − c, ${k}) / C(n, ${k}), the chance that one of ${k} of its attempts passes (Chen et al. 2021)`;
  return (
    `${metric} (k = ${k}) = the mean over the arm's tasks with n ≥ ${k} attempts (c passes) of ${per}; ` +
    `tasks with fewer attempts and arms with none are left out`
  );
}

/**
 * An arm's per-task pass^k or pass@k: each task with n ≥ k attempts weighs 1 and holds its value, the others
 * nothing, so the pooled ratio is the mean over its tasks (on a draw, weighted by the task's draw count). The
 * runs figure (mean over trial indices) does not apply.
 */
function perTaskAttempts(a: Arm, metric: AttemptMetric, k: number): Arm {
  const sum = new Float64Array(a.sum.length);
  const count = new Float64Array(a.count.length);
  for (let t = 0; t < a.count.length; t++) {
    const n = a.count[t];
    if (n < k) continue;
    sum[t] = attemptMetric(metric, n, a.sum[t], k);
    count[t] = 1;
  }
  return { ...a, sum, count, byRun: new Map() };
}

/** Each arm's row: its value, interval, runs figure, ranks and caveat (in the arms' order). */
function armRows(arms: Arm[], ranks: ReturnType<typeof rankIntervals>): LeaderboardRow[] {
  const rows = arms.map((a, i): LeaderboardRow => {
    const tasks = a.count.reduce((n, c) => n + (c > 0 ? 1 : 0), 0);
    return {
      arm: a.arm,
      fields: a.fields,
      trajectories: a.trajectories,
      tasks,
      value: ratio(a, null),
      ci: ranks.valueCi[i],
      ...degenerateMark(ranks.bootstrap, `value:${i}`),
      few_clusters: tasks < FEW_CLUSTERS,
      runs: runFigure(a),
      rank: ranks.estimate[i],
      rank_ci: ranks.rankCi[i],
      rank_ci_joint: ranks.joint?.sets[i] ?? null,
      caveat: null,
    };
  });
  // The board's tasks are every task any arm ran (issue 45.5: "71 of the board's 76" named the widest arm's
  // count where the board held 223); an arm whose tasks no other arm ran is compared with nothing.
  const board = arms[0]?.count.length ?? 0;
  const shared = sharesTask(arms);
  rows.forEach((r, i) => {
    r.caveat = rowCaveat(r.tasks, board, arms.length > 1 && !shared[i]);
  });
  return rows;
}

/** Per arm: whether another arm ran at least one of its tasks. */
function sharesTask(arms: Arm[]): boolean[] {
  const runners = new Int32Array(arms[0]?.count.length ?? 0);
  for (const a of arms) a.count.forEach((c, t) => void (c > 0 && runners[t]++));
  return arms.map((a) => a.count.some((c, t) => c > 0 && runners[t] > 1));
}

function groupArms(
  p: PreparedStore,
  slots: number[],
  by: ArmField[],
  scoreOf: (k: number) => number,
  clusterOf: Int32Array,
  clusters: number,
): Arm[] {
  const arms = new Map<string, Arm>();
  slots.forEach((k, i) => {
    const t = p.trajectories[k];
    const fields = Object.fromEntries(by.map((f) => [f, fieldOf(p, t, f)]));
    const arm = by.map((f) => fields[f] ?? "").join(" / ");
    if (!arms.has(arm))
      arms.set(arm, {
        arm,
        fields,
        sum: new Float64Array(clusters),
        count: new Float64Array(clusters),
        byRun: new Map(),
        trajectories: 0,
        slots: [],
        slotClusters: [],
      });
    const a = arms.get(arm)!;
    const v = scoreOf(k);
    a.sum[clusterOf[i]] += v;
    a.count[clusterOf[i]]++;
    a.trajectories++;
    a.slots.push(k);
    a.slotClusters.push(clusterOf[i]);
    if (t.trial !== null && t.trial !== undefined) {
      const r = a.byRun.get(t.trial) ?? { sum: 0, n: 0 };
      r.sum += v;
      r.n++;
      a.byRun.set(t.trial, r);
    }
  });
  return [...arms.keys()].sort(compareCodePoints).map((k) => arms.get(k)!);
}

/** An arm's pooled value on a draw's task weights (null: every weight 1). */
function ratio(a: Arm, w: ArrayLike<number> | null): number {
  // On the sample (no draw) every task weighs 1.
  return weightedRatio(w ?? new Float64Array(a.sum.length).fill(1), a.sum, a.count);
}

/** Mean over runs (trial indices) of the run's value, and the SE over runs (sd / √runs). */
function runFigure(a: Arm): LeaderboardRow["runs"] {
  const values = [...a.byRun.values()].map((r) => r.sum / r.n);
  const k = values.length;
  if (k === 0) return { k, mean: null, se: null };
  const mean = values.reduce((x, y) => x + y, 0) / k;
  const sd = k > 1 ? Math.sqrt(values.reduce((x, v) => x + (v - mean) ** 2, 0) / (k - 1)) : NaN;
  return { k, mean, se: finite(sd / Math.sqrt(k)) };
}

/** Ranks 1 = highest value, ties sharing the average of their ranks. */
function ranksOf(values: ArrayLike<number>, out: Float64Array): void {
  const n = values.length;
  for (let i = 0; i < n; i++) {
    let above = 0;
    let equal = 0;
    for (let j = 0; j < n; j++) {
      if (values[j] > values[i]) above++;
      else if (values[j] === values[i]) equal++;
    }
    out[i] = above + (equal + 1) / 2;
  }
}

function rankIntervals(arms: Arm[], clusters: number, settings: BootstrapSettings) {
  const values = new Float64Array(arms.length);
  const ranks = new Float64Array(arms.length);
  const estimate = new Float64Array(arms.length);
  ranksOf(
    arms.map((a) => ratio(a, null)),
    estimate,
  );
  const none = arms.map(() => null);
  if (clusters < 2) return { estimate: [...estimate], rankCi: none, valueCi: none, bootstrap: null, joint: null };
  const statistics: Record<string, (w: Float64Array) => number> = {};
  // On each draw the first statistic computes every arm's value and rank; the others read them (in order).
  arms.forEach((_, i) => {
    statistics[`value:${i}`] = (w) => {
      if (i === 0) {
        for (let j = 0; j < arms.length; j++) values[j] = ratio(arms[j], w);
        ranksOf(values, ranks);
      }
      return values[i];
    };
  });
  arms.forEach((_, i) => {
    statistics[`rank:${i}`] = () => ranks[i];
  });
  const res = bootstrapIntervals({
    settings,
    figure: "leaderboard:ranks",
    clusters,
    estimator: "arm values and ranks (1 = best, ties averaged) on the same task-clustered draws; percentile (type-7)",
    statistics,
    // An arm without any of the drawn tasks has no value on that draw: redrawn (NaN).
  });
  return {
    estimate: [...estimate],
    rankCi: arms.map((_, i) => res.ci[`rank:${i}`]),
    valueCi: arms.map((_, i) => res.ci[`value:${i}`]),
    bootstrap: res.bootstrap,
    joint: jointRanks(arms, res.draws, settings, res.bootstrap.seed),
  };
}

/**
 * The pairwise tests among the top `o.top` arms by value (PAIRWISE_TOP by default), Holm over their pairs, and
 * their tie groups. The tested arms keep the arms' own order, so a pair's seed and draws are those of a board
 * of these arms alone.
 */
function topPairwise(
  arms: Arm[],
  rows: LeaderboardRow[],
  order: number[],
  clusters: number,
  o: { top?: number; settings: BootstrapSettings },
  stage: (what: string) => void,
): { pairwise: PairwiseRow[]; scope: Leaderboard["pairwise_scope"]; tieGroups: string[][] } {
  const top = Math.min(o.top ?? PAIRWISE_TOP, arms.length);
  const topSet = new Set(order.slice(0, top));
  const tested = arms.filter((_, i) => topSet.has(i));
  if (top >= 2) stage(`${(top * (top - 1)) / 2} pairwise tests among the top ${top} arms`);
  const pairwise = pairwiseRows(tested, clusters, o.settings);
  return {
    pairwise,
    scope: {
      top,
      arms: arms.length,
      pairs: pairwise.length,
      note:
        top < arms.length
          ? `pairwise tests, Holm and tie groups among the top ${top} of ${arms.length} arms by value only ` +
            "(--top N); every arm keeps its interval and rank intervals"
          : null,
    },
    tieGroups: tieGroups(
      order.filter((i) => topSet.has(i)).map((i) => rows[i].arm),
      pairwise,
    ),
  };
}

/** The simultaneous rank sets on the marginal intervals' own task draws (read, not drawn again). */
function jointRanks(arms: Arm[], draws: Record<string, Float64Array>, settings: BootstrapSettings, seed: string) {
  const sets = jointRankSets(
    arms.map((a) => ratio(a, null)),
    arms.map((_, i) => draws[`value:${i}`]),
    settings.level,
  );
  return { ...sets, resamples: settings.resamples, seed };
}

function pairwiseRows(arms: Arm[], clusters: number, settings: BootstrapSettings): PairwiseRow[] {
  const rows: PairwiseRow[] = [];
  for (let i = 0; i < arms.length; i++)
    for (let j = i + 1; j < arms.length; j++) rows.push(pairOf(arms[i], arms[j], clusters, settings));
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((r, k) => ({ ...r, p_holm: adjusted[k] }));
}

/** Two arms on their common tasks: per task, the difference of their means; averaged; clustered by task. */
function pairOf(a: Arm, b: Arm, clusters: number, settings: BootstrapSettings): PairwiseRow {
  const common: number[] = [];
  for (let c = 0; c < clusters; c++) if (a.count[c] > 0 && b.count[c] > 0) common.push(c);
  const d = common.map((c) => a.sum[c] / a.count[c] - b.sum[c] / b.count[c]);
  const figure = `leaderboard:pair:${a.arm}|${b.arm}`;
  const flip = signFlipTest(d, { seed: seedFor(settings, `${figure}:sign-flip`) });
  const up = d.filter((x) => x > 0).length;
  const down = d.filter((x) => x < 0).length;
  const base = {
    row: a.arm,
    column: b.arm,
    tasks: common.length,
    p_holm: null,
    test: { method: flip.method, exact: flip.exact, mc_se: flip.mc_se },
    sign_test_p: up + down === 0 ? null : finite(signTestPValue(Math.min(up, down), up + down)),
  };
  if (d.length === 0) return { ...base, delta: null, ci: null, p: null };
  const delta = d.reduce((x, y) => x + y, 0) / d.length;
  const p = finite(flip.pValue);
  if (d.length < 2) return { ...base, delta, ci: null, p };
  // One unit per common task: the draw's mean of d is Σ w·d / Σ w.
  const ones = new Float64Array(d.length).fill(1);
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters: d.length,
    estimator: "mean over common tasks of the difference of the arms' task means; task-clustered percentile bootstrap",
    statistics: {
      delta: (w) => weightedRatio(w, d, ones),
    },
  });
  return { ...base, delta, ci: res.ci.delta, ...degenerateMark(res.bootstrap), p };
}

/**
 * The groups of consecutive arms (in value order) in which every pair has a Holm-adjusted p ≥ 0.05 (or none):
 * each arm starts the longest such run, and a run inside an earlier one is dropped. Groups may overlap, as
 * in a compact letter display: an arm between two separable ones can be tied with each.
 */
function tieGroups(order: string[], pairwise: PairwiseRow[]): string[][] {
  const holmOf = new Map<string, number | null>();
  for (const r of pairwise) {
    holmOf.set(JSON.stringify([r.row, r.column]), r.p_holm);
    holmOf.set(JSON.stringify([r.column, r.row]), r.p_holm);
  }
  const pOf = (x: string, y: string) => holmOf.get(JSON.stringify([x, y])) ?? null;
  const tied = (x: string, y: string) => {
    const p = pOf(x, y);
    return p === null || p >= 0.05;
  };
  const groups: string[][] = [];
  let reach = -1;
  for (let i = 0; i < order.length; i++) {
    let j = i;
    while (j + 1 < order.length && order.slice(i, j + 1).every((x) => tied(x, order[j + 1]))) j++;
    if (j > reach) groups.push(order.slice(i, j + 1));
    reach = Math.max(reach, j);
  }
  return groups;
}

function rowCaveat(tasks: number, board: number, alone: boolean): string | null {
  const out: string[] = [];
  if (tasks < FEW_CLUSTERS) out.push(`few tasks (${tasks}): its interval and ranks are unreliable`);
  if (alone) out.push("shares no task with another arm: its rank compares different tasks, not the same ones");
  else if (tasks < board)
    out.push(`ran ${tasks} of the board's ${board} tasks: ranked on its own tasks, not common ones`);
  return out.length ? out.join("; ") : null;
}
