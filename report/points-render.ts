// How `gcpc points` prints (issue 58.3): each arm's points-rubric score (HealthBench's rule), unclipped and
// clipped, how often its runs meet a negative criterion, and each penalty item's rate; Markdown for a reader, CSV
// (one row per arm, then one per penalty item, formula-guarded) and JSON for a machine.
import type { PointsReport } from "../analysis/rq/points-rubric.js";
import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import { csvCell, csvValue, escapeMarkdownCell } from "./render.js";
import { ci, f3, pct } from "./format.js";

const md = escapeMarkdownCell;

export function pointsMarkdown(r: PointsReport, name: string, synthetic: boolean, s: BootstrapSettings): string {
  const head = [
    `# Points rubric: ${md(name)}`,
    "",
    `Verdicts of the primary judge, first run.${synthetic ? " SYNTHETIC DATA (generated, not real results)." : ""}`,
    "",
  ];
  if (r.rubric_tasks === 0) {
    const none = "This store's items carry no points (contract rule 20): no points rubric to score.";
    return `${[...head, none].join("\n")}\n`;
  }
  return `${[
    ...head,
    `${r.rubric_tasks} tasks with a points rubric, ${r.rubric_items} items, ${r.penalty_items} of them penalties ` +
      "(negative points).",
    "",
    `Score: ${r.estimators.score}. Interval: ${r.estimators.interval}; ${s.resamples} resamples, seed ` +
      `${md(String(s.seed))}. Penalised: ${r.estimators.penalised}.`,
    "",
    `| ${r.by ? md(r.by) : "arm"} | runs | tasks | score (clipped mean) | 95% CI | mean, unclipped | 95% CI | ` +
      "runs meeting a penalty | 95% CI |",
    "|---|---|---|---|---|---|---|---|---|",
    ...r.arms.map(
      (a) =>
        `| ${md(a.arm)} | ${a.trajectories} | ${a.tasks} | ${f3(a.score)} | ${ci(a.score_ci)} | ${f3(a.unclipped)} | ` +
        `${ci(a.unclipped_ci)} | ${pct(a.penalised)} | ${ci(a.penalised_ci)} |`,
    ),
    "",
    "## Penalty items",
    "",
    `Rate: ${r.estimators.penalty}.`,
    "",
    "| task | item | points | decided runs | met | rate | 95% CI | text |",
    "|---|---|---|---|---|---|---|---|",
    ...[...r.penalties]
      .sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1))
      .map(
        (p) =>
          `| ${md(p.task_id)} | ${md(p.item_id)} | ${p.points} | ${p.decided} | ${p.met} | ${pct(p.rate)} | ` +
          `${ci(p.rate_ci)} | ${md(p.text)} |`,
      ),
  ].join("\n")}\n`;
}

const COLUMNS = [
  "kind",
  "arm",
  "task_id",
  "item_id",
  "points",
  "runs",
  "tasks",
  "score",
  "score_lo",
  "score_hi",
  "unclipped",
  "unclipped_lo",
  "unclipped_hi",
  "penalised",
  "penalised_lo",
  "penalised_hi",
  "met",
  "rate",
  "rate_lo",
  "rate_hi",
  "text",
] as const;

export function pointsCsv(r: PointsReport): string {
  type Row = Partial<Record<(typeof COLUMNS)[number], string | number | null>>;
  const rows: Row[] = [
    ...r.arms.map((a) => ({
      kind: "arm",
      arm: a.arm,
      runs: a.trajectories,
      tasks: a.tasks,
      score: a.score,
      score_lo: a.score_ci?.[0] ?? null,
      score_hi: a.score_ci?.[1] ?? null,
      unclipped: a.unclipped,
      unclipped_lo: a.unclipped_ci?.[0] ?? null,
      unclipped_hi: a.unclipped_ci?.[1] ?? null,
      penalised: a.penalised,
      penalised_lo: a.penalised_ci?.[0] ?? null,
      penalised_hi: a.penalised_ci?.[1] ?? null,
    })),
    ...r.penalties.map((p) => ({
      kind: "penalty",
      task_id: p.task_id,
      item_id: p.item_id,
      points: p.points,
      runs: p.decided,
      met: p.met,
      rate: p.rate,
      rate_lo: p.rate_ci?.[0] ?? null,
      rate_hi: p.rate_ci?.[1] ?? null,
      text: p.text,
    })),
  ];
  const lines = rows.map((v) => COLUMNS.map((c) => csvValue(v[c] ?? null)).join(","));
  return `${[COLUMNS.map(csvCell).join(","), ...lines].join("\n")}\n`;
}
