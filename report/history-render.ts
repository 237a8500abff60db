// How `gcpc history` prints: the versions in order with their intervals, then each step's gate verdict.
import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import type { HistoryResult } from "../analysis/rq/arms/history.js";
import { escapeMarkdownCell } from "./render.js";

const num = (x: number | null) => (x === null ? "n/a" : Math.abs(x) < 5e-4 ? "0.000" : x.toFixed(3));
const pValue = (p: number | null) => (p === null ? "n/a" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4));
const interval = (c: [number, number] | null) => (c ? `[${num(c[0])}, ${num(c[1])}]` : "n/a");

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
        `| ${escapeMarkdownCell(v.arm)} | ${escapeMarkdownCell(v.order)} | ${num(v.value)} ${interval(v.ci)} | ` +
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
        `${num(x.check.estimate)} | ${interval(x.check.ci)} | ${pValue(x.check.p)} | ` +
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
