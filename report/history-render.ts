// How `gcpc history` prints: the versions in order with their intervals, then each step's gate verdict.
import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import type { HistoryResult } from "../analysis/rq/arms/history.js";
import { ci, f3, pv } from "./format.js";
import { escapeMarkdownCell } from "./render.js";

export function historyMarkdown(r: HistoryResult, name: string, s: BootstrapSettings): string {
  return [
    `# History: ${escapeMarkdownCell(name)}`,
    "",
    `Versions by ${r.by}, ${r.metric}; ${escapeMarkdownCell(r.estimator)}; ${s.resamples} resamples, seed ${s.seed}.`,
    "",
    "| version | order | value [95% CI] | tasks | trajectories |",
    "|---|---|---|---|---|",
    ...r.versions.map(
      (v) =>
        `| ${escapeMarkdownCell(v.arm)} | ${escapeMarkdownCell(v.order)} | ${f3(v.value)} ${ci(v.ci)} | ` +
        `${v.tasks} | ${v.trajectories} |`,
    ),
    "",
    `Steps (Δ = the version − the one before): ${escapeMarkdownCell(r.familywise)}.`,
    "",
    "| step | verdict | Δ | interval | p | matched tasks | why |",
    "|---|---|---|---|---|---|---|",
    ...r.steps.map(
      (x) =>
        `| ${escapeMarkdownCell(x.from)} → ${escapeMarkdownCell(x.to)} | ${x.check.verdict} | ` +
        `${f3(x.check.estimate)} | ${ci(x.check.ci)} | ${pv(x.check.p)} | ` +
        `${x.check.tasks} | ${escapeMarkdownCell(x.check.reason)} |`,
    ),
    "",
    ...(r.left_out.length
      ? [`Not in the order (left out): ${r.left_out.map(escapeMarkdownCell).join(", ")}.`, ""]
      : []),
    ...(r.missing.length
      ? [`In the order but not in the store: ${r.missing.map(escapeMarkdownCell).join(", ")}.`, ""]
      : []),
  ].join("\n");
}
