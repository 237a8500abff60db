// The Overview's "Judges' consensus" (issue 58.2): `gcpc consensus`'s figures at its default refits and the
// report's seed, without the per-trajectory list (its mean and the disagreements are what the page shows).
import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { CONSENSUS_RESAMPLES, consensusReport } from "../../analysis/rq/judge-consensus.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";

export function siteConsensus(prepared: PreparedStore, settings: BootstrapSettings) {
  const s = { ...settings, resamples: CONSENSUS_RESAMPLES, headline_resamples: CONSENSUS_RESAMPLES };
  const r = consensusReport(prepared, s);
  if (!r)
    return {
      available: false,
      reason:
        "fewer than two judges labelled this store and no reference judge's labels anchor one: nothing to estimate",
    };
  const { trajectories, ...rest } = r;
  return {
    available: true,
    resamples: s.resamples,
    seed: s.seed,
    level: s.level,
    ...rest,
    trajectories: trajectories.length,
  };
}
