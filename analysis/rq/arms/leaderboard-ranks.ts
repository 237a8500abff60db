// The leaderboard's rank intervals (every arm re-ranked on each draw of the tasks) and simultaneous rank sets.
import { bootstrapIntervals, type BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { jointRankSets } from "../../stats/joint-rank-sets.js";
import { drawRatio, ratio, type Arm } from "./leaderboard-arms.js";

/** Ranks 1 = highest value, ties sharing the average of their ranks. */
export function ranksOf(values: ArrayLike<number>, out: Float64Array): void {
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

export function rankIntervals(arms: Arm[], clusters: number, settings: BootstrapSettings) {
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
  const onDraw = arms.map(drawRatio);
  // On each draw the first statistic computes every arm's value and rank; the others read them (in order).
  arms.forEach((_, i) => {
    statistics[`value:${i}`] = (w) => {
      if (i === 0) {
        for (let j = 0; j < arms.length; j++) values[j] = onDraw[j](w);
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

/** The simultaneous rank sets on the marginal intervals' own task draws (read, not drawn again). */
export function jointRanks(
  arms: Arm[],
  draws: Record<string, Float64Array>,
  settings: BootstrapSettings,
  seed: string,
) {
  const sets = jointRankSets(
    arms.map((a) => ratio(a, null)),
    arms.map((_, i) => draws[`value:${i}`]),
    settings.level,
  );
  return { ...sets, resamples: settings.resamples, seed };
}
