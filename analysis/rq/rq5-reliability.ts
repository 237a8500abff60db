import { max, min } from "d3";
import { UnitWeightedIntervalAlpha } from "../stats/krippendorff-alpha.js";
import { median } from "../stats/quantile.js";
import { roundTo12 } from "../stats/shares.js";
import { signTest } from "../stats/sign-test.js";
import { benjaminiHochberg, holm } from "../stats/multiplicity.js";
import { PLAIN, WITH_OFFICIAL_OUTCOME } from "../scoring/official-outcome.js";
import { checkGates } from "./checklist-gates.js";
import { degenerateMark, FEW_CLUSTERS } from "../estimates/bootstrap-interval.js";
import { taskClusters } from "./common.js";
import {
  bootstrapIntervals,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import { finite, notAvailable, type NotAvailable } from "../estimates/not-defined.js";
import { compareCodePoints } from "../order.js";
import { spearmanWithCI } from "./spearman-estimate.js";
import { isBinary, type PreparedStore } from "./prepared.js";

export interface Rq5Result {
  reliability:
    | {
        alpha: number | null;
        ci: [number, number] | null;
        units: number;
        runs: number;
        unit_rule: string;
        /** Tasks of the pairable units: the bootstrap resamples tasks (trajectories nest in tasks). */
        tasks: number;
        few_clusters: boolean;
        bootstrap: BootstrapDescriptor | null;
        degenerate?: true;
        note?: string;
      }
    | NotAvailable;
  judge_substitution:
    | {
        judge: string;
        n_plain: number;
        rho_plain: number | null;
        rho_plain_ci: [number, number] | null;
        n_outcome: number;
        rho_outcome: number | null;
        rho_outcome_ci: [number, number] | null;
        /** Each ρ's bootstrap: seed, resamples, clusters, few_clusters, Monte Carlo SE, degenerate statistics. */
        bootstrap_plain: BootstrapDescriptor | null;
        bootstrap_outcome: BootstrapDescriptor | null;
      }[]
    | NotAvailable;
  transfer: {
    benchmark: string;
    tasks: number;
    items: number;
    items_min: number | null;
    items_median: number | null;
    items_max: number | null;
    route_assertion: number | null;
    route_generated: number | null;
    route_judge: number | null;
    valid_items: number;
    validity: number | null;
    failed_quote: number;
    failed_assertion: number;
    failed_text: number;
    trajectories: number;
  }[];
  pair_check: {
    benchmark: string;
    tasks_with_both: number;
    decidable: number;
    undecidable: number;
    higher: number;
    lower: number;
    equal: number;
    median_delta: number | null;
    sign_test_p: number | null;
    /** Holm and Benjamini–Hochberg adjustments over the benchmarks (one family of tests). */
    sign_test_p_holm: number | null;
    sign_test_p_bh: number | null;
  }[];
}

/** RQ5 (paper §4.6, Table 4). */
export function rq5Reliability(p: PreparedStore, settings: BootstrapSettings): Rq5Result {
  return {
    reliability: reliability(p, settings),
    judge_substitution: judgeSubstitution(p, settings),
    transfer: transfer(p),
    pair_check: pairCheck(p),
  };
}

/** Krippendorff α (interval) of plain GCPC across runs of the primary judge (rule 8), bootstrap over tasks. */
function reliability(p: PreparedStore, settings: BootstrapSettings): Rq5Result["reliability"] {
  // By slot (runsAt, scoreAt): the trajectories' runs without an id lookup each.
  const runsOfPrimary = (k: number) =>
    (p.runsAt(k) ?? [])
      .filter((r) => r.judge === p.primaryJudge)
      .map((r) => r.run)
      .sort((a, b) => a - b);
  const slots = p.trajectories.map((_, k) => k);
  const directed = slots.filter((k) => p.trajectories[k].tags?.includes("directed"));
  const unitRule = directed.length ? "trajectories tagged 'directed'" : "all trajectories with more than one run";
  const unitSlots = directed.length
    ? directed
    : slots.filter((k) => (p.runsAt(k)?.length ?? 0) > 1 && runsOfPrimary(k).length > 1);
  const units = unitSlots.map((k) => p.trajectories[k]);
  if (units.length === 0)
    return notAvailable("no trajectory tagged 'directed' and none with more than one scoring run");
  const allRuns = new Set<number>();
  const values = unitSlots.map((k) => {
    const vals: number[] = [];
    for (const run of runsOfPrimary(k)) {
      allRuns.add(run);
      const g = p.scoreAt(k, PLAIN, "exclude", p.primaryJudge, run);
      if (Number.isFinite(g)) vals.push(g); // all-Abstain run = missing value
    }
    return vals;
  });
  const alpha = new UnitWeightedIntervalAlpha(values);
  const estimate = alpha.estimate();
  // The pairable units (≥ 2 values) in the order the α object keeps them, and their tasks.
  const { clusterOf, clusters } = taskClusters(units.filter((_, i) => values[i].length >= 2).map((t) => t.task_id));
  const base = {
    units: units.length,
    runs: allRuns.size,
    unit_rule: unitRule,
    tasks: clusters,
    few_clusters: clusters < FEW_CLUSTERS,
  };
  if (!Number.isFinite(estimate))
    return {
      ...base,
      alpha: null,
      ci: null,
      bootstrap: null,
      note: "α undefined: fewer than two pairable values or no variation",
    };
  if (clusters < 2)
    return { ...base, alpha: estimate, ci: null, bootstrap: null, note: "CI not available: the units hold one task" };
  const unitWeights = new Float64Array(clusterOf.length);
  const res = bootstrapIntervals({
    settings,
    figure: "rq5:reliability",
    clusters,
    estimator: "Krippendorff α (interval); tasks resampled with their trajectories (units); percentile (type-7)",
    statistics: {
      α: (w) => {
        for (let u = 0; u < clusterOf.length; u++) unitWeights[u] = w[clusterOf[u]];
        return alpha.evaluate(unitWeights);
      },
    },
  });
  return { ...base, alpha: estimate, ci: res.ci.α, bootstrap: res.bootstrap, ...degenerateMark(res.bootstrap) };
}

/** Spearman ρ of GCPC under the primary judge vs each other judge (run 1), plain and with official outcome. */
function judgeSubstitution(p: PreparedStore, settings: BootstrapSettings): Rq5Result["judge_substitution"] {
  const others = p.counts.judges.filter((j) => j !== p.primaryJudge);
  if (others.length === 0) return notAvailable("judgments hold only the primary judge");
  return others.map((judge) => {
    const plainA = new Map<string, number>(),
      plainB = new Map<string, number>(),
      outA = new Map<string, number>(),
      outB = new Map<string, number>();
    // By slot: scoreAt is NaN exactly where labelsOf is undefined (two decoded label arrays and
    // four id lookups per trajectory).
    const has = (k: number, j: string) => p.labelsAt(k, j) !== undefined;
    for (const [k, t] of p.trajectories.entries()) {
      const id = t.trajectory_id;
      if (!has(k, judge) || !has(k, p.primaryJudge)) continue;
      const a = p.scoreAt(k, PLAIN),
        b = p.scoreAt(k, PLAIN, "exclude", judge);
      if (Number.isFinite(a) && Number.isFinite(b)) {
        plainA.set(id, a);
        plainB.set(id, b);
      }
      const c = p.scoreAt(k, WITH_OFFICIAL_OUTCOME),
        d = p.scoreAt(k, WITH_OFFICIAL_OUTCOME, "exclude", judge);
      if (Number.isFinite(c) && Number.isFinite(d)) {
        outA.set(id, c);
        outB.set(id, d);
      }
    }
    const plain = spearmanWithCI(p, [...plainA.keys()], plainA, plainB, settings, `rq5:judge:${judge}:plain`);
    const outcome = spearmanWithCI(p, [...outA.keys()], outA, outB, settings, `rq5:judge:${judge}:outcome`);
    return {
      judge,
      n_plain: plain.rho_n,
      rho_plain: plain.rho,
      rho_plain_ci: plain.rho_ci,
      n_outcome: outcome.rho_n,
      rho_outcome: outcome.rho,
      rho_outcome_ci: outcome.rho_ci,
      bootstrap_plain: plain.bootstrap,
      bootstrap_outcome: outcome.bootstrap,
    };
  });
}

function benchmarks(p: PreparedStore): string[] {
  return [...new Set(p.store.tasks.map((t) => t.benchmark))].sort(compareCodePoints);
}

/** Table 4: per benchmark, tasks, items and validity = share of items passing every mechanical gate. */
function transfer(p: PreparedStore): Rq5Result["transfer"] {
  return benchmarks(p).map((benchmark) => {
    const tasks = p.store.tasks.filter((t) => t.benchmark === benchmark);
    const taskIds = new Set(tasks.map((t) => t.task_id));
    const items = p.store.items.filter((it) => taskIds.has(it.task_id));
    const gates = items.map((it) => checkGates(it, p.tasks.get(it.task_id)));
    const valid = gates.filter((g) => g.valid).length;
    const perTask = tasks.map((t) => (p.checklist.get(t.task_id) ?? []).length);
    const share = (route: string) =>
      items.length ? items.filter((it) => it.route === route).length / items.length : null;
    return {
      benchmark,
      tasks: tasks.length,
      items: items.length,
      items_min: perTask.length ? min(perTask)! : null,
      items_median: finite(median(perTask)),
      items_max: perTask.length ? max(perTask)! : null,
      route_assertion: share("assertion"),
      route_generated: share("generated"),
      route_judge: share("judge"),
      valid_items: valid,
      validity: items.length ? valid / items.length : null,
      failed_quote: gates.filter((g) => !g.quote_verbatim).length,
      failed_assertion: gates.filter((g) => !g.assertion_resolves).length,
      failed_text: gates.filter((g) => !g.has_text).length,
      trajectories: p.trajectories.filter((t) => taskIds.has(t.task_id)).length,
    };
  });
}

/** Same-task pair check (rule 9): first PASS vs first FAIL per task; zero-evidence on either side = undecidable. */
function pairCheck(p: PreparedStore): Rq5Result["pair_check"] {
  const byTask = new Map<string, typeof p.trajectories>();
  for (const t of p.trajectories) {
    if (!isBinary(t)) continue;
    let list = byTask.get(t.task_id);
    if (!list) byTask.set(t.task_id, (list = []));
    list.push(t); // stays in trajectory_id order
  }
  const rows = benchmarks(p).map((benchmark) => {
    let tasksWithBoth = 0,
      undecidable = 0;
    const deltas: number[] = [];
    for (const task of p.store.tasks.filter((t) => t.benchmark === benchmark)) {
      const ts = byTask.get(task.task_id) ?? [];
      const pass = ts.find((t) => t.outcome === "PASS"),
        fail = ts.find((t) => t.outcome === "FAIL");
      if (!pass || !fail) continue;
      tasksWithBoth++;
      const a = p.metrics.get(pass.trajectory_id)!,
        b = p.metrics.get(fail.trajectory_id)!;
      if (a.zero_evidence || b.zero_evidence) {
        undecidable++;
        continue;
      }
      deltas.push(roundTo12(a.gcpc - b.gcpc));
    }
    const sign = signTest(deltas);
    return {
      benchmark,
      tasks_with_both: tasksWithBoth,
      decidable: deltas.length,
      undecidable,
      higher: sign.positive,
      lower: sign.negative,
      equal: sign.zeros,
      median_delta: finite(median(deltas)),
      sign_test_p: finite(sign.pValue),
    };
  });
  const ps = rows.map((r) => r.sign_test_p);
  const [h, bh] = [holm(ps), benjaminiHochberg(ps)];
  return rows.map((r, i) => ({ ...r, sign_test_p_holm: h[i], sign_test_p_bh: bh[i] }));
}
