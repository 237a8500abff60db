import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { verifierTestShare } from "../../analysis/rq/trajectory-frame.js";
import { outcomeLevel } from "../../analysis/rq/outcome-level.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import { rq1Discrimination } from "../../analysis/rq/rq1-discrimination.js";
import type { RealStores } from "../../store/real-stores.js";
import { compareArms, type Selector } from "../../analysis/rq/arms/compare-arms.js";
import { leaderboard } from "../../analysis/rq/arms/leaderboard.js";
import { rubricAnalysis } from "../../analysis/rq/rubric.js";

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
      evaluation("devai", real.devai, settings),
      evaluation("llm-rubric", real.llmRubric, settings),
    ],
    comparisons: workedComparisons(real, settings),
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
    arms: armRates(p, settings),
    auc: rq1.auc,
    judge_agreement: rq1.judge_agreement,
    // Graded, weighted and hierarchical checklists (schema_version 2 stores): credits compared, judges vs reference.
    ...((p.store.manifest.schema_version ?? 1) >= 2 ? { rubric: rubricAnalysis(p, settings) } : {}),
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

/**
 * The page's worked comparisons (gcpc compare and gcpc leaderboard on the real stores, the page's text is
 * written from these numbers): on Terminal-Bench, droid with claude-4-sonnet vs claude-4-1-opus and
 * orchestrator with claude-4-sonnet vs qwen-3-coder-480B (attempt k with attempt k, so the transitions and the
 * per-test changes exist; the noise floor is measured between attempts), and claude-4-sonnet under its seven
 * harnesses; on τ², base vs fine-tuned gpt-4.1.
 */
function workedComparisons(real: RealStores, settings: BootstrapSettings) {
  const tb = real.terminalBench;
  const pair = (id: string, p: PreparedStore, a: Selector, b: Selector) => ({
    id,
    result: compareArms(p, { a, b, pair: "trial", settings }),
  });
  return {
    pairs: [
      pair(
        "droid-sonnet-vs-opus",
        tb,
        { harness: "droid", model: "claude-4-sonnet" },
        { harness: "droid", model: "claude-4-1-opus" },
      ),
      pair(
        "orchestrator-sonnet-vs-qwen",
        tb,
        { harness: "orchestrator", model: "claude-4-sonnet" },
        { harness: "orchestrator", model: "qwen-3-coder-480B" },
      ),
      pair("tau2-base-vs-finetuned", real.tau2Sft, { model: "gpt-4.1" }, { model: TAU2_FINETUNED }),
    ],
    harnesses: leaderboard(tb, { by: ["harness"], where: { model: "claude-4-sonnet" }, settings }),
  };
}

/** The fine-tuned model's name in the τ² results. */
const TAU2_FINETUNED = "ft:gpt-4.1-2025-04-14:sierra:tau2-full-sft:BzrYdMNm";

/**
 * Pass rate per arm (harness / model): the leaderboard's rows (the one per-arm pass rate of every view: same
 * estimator, same draws and seed as the Leaderboard page), in the shape the Real evaluations page reads.
 */
function armRates(p: PreparedStore, settings: BootstrapSettings) {
  const board = leaderboard(p, { by: ["harness", "model"], settings });
  if ("available" in board) return [];
  return board.rows.map((r) => ({
    arm: r.arm,
    fields: r.fields,
    trials: r.trajectories,
    passes: Math.round(r.value * r.trajectories),
    tasks: r.tasks,
    rate: r.value,
    ci: r.ci,
    few_clusters: r.few_clusters,
    bootstrap: board.bootstrap,
    ...(r.degenerate ? { degenerate: true as const } : {}),
  }));
}
