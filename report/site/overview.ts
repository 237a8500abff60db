import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { notAvailable } from "../../analysis/estimates/not-defined.js";
import { leaderboard } from "../../analysis/rq/arms/leaderboard.js";
import { referenceJudgeOf } from "../../analysis/rq/arms/judge-corrected.js";
import { isOutcomeFree } from "../../analysis/rq/outcome-free.js";
import { scoringJudge, type PreparedStore } from "../../analysis/rq/prepared.js";
import { fieldOf, type ArmField } from "../../analysis/rq/arms/compare-arms.js";
import { scoredBy as judgeCountsText } from "../../store/import/summary.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import type { PageCapability } from "./capabilities.js";

/**
 * The site's first page, the user's own runs (src/index.md reads it as overview.json): the arms (whatever
 * varies among harness, model, source and condition) ranked by pass rate and by mean GCPC with task-clustered
 * intervals, marginal and joint rank sets and each row's caveat; the judges and their agreement; what kind of
 * items the store holds; and which of the paper's analyses the store supports, with what is missing.
 */
export function overviewData(
  report: AnalysisReport,
  prepared: PreparedStore,
  settings: BootstrapSettings,
  pages: readonly PageCapability[],
) {
  // The report's own choice of arm fields (its first section), not chosen again.
  const by = "available" in report.arms ? [] : report.arms.by;
  // Judge-corrected means (issue 47) where a reference judge labelled some trajectories: the GCPC board's rows
  // carry each arm's mean as the reference would have scored it (one board, its rank draws not drawn twice).
  const reference = referenceJudgeOf(prepared);
  const board = (metric: "pass_rate" | "gcpc") =>
    by.length === 0
      ? notAvailable("every trajectory has the same harness, model, source and condition")
      : leaderboard(prepared, {
          by,
          metric,
          settings,
          ...(metric === "gcpc" && typeof reference === "string" ? { corrected: {} } : {}),
        });
  const judges = new Map<string, { trajectories: number; runs: number }>();
  for (const runs of prepared.store.labels.runs.values()) {
    const seen = new Set<string>();
    for (const r of runs) {
      const j = judges.get(r.judge) ?? { trajectories: 0, runs: 0 };
      j.runs++;
      if (!seen.has(r.judge)) j.trajectories++;
      seen.add(r.judge);
      judges.set(r.judge, j);
    }
  }
  return {
    by,
    scored_by: scoredBy(prepared, by),
    pass_rate: board("pass_rate"),
    gcpc: prepared.hasJudgments ? board("gcpc") : notAvailable("the store holds no checklist judgments"),
    judges: [...judges].map(([judge, j]) => ({ judge, ...j, primary: judge === prepared.primaryJudge })),
    judge_agreement: report.rq1.judge_agreement,
    items: {
      total: prepared.outcomeItems.determining + prepared.outcomeItems.free,
      determining: prepared.outcomeItems.determining,
      free: prepared.outcomeItems.free,
      gcpc_outcome_free: isOutcomeFree(prepared, "gcpc"),
    },
    pages: pages.map((p) => ({
      ...p,
      ...(p.path === "/rq3" && p.shown && !report.rq3.available ? { note: report.rq3.reason } : {}),
    })),
  };
}

/**
 * Per arm (the overview's grouping), which judge scores its trajectories' GCPC (prepared.ts, scoringJudge) when
 * the store has several judges: "llama3", or "mistral (2), llama3 (1)". Empty with one judge (issue 45.2).
 */
export function scoredBy(p: PreparedStore, by: ArmField[]): Record<string, string> {
  if (by.length === 0 || p.counts.judges.length < 2) return {};
  const counts = new Map<string, Map<string, number>>();
  p.trajectories.forEach((t, k) => {
    const arm = by.map((f) => fieldOf(p, t, f) ?? "").join(" / ");
    const judge = p.runsAt(k)?.length ? scoringJudge(p.runsAt(k), p.primaryJudge) : "no judge";
    const m = counts.get(arm) ?? new Map<string, number>();
    m.set(judge, (m.get(judge) ?? 0) + 1);
    counts.set(arm, m);
  });
  // The import summary's wording for the same counts.
  return Object.fromEntries([...counts].map(([arm, m]) => [arm, judgeCountsText(m)]));
}
