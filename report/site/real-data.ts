import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { verifierTestShare } from "../../analysis/rq/trajectory-frame.js";
import { outcomeLevel } from "../../analysis/rq/outcome-level.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";

/**
 * The Real data page (issue 5): the SkillsBench v1.1 registry (cell-level pass counts) and a sample
 * of Harbor trial folders, both imported by `gcpc import` into data/real/.
 */
export function realData(registry: PreparedStore, harbor: PreparedStore, settings: BootstrapSettings) {
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
    settings,
    registry: {
      name: registry.store.manifest.name,
      tasks: registry.counts.tasks,
      trials: registry.counts.trajectories,
      outcomes: outcomeLevel(registry, settings),
    },
    harbor: { name: harbor.store.manifest.name, trials },
  };
}
