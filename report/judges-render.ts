// How `gcpc judges` prints: the judges, each against the reference judge item by item (the report's rubric
// tables), and the judge-corrected means (leaderboard --judge-corrected's table).
import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import type { JudgesReport } from "../analysis/rq/judges.js";
import { correctedMarkdown } from "./judge-corrected-render.js";
import { escapeMarkdownCell, renderMarkdown } from "./render.js";
import { judgeSections } from "./sections/rubric.js";

export function judgesMarkdown(r: JudgesReport, name: string, s: BootstrapSettings, synthetic: boolean): string {
  const ci = "percentile 95% CI (type-7 quantiles)";
  const boot = `${s.resamples} task-clustered bootstrap resamples, ${ci}, seed ${s.seed}`;
  const ctx = {
    boot,
    bootHeadline: boot,
    synthetic: synthetic ? " SYNTHETIC DATA (generated, not real results)." : "",
  };
  const header =
    `# Judges: ${escapeMarkdownCell(name)}\n\n` +
    `Judges with labels: ${r.judges.map(escapeMarkdownCell).join(", ") || "none"}; the primary (scoring) judge is ` +
    `${escapeMarkdownCell(r.primary_judge)}; the reference judge ` +
    (r.reference_judge === null
      ? "is not named (store.json reference_judge): nothing to check the judges against."
      : `is ${escapeMarkdownCell(r.reference_judge)}.`) +
    `${ctx.synthetic}\n`;
  const tables = renderMarkdown(judgeSections({ judges: r.agreement }, ctx), header);
  const corrected =
    "available" in r.corrected
      ? [`## Judge-corrected means`, "", `Not available: ${escapeMarkdownCell(r.corrected.reason)}.`, ""]
      : correctedMarkdown(r.corrected);
  return `${tables.trimEnd()}\n\n${corrected.join("\n")}`;
}
