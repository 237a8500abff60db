// `gcpc gate`: a verdict a CI job can act on (issue 56.1). The comparison is `compare`'s (the same matched units,
// the same task-clustered paired interval, the same exact test); the gate reads each metric × slice's interval
// against 0 and the margin, with the familywise error over all of them controlled by Bonferroni.
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import type { PreparedStore } from "../prepared.js";
import {
  armMatchedUnits,
  armTable,
  compareArms,
  fieldOf,
  type ArmField,
  type CompareResult,
  type Selector,
} from "./compare-arms.js";
import { bootstrapIntervals } from "../../estimates/bootstrap-interval.js";

export type GateMetric = "pass_rate" | "gcpc" | "pass^k" | "pass@k";
export type GateVerdict = "better" | "not worse" | "worse" | "inconclusive" | "insufficient data";

/** Fewer matched tasks than this: "insufficient data" (a task bootstrap over fewer covers far below its level). */
export const GATE_MIN_TASKS = 5;

export interface GateOptions {
  baseline: Selector;
  candidate: Selector;
  metrics: GateMetric[];
  /** pass^k / pass@k's k. */
  k?: number;
  /** The non-inferiority margin D ≥ 0 on the metric's scale (a share: 0.02 is 2 points). */
  margin: number;
  /** The familywise error rate over every metric × slice. */
  alpha: number;
  /** "zero": worse when the upper bound is below 0; "margin": only when below −D. */
  regression: "zero" | "margin";
  /** Slices: one comparison per value of this field (besides the whole). */
  by?: ArmField;
  where?: Selector;
  settings: BootstrapSettings;
  /** Guardrails: the candidate's mean cost, tokens or duration per run at most (1 + limit) × the baseline's. */
  guards?: GateGuard[];
}

export interface GateGuard {
  /** The trajectory field (docs/verdict-store.md) and its name on the command line. */
  field: "cost_usd" | "tokens" | "duration_s";
  name: string;
  /** The allowed increase, as a fraction: 0.1 for +10%. */
  limit: number;
}

export interface GateCheck {
  /** A metric, or "guard:NAME" for a guardrail (its estimate the ratio candidate / baseline). */
  metric: GateMetric | `guard:${string}`;
  /** The slice: "all", or "FIELD=VALUE". */
  slice: string;
  verdict: GateVerdict;
  /** Candidate − baseline, its two-sided interval at the family-adjusted level, and the paired test's p. */
  estimate: number | null;
  ci: [number, number] | null;
  p: number | null;
  tasks: number;
  units: number;
  /** The interval and the test that made the verdict, and why, in words. */
  interval: string;
  test: string;
  reason: string;
}

export interface GateResult {
  verdict: GateVerdict;
  checks: GateCheck[];
  margin: number;
  alpha: number;
  /** The level of each check's interval: 1 − α/K (Bonferroni over the K checks). */
  level: number;
  familywise: string;
  decision_table: string;
}

/** The decision rule, in words (docs/statistics.md has it as a table). */
export const DECISION_TABLE =
  "Δ = candidate − baseline with its two-sided interval [L, U] at level 1 − α/K: insufficient data when fewer " +
  `than ${GATE_MIN_TASKS} tasks are matched or a side has no unit; worse when U < 0 (with --regression margin: ` +
  "U < −D); better when L > 0; not worse when L > −D (D > 0); inconclusive otherwise. The gate's verdict is the " +
  "worst of its checks in the order worse, insufficient data, inconclusive, not worse, better.";

/** A check's verdict from its interval (the decision table). */
export function verdictOf(
  ci: [number, number] | null,
  tasks: number,
  o: Pick<GateOptions, "margin" | "regression">,
): { verdict: GateVerdict; reason: string } {
  if (ci === null || tasks < GATE_MIN_TASKS)
    return {
      verdict: "insufficient data",
      reason:
        ci === null ? "no interval (too few matched tasks or units)" : `${tasks} matched tasks (< ${GATE_MIN_TASKS})`,
    };
  const [lo, hi] = ci;
  const worseBelow = o.regression === "margin" ? -o.margin : 0;
  if (hi < worseBelow) return { verdict: "worse", reason: `upper bound ${fmt(hi)} < ${fmt(worseBelow)}` };
  if (lo > 0) return { verdict: "better", reason: `lower bound ${fmt(lo)} > 0` };
  if (o.margin > 0 && lo > -o.margin)
    return { verdict: "not worse", reason: `lower bound ${fmt(lo)} > −${fmt(o.margin)} (the margin)` };
  return {
    verdict: "inconclusive",
    reason:
      o.margin > 0
        ? `the interval [${fmt(lo)}, ${fmt(hi)}] holds 0 and reaches below −${fmt(o.margin)}`
        : `the interval [${fmt(lo)}, ${fmt(hi)}] holds 0 (give --margin D to test non-inferiority)`,
  };
}

const fmt = (x: number) => (Math.abs(x) < 5e-4 ? "0" : x.toFixed(3));

/** Worst first: the gate's verdict is the worst check's. */
const SEVERITY: GateVerdict[] = ["worse", "insufficient data", "inconclusive", "not worse", "better"];

/** The figures of one metric from a compare result. */
function figureOf(
  r: CompareResult,
  metric: GateMetric,
):
  | {
      estimate: number | null;
      ci: [number, number] | null;
      p: number | null;
      test: string;
      tasks: number;
      units: number;
    }
  | NotAvailable {
  if (metric === "pass_rate") {
    const d = r.pass_rate_delta;
    if (d.reason) return notAvailable(d.reason);
    return { estimate: d.estimate, ci: d.ci, p: d.p, test: d.test, tasks: r.matched.tasks, units: r.matched.pairs };
  }
  if (metric === "gcpc") {
    const g = r.score_delta;
    return { estimate: g.estimate, ci: g.ci, p: g.p, test: g.test, tasks: g.tasks, units: g.units };
  }
  const x = r.attempt_delta;
  if (!x || "available" in x) return notAvailable(x?.reason ?? `${metric} needs --k`);
  return { estimate: x.estimate, ci: x.ci, p: x.p, test: x.test, tasks: x.tasks, units: x.units };
}

/** The slices: the whole, then one per value of `by` among the two arms' trajectories. */
function slicesOf(p: PreparedStore, o: GateOptions): { name: string; where: Selector }[] {
  const base = o.where ?? {};
  const out = [{ name: "all", where: base }];
  if (!o.by) return out;
  const values = new Set<string>();
  for (const t of p.trajectories) {
    const v = fieldOf(p, t, o.by);
    if (v !== null && v !== undefined) values.add(v);
  }
  for (const v of [...values].sort()) out.push({ name: `${o.by}=${v}`, where: { ...base, [o.by]: v } });
  return out;
}

export function gate(p: PreparedStore, o: GateOptions): GateResult | NotAvailable {
  if (!(o.alpha > 0 && o.alpha < 1)) return notAvailable(`alpha must be in (0, 1), got ${o.alpha}`);
  if (!(o.margin >= 0)) return notAvailable(`the margin must be ≥ 0, got ${o.margin}`);
  const slices = slicesOf(p, o);
  const guards = o.guards ?? [];
  const K = slices.length * o.metrics.length + guards.length;
  const level = 1 - o.alpha / K;
  const settings = { ...o.settings, level };
  const checks: GateCheck[] = [];
  for (const slice of slices)
    for (const metric of o.metrics) {
      const attempts = metric === "pass^k" || metric === "pass@k" ? { metric, k: o.k ?? 1 } : undefined;
      const r = compareArms(p, { a: o.baseline, b: o.candidate, where: slice.where, settings, attempts });
      const fig =
        "available" in r ? r : "unpaired" in r ? notAvailable("the arms share no matched unit") : figureOf(r, metric);
      if ("available" in fig) {
        checks.push({
          metric,
          slice: slice.name,
          verdict: "insufficient data",
          estimate: null,
          ci: null,
          p: null,
          tasks: 0,
          units: 0,
          interval: "none",
          test: "none",
          reason: fig.reason,
        });
        continue;
      }
      const { verdict, reason } = verdictOf(fig.ci, fig.tasks, o);
      checks.push({
        metric,
        slice: slice.name,
        verdict,
        estimate: fig.estimate,
        ci: fig.ci,
        p: fig.p,
        tasks: fig.tasks,
        units: fig.units,
        interval:
          `task-clustered paired percentile bootstrap (type-7), two-sided ${(100 * level).toFixed(2)}%, ` +
          `${o.settings.resamples} resamples, seed ${o.settings.seed}`,
        test: fig.test,
        reason,
      });
    }
  const guardUnits = guards.length ? matchedRuns(p, o) : undefined;
  for (const g of guards) checks.push(guardCheck(p, guardUnits!, g, settings));
  const verdict = SEVERITY.find((v) => checks.some((c) => c.verdict === v)) ?? "insufficient data";
  return {
    verdict,
    checks,
    margin: o.margin,
    alpha: o.alpha,
    level,
    familywise:
      `Bonferroni over ${K} check${K === 1 ? "" : "s"} (${o.metrics.length} ` +
      `metric${o.metrics.length === 1 ? "" : "s"} × ` +
      `${slices.length} slice${slices.length === 1 ? "" : "s"}` +
      `${guards.length ? ` and ${guards.length} guard${guards.length === 1 ? "" : "s"}` : ""}): ` +
      `each interval at ${(100 * level).toFixed(2)}%, so ` +
      `the chance that any verdict is wrong in its direction is at most α = ${o.alpha}`,
    decision_table: DECISION_TABLE,
  };
}

/**
 * A guardrail: the candidate's mean of a run's cost, tokens or duration over the baseline's, on the matched units
 * (rows without the field left out), with a task-clustered percentile interval of the ratio at the family level.
 * better: upper < 1; not worse: upper < 1 + limit; worse: lower > 1 + limit; inconclusive otherwise.
 */
function guardCheck(
  p: PreparedStore,
  matched: ReturnType<typeof matchedRuns>,
  g: GateGuard,
  settings: BootstrapSettings,
): GateCheck {
  const base = { metric: `guard:${g.name}` as const, slice: "all", p: null, test: "none (an interval only)" };
  const none = (reason: string): GateCheck => ({
    ...base,
    verdict: "insufficient data",
    estimate: null,
    ci: null,
    tasks: 0,
    units: 0,
    interval: "none",
    reason,
  });
  if ("available" in matched) return none(matched.reason);
  const { sums, tasks: T, used } = guardSums(p, matched, g.field);
  if (T < GATE_MIN_TASKS) return none(`${T} matched tasks carry ${g.field} on both sides (< ${GATE_MIN_TASKS})`);
  const ratio = (w: ArrayLike<number>) => {
    let a = 0;
    let na = 0;
    let b = 0;
    let nb = 0;
    for (let t = 0; t < T; t++) {
      a += w[t] * sums.a[t];
      na += w[t] * sums.na[t];
      b += w[t] * sums.b[t];
      nb += w[t] * sums.nb[t];
    }
    return b / nb / (a / na);
  };
  const estimate = ratio(new Float64Array(T).fill(1));
  // A baseline whose mean is 0 (a harness that reports 0 tokens) has no ratio.
  if (!(Number.isFinite(estimate) && sums.a.some((x) => x > 0)))
    return none(`the baseline's mean ${g.field} is 0 on the matched tasks: no ratio`);
  const res = bootstrapIntervals({
    settings,
    figure: `gate:guard:${g.name}`,
    clusters: T,
    estimator: `mean ${g.field} per run, candidate over baseline; task-clustered percentile bootstrap (type-7)`,
    statistics: { ratio },
    accept: (w) => Number.isFinite(ratio(w)),
  });
  const [lo, hi] = res.ci.ratio;
  const { verdict, reason } = guardVerdict(lo, hi, g.limit);
  return {
    ...base,
    verdict,
    estimate,
    ci: [lo, hi],
    tasks: T,
    units: used,
    interval:
      `task-clustered percentile bootstrap (type-7) of the ratio, two-sided ${(100 * settings.level).toFixed(2)}%, ` +
      `${settings.resamples} resamples, seed ${settings.seed}`,
    reason,
  };
}

/** The matched units of the gate's two arms (compare's matching), each side's runs as store slots. */
function matchedRuns(p: PreparedStore, o: GateOptions): { task: string; a: number[]; b: number[] }[] | NotAvailable {
  const table = armTable(p, "gcpc");
  if ("available" in table) return table;
  const units = armMatchedUnits(table, { a: o.baseline, b: o.candidate, where: o.where });
  if ("available" in units) return units;
  const slot = (k: number) => p.slots.get(table.rows[k].id)!;
  return units.units.map((u) => ({ task: u.task, a: u.a.map(slot), b: u.b.map(slot) }));
}

/** Per matched task with the field on both sides: the sums and counts of each side's runs' values. */
function guardSums(p: PreparedStore, units: { task: string; a: number[]; b: number[] }[], field: GateGuard["field"]) {
  const runValue = (k: number) => p.trajectories[k][field] ?? NaN;
  const tasks = new Map<string, number>();
  const sums = { a: [] as number[], na: [] as number[], b: [] as number[], nb: [] as number[] };
  let used = 0;
  for (const u of units) {
    const a = u.a.map(runValue).filter(Number.isFinite);
    const b = u.b.map(runValue).filter(Number.isFinite);
    if (!a.length || !b.length) continue;
    used++;
    if (!tasks.has(u.task)) {
      tasks.set(u.task, tasks.size);
      for (const list of Object.values(sums)) list.push(0);
    }
    const t = tasks.get(u.task)!;
    sums.a[t] += a.reduce((x, y) => x + y, 0);
    sums.na[t] += a.length;
    sums.b[t] += b.reduce((x, y) => x + y, 0);
    sums.nb[t] += b.length;
  }
  return { sums, tasks: tasks.size, used };
}

/** A guard's verdict from its ratio's interval: better below 1, not worse below 1 + limit, worse above it. */
function guardVerdict(lo: number, hi: number, limit: number): { verdict: GateVerdict; reason: string } {
  const bound = 1 + limit;
  const pct = (x: number) => `${x >= 1 ? "+" : ""}${(100 * (x - 1)).toFixed(1)}%`;
  if (hi < 1) return { verdict: "better", reason: `upper bound ${pct(hi)}: cheaper` };
  if (hi < bound) return { verdict: "not worse", reason: `upper bound ${pct(hi)} within the guard ${pct(bound)}` };
  if (lo > bound) return { verdict: "worse", reason: `lower bound ${pct(lo)} beyond the guard ${pct(bound)}` };
  return {
    verdict: "inconclusive",
    reason: `the interval [${pct(lo)}, ${pct(hi)}] reaches beyond the guard ${pct(bound)}`,
  };
}
