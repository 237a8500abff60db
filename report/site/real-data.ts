import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { verifierTestShare } from "../../analysis/rq/trajectory-frame.js";
import { outcomeLevel } from "../../analysis/rq/outcome-level.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import { armPassRates } from "../../analysis/rq/arm-rates.js";
import { rq1Discrimination } from "../../analysis/rq/rq1-discrimination.js";
import type { RealStores } from "../../store/real-stores.js";

/**
 * The Real evaluations page: per real source (each imported by `gcpc import` into data/real/), what it is,
 * its counts, pass rates per arm with task-clustered CIs, the AUC rows (outcome-free and not, labelled),
 * and for τ²'s judges their AUC against the reward and their agreement; then the SkillsBench registry
 * (cell-level pass counts) and the Harbor trial sample as before.
 */
export function realData(real: RealStores, settings: BootstrapSettings) {
  return {
    settings,
    sources: [
      evaluation("terminal-bench", real.terminalBench, settings),
      evaluation("tau2-sft", real.tau2Sft, settings),
      evaluation("tau2-judges", real.tau2Judges, settings),
    ],
    ...registryAndHarbor(real.registry, real.harbor, settings),
  };
}

/** One real source in one screen: what it is, counts, pass rate per arm, AUC rows, judges' agreement. */
function evaluation(id: string, p: PreparedStore, settings: BootstrapSettings) {
  // RQ1 at the run's resample count (the site's headline intervals are the report's, not these).
  const rq1 = rq1Discrimination(p, { ...settings, headline_resamples: settings.resamples });
  return {
    id,
    name: p.store.manifest.name,
    description: p.store.manifest.description ?? "",
    counts: {
      trajectories: p.counts.unique_trajectories,
      binary: p.counts.binary,
      tasks: p.counts.tasks,
      items: p.counts.items,
      outcome_items: p.outcomeItems.determining,
      judgments: p.counts.judgments,
      zero_evidence: p.counts.zero_evidence,
    },
    arms: armPassRates(p.trajectories, settings, ["harness", "model"], `real:${id}:arms`),
    auc: rq1.auc,
    judge_agreement: rq1.judge_agreement,
  };
}

function registryAndHarbor(registry: PreparedStore, harbor: PreparedStore, settings: BootstrapSettings) {
  const share = verifierTestShare(harbor);
  const trials = harbor.trajectories.map((t) => {
    const tests = harbor.testResults.get(t.trajectory_id);
    const counted = tests ? [...tests.values()].filter((s) => s !== "skipped") : [];
    return {
      trajectory_id: t.trajectory_id,
      task_id: t.task_id,
      harness: t.harness,
      model: t.model,
      condition: t.condition,
      reward: t.reward ?? null,
      outcome: t.outcome ?? "non-binary",
      tests_passed: counted.filter((s) => s === "passed").length,
      tests_counted: counted.length,
      verifier_tests: share.get(t.trajectory_id) ?? null,
      exception: (t.tags ?? []).find((g) => g.startsWith("exception:"))?.slice(10) ?? "",
    };
  });
  return {
    registry: {
      name: registry.store.manifest.name,
      tasks: registry.counts.tasks,
      trials: registry.counts.trajectories,
      outcomes: outcomeLevel(registry, settings),
    },
    harbor: { name: harbor.store.manifest.name, trials },
  };
}
