import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import type { UnpairedCompareResult } from "../analysis/rq/arms/unpaired-compare.js";
import { ci, ciPct, f3, signedPct } from "./format.js";
import { csvValue, escapeMarkdownCell } from "./render.js";
import { armLine, selectorText } from "./arms-render.js";

// How `gcpc compare` prints an unpaired comparison (two arms with no matched unit; issue 45.5).

/** "; endpoints' MC SE 0.004, 0.006": the interval's Monte Carlo error (none below 250 resamples). */
const mc = (x: [number, number] | null) => (x ? `; endpoints' MC SE ${f3(x[0])}, ${f3(x[1])}` : "");
const mcPct = (x: [number, number] | null) =>
  x ? `; endpoints' MC SE ${(100 * x[0]).toFixed(1)}, ${(100 * x[1]).toFixed(1)} pp` : "";

export function unpairedMarkdown(r: UnpairedCompareResult, name: string, s: BootstrapSettings): string {
  const d = r.pass_rate_delta;
  const g = r.score_delta;
  return `${[
    `# Compare (unpaired): ${escapeMarkdownCell(selectorText(r.b.selector))} vs ` +
      `${escapeMarkdownCell(selectorText(r.a.selector))}`,
    "",
    `Store ${escapeMarkdownCell(name)}; where ${escapeMarkdownCell(selectorText(r.where))}. **Unpaired**: no unit ` +
      `of one arm matches one of the other (${r.common_tasks} common tasks), so each arm is measured on its own ` +
      `tasks. ${s.resamples} resamples of each arm's tasks, percentile 95% CI (type-7), seed ${s.seed}. Δ = b − a.`,
    "",
    "| arm | selector | trajectories | tasks | pass rate |",
    "|---|---|---|---|---|",
    armLine("a", r.a),
    armLine("b", r.b),
    "",
    ...r.caveats.map((c) => `**Caveat:** ${escapeMarkdownCell(c)}.`),
    "",
    "available" in d
      ? `Pass-rate Δ: not available (${escapeMarkdownCell(d.reason)}).`
      : `**Pass-rate Δ ${signedPct(d.estimate)} ${ciPct(d.ci, true, d.degenerate)}** ` +
        `(unpaired${mcPct(d.ci_mc_se)}; ` +
        `${escapeMarkdownCell(d.estimator)}; no paired test exists for arms with no matched unit).`,
    "",
    "available" in g
      ? `${escapeMarkdownCell(r.method)} Δ: not available (${escapeMarkdownCell(g.reason)}).`
      : `**${escapeMarkdownCell(g.method)} Δ ${f3(g.estimate)} ${ci(g.ci, g.degenerate)}** ` +
        `(unpaired${mc(g.ci_mc_se)}; a ` +
        `${f3(g.mean_a)}, b ${f3(g.mean_b)}).`,
    "",
    ...(r.corrected ? [`Judge-corrected Δ: not computed (${escapeMarkdownCell(r.corrected.reason)}).`, ""] : []),
  ].join("\n")}`;
}

export function unpairedCsv(r: UnpairedCompareResult): string {
  const rows: (string | number | null)[][] = [
    ["quantity", "group", "estimate", "ci_low", "ci_high", "tasks_a", "tasks_b", "pairing"],
  ];
  const d = r.pass_rate_delta;
  if (!("available" in d))
    rows.push([
      "pass_rate_delta",
      "b - a",
      d.estimate,
      d.ci?.[0] ?? null,
      d.ci?.[1] ?? null,
      r.a.tasks,
      r.b.tasks,
      "unpaired",
    ]);
  const g = r.score_delta;
  if (!("available" in g))
    rows.push([
      "score_delta",
      `${g.method}: b - a`,
      g.estimate,
      g.ci?.[0] ?? null,
      g.ci?.[1] ?? null,
      r.a.tasks,
      r.b.tasks,
      "unpaired",
    ]);
  return `${rows.map((row) => row.map(csvValue).join(",")).join("\n")}\n`;
}
