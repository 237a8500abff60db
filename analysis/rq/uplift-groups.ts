// Uplift rows of several groups on one bootstrap (the by-model rows, issue 49.5): every draw resamples the tasks
// once and every group's rates are read off the same draw, instead of one seeded stream per group. The rows'
// intervals are then joint (two models' intervals come from the same resampled task sets) and the task indices
// are drawn once for all groups.
import { shareAbove } from "../stats/bootstrap.js";
import { ClusteredProportions } from "../stats/clustered-proportion.js";
import {
  bootstrapIntervals,
  FEW_CLUSTERS,
  largestMcSe,
  type BootstrapDescriptor,
  type BootstrapSettings,
} from "../estimates/bootstrap-interval.js";
import type { UpliftColumns } from "./uplift-columns.js";
import type { UpliftRow } from "./uplift-row.js";

/** The groups' rows as one job (analysis/rq/jobs.ts): each group's columns number the population's tasks alike. */
export interface UpliftGroupsJob {
  kind: "uplift-groups";
  groups: { group: string; columns: UpliftColumns }[];
  /** The population's tasks: every group's `clusterOf` indexes them. */
  clusters: number;
  figure: string;
  settings: BootstrapSettings;
}

const STATS = ["none", "curated", "uplift"] as const;

/** The rows of every group, their intervals from one task-clustered bootstrap shared by all of them. */
export function upliftGroupRows(job: UpliftGroupsJob): UpliftRow[] {
  const { clusters } = job;
  const parts = job.groups.map(({ group, columns }) => groupPart(group, columns, clusters));
  const statistics: Record<string, (w: Float64Array) => number> = {};
  parts.forEach((p, g) => {
    if (p.row.uplift === null) return;
    const r = new Float64Array(2);
    // Evaluated in this order on each draw: the first computes both rates once.
    statistics[`${g}:none`] = (w) => p.props.rates2(w, r)[0];
    statistics[`${g}:curated`] = () => r[1];
    statistics[`${g}:uplift`] = () => r[1] - r[0];
  });
  if (clusters < 2 || Object.keys(statistics).length === 0) return parts.map((p) => p.row);
  const res = bootstrapIntervals({
    settings: job.settings,
    figure: job.figure,
    clusters,
    estimator:
      "pass rate over matched cells (standardised; passes / trials when balanced); task-clustered percentile " +
      "bootstrap (type-7), one draw of the tasks shared by every harness/model row; uplift on the same draw",
    statistics,
  });
  return parts.map((p, g) => {
    if (!(`${g}:uplift` in res.ci)) return p.row;
    const mcSeBy = Object.fromEntries(STATS.map((s) => [s, res.mcSe[`${g}:${s}`]]));
    const degenerate = STATS.filter((s) => res.bootstrap.degenerate?.includes(`${g}:${s}`));
    const bootstrap: BootstrapDescriptor = {
      ...res.bootstrap,
      mc_se: largestMcSe(Object.values(mcSeBy)),
      mc_se_by: mcSeBy,
      ...(degenerate.length ? { degenerate } : {}),
    };
    if (!degenerate.length) delete bootstrap.degenerate;
    return {
      ...p.row,
      rate_none_ci: res.ci[`${g}:none`],
      rate_curated_ci: res.ci[`${g}:curated`],
      uplift_ci: res.ci[`${g}:uplift`],
      positive_share: shareAbove(res.draws[`${g}:uplift`]),
      bootstrap,
      ...(degenerate.length ? { degenerate: true as const } : {}),
    };
  });
}

/** One group's point figures and its sums per task of the population. */
function groupPart(group: string, columns: UpliftColumns, clusters: number) {
  const { arm, pass, clusterOf, weight } = columns;
  const props = new ClusteredProportions(clusters);
  const a = { trials: 0, successes: 0 };
  const b = { trials: 0, successes: 0 };
  for (let i = 0; i < arm.length; i++) {
    const w = weight ? weight[i] : 1;
    props.add(arm[i], clusterOf[i], pass[i] * w, w);
    const counts = arm[i] === 0 ? a : b;
    counts.trials++;
    counts.successes += pass[i];
  }
  const ones = new Float64Array(clusters).fill(1);
  const rn = props.rate(0, ones);
  const rc = props.rate(1, ones);
  const row: UpliftRow = {
    group,
    tasks: columns.tasks,
    cells: columns.cells,
    cluster_unit: "task",
    clusters: columns.tasks,
    trials_none: a.trials,
    passes_none: a.successes,
    rate_none: Number.isFinite(rn) ? rn : null,
    rate_none_ci: null,
    trials_curated: b.trials,
    passes_curated: b.successes,
    rate_curated: Number.isFinite(rc) ? rc : null,
    rate_curated_ci: null,
    uplift: Number.isFinite(rn) && Number.isFinite(rc) ? rc - rn : null,
    uplift_ci: null,
    positive_share: null,
    bootstrap: null,
    few_clusters: columns.tasks < FEW_CLUSTERS,
  };
  return { row, props };
}
