import {
  bootstrapIntervals,
  degenerateMark,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../../estimates/bootstrap-interval.js";
import { finite } from "../../estimates/not-defined.js";
import { clusterSignTest } from "../../stats/cluster-sign-test.js";
import { ClusteredQuantile } from "../../stats/clustered-quantile.js";
import { taskClusters } from "../common.js";

// The tests of one group of matched pairs' score differences (a transition FAIL→PASS, …): what RQ3 and
// `gcpc compare` both print for each group, so neither owns it (analysis/rq/arms/ holds the arm-shaped code).

/** Material change (paper §4.4): |Δ| > 0.10. */
export const MATERIAL_CHANGE = 0.1;

/** A transition group's Δ per pair and the dense task cluster of each: what its job carries. */
export interface TransitionColumns {
  deltas: Float64Array;
  clusterOf: Int32Array;
  clusters: number;
}

/** What a transition group's job computes: its task-clustered intervals and clustered sign test. */
export interface TransitionTests {
  median_delta_ci: [number, number] | null;
  improved_share_ci: [number, number] | null;
  regressed_share_ci: [number, number] | null;
  /** Each interval's own endpoint Monte Carlo SE [lower, upper] (Maritz–Jarrett), not the largest of the three. */
  median_delta_ci_mc_se: [number, number] | null;
  improved_share_ci_mc_se: [number, number] | null;
  regressed_share_ci_mc_se: [number, number] | null;
  bootstrap: BootstrapDescriptor | null;
  /** Some interval of the row is a point (every draw equals the estimate; `bootstrap.degenerate` says which). */
  degenerate?: true;
  clustered_sign_test_p: number | null;
}

export function transitionTests(job: {
  columns: TransitionColumns;
  settings: BootstrapSettings;
  figure: string;
  /** What counts as improved or regressed: |Δ| beyond it (RQ3: the paper's 0.10; compare: the noise floor). */
  threshold?: number;
}): TransitionTests {
  const { deltas, clusterOf, clusters } = job.columns;
  return {
    ...transitionIntervals(deltas, clusterOf, clusters, job.settings, job.figure, job.threshold ?? MATERIAL_CHANGE),
    clustered_sign_test_p: finite(clusterSignTest(deltas, clusterOf).pValue),
  };
}

/** Task-clustered bootstrap intervals of the median Δ and the improved / regressed shares (same draws). */
function transitionIntervals(
  deltas: Float64Array,
  clusterOf: Int32Array,
  clusters: number,
  settings: BootstrapSettings,
  figure: string,
  threshold: number,
) {
  const none = {
    median_delta_ci: null,
    improved_share_ci: null,
    regressed_share_ci: null,
    median_delta_ci_mc_se: null,
    improved_share_ci_mc_se: null,
    regressed_share_ci_mc_se: null,
    bootstrap: null,
  };
  if (clusters < 2) return none;
  const q = new ClusteredQuantile(deltas, clusterOf, 0.5);
  // Per-cluster counts, so a draw costs O(clusters) rather than O(pairs): a share is
  // Σ_c w_c·hits_c / Σ_c w_c·n_c, the same sum regrouped by cluster. Both shares come from one pass
  // (statistics run in the order given on each draw, so `regressed` reads what `improved` computed).
  const size = new Float64Array(clusters);
  const up = new Float64Array(clusters);
  const down = new Float64Array(clusters);
  for (let i = 0; i < deltas.length; i++) {
    size[clusterOf[i]]++;
    if (deltas[i] > threshold) up[clusterOf[i]]++;
    if (deltas[i] < -threshold) down[clusterOf[i]]++;
  }
  const shares = new Float64Array(2);
  const bothShares = (w: Float64Array) => sharesOfDraw(w, { size, up, down }, shares);
  const res = bootstrapIntervals({
    settings,
    figure,
    clusters,
    estimator:
      threshold === MATERIAL_CHANGE
        ? "median Δ (type-7) and shares of Δ > +0.10 / < −0.10 on the same task-clustered draw; percentile"
        : `median Δ (type-7) and shares of Δ > +${threshold.toFixed(4)} / < −${threshold.toFixed(4)} on the same ` +
          "task-clustered draw; percentile",
    statistics: {
      median: (w) => q.evaluateDraw(w),
      improved: bothShares,
      regressed: () => shares[1],
    },
  });
  return {
    median_delta_ci: res.ci.median,
    improved_share_ci: res.ci.improved,
    regressed_share_ci: res.ci.regressed,
    median_delta_ci_mc_se: res.mcSe.median,
    improved_share_ci_mc_se: res.mcSe.improved,
    regressed_share_ci_mc_se: res.mcSe.regressed,
    bootstrap: res.bootstrap,
    ...degenerateMark(res.bootstrap),
  };
}

/**
 * The improved and regressed shares of a draw into out[0], out[1] (NaN when the draw holds no pair),
 * returning the first. A function of its arguments rather than a closure over the columns: V8 keeps
 * them in registers through the loop (the closure's loop cost several times as much).
 */
function sharesOfDraw(
  w: Float64Array,
  columns: { size: Float64Array; up: Float64Array; down: Float64Array },
  out: Float64Array,
): number {
  const { size, up, down } = columns;
  let all = 0;
  let improved = 0;
  let regressed = 0;
  for (let c = 0; c < size.length; c++) {
    const x = w[c];
    all += x * size[c];
    improved += x * up[c];
    regressed += x * down[c];
  }
  out[0] = all > 0 ? improved / all : NaN;
  out[1] = all > 0 ? regressed / all : NaN;
  return out[0];
}

/** The four outcome transitions of a matched pair (without → with, a → b), in the order every table prints. */
export const TRANSITIONS = [
  ["FAIL", "FAIL"],
  ["FAIL", "PASS"],
  ["PASS", "FAIL"],
  ["PASS", "PASS"],
] as const;

/** A matched pair as the transition groups read it: its sides' outcomes, its task and its score Δ (NaN: none). */
export interface PairOutcome {
  from: "PASS" | "FAIL";
  to: "PASS" | "FAIL";
  task: string;
  delta: number;
}

export interface TransitionGroup<P extends PairOutcome> {
  from: "PASS" | "FAIL";
  to: "PASS" | "FAIL";
  /** The group's pairs with a Δ (both sides scored), in pair order: every figure of the group is over these. */
  scored: P[];
  /** The group's pairs left out for want of a score on a side (a zero-evidence run). */
  unscored: number;
  /** What the group's task-clustered job resamples. */
  columns: TransitionColumns;
}

/**
 * The matched pairs grouped by outcome transition: one grouping for RQ3 (paper §4.4) and `gcpc compare`, each
 * group's scored pairs and the columns its intervals and clustered test resample (tasks as clusters).
 */
export function transitionGroups<P extends PairOutcome>(pairs: readonly P[]): TransitionGroup<P>[] {
  return TRANSITIONS.map(([from, to]) => {
    const members = pairs.filter((x) => x.from === from && x.to === to);
    const scored = members.filter((x) => Number.isFinite(x.delta));
    return { from, to, scored, unscored: members.length - scored.length, columns: transitionColumns(scored) };
  });
}

/** A group's Δ per pair and the dense task cluster of each. */
export function transitionColumns(pairs: readonly PairOutcome[]): TransitionColumns {
  const { clusterOf, clusters } = taskClusters(pairs.map((x) => x.task));
  return { deltas: Float64Array.from(pairs, (x) => x.delta), clusterOf, clusters };
}
