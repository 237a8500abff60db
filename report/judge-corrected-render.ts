import type { Leaderboard } from "../analysis/rq/arms/leaderboard.js";
import type { CompareResult } from "../analysis/rq/arms/compare-arms.js";
import type { LabellingDesign } from "../analysis/rq/arms/labelling-design.js";
import type { CorrectedEstimate } from "../analysis/rq/arms/judge-corrected.js";
import { ci, f3 } from "./format.js";
import { escapeMarkdownCell } from "./render.js";

// How `gcpc leaderboard --judge-corrected` prints its judge-corrected means (issue 47): a table beside the board.

const isEstimate = (x: unknown): x is CorrectedEstimate => typeof x === "object" && x !== null && "estimate" in x;

/** An interval with its endpoints' Monte Carlo standard error ("[0.41, 0.62] (MC SE 0.004, 0.006)"). */
const ciMc = (c: [number, number], mc: [number, number] | null) =>
  `${ci(c)}${mc ? ` (MC SE ${f3(mc[0])}, ${f3(mc[1])})` : ""}`;

/** The Markdown section of the corrected means (empty when the board was not corrected). */
export function correctedMarkdown(r: Leaderboard): string[] {
  if (!r.correction) return [];
  const c = r.correction;
  return [
    `## Judge-corrected means (towards ${escapeMarkdownCell(c.reference_judge)})`,
    "",
    `${escapeMarkdownCell(c.estimator)}. Reference labels: ` +
      `${c.reference_tasks === null ? "every one in the store" : `those of the ${c.reference_tasks} tasks listed`}. ` +
      c.words,
    "",
    "| arm | corrected [95% CI] | reference only [95% CI] | judge only [95% CI] | λ | n_ref (tasks) | " +
      "effective n_ref | what happened |",
    "|---|---|---|---|---|---|---|---|",
    ...r.rows.map((x) => {
      const e = x.corrected;
      if (!isEstimate(e))
        return `| ${escapeMarkdownCell(x.arm)} | not available: ${escapeMarkdownCell(e?.reason ?? "")} | | | | | | |`;
      const bold = (use: boolean, text: string) => (use ? `**${text}**` : text);
      const reference = `${f3(e.classical.estimate)} ${ciMc(e.classical.ci, e.classical.ci_mc_se)}`;
      return (
        `| ${escapeMarkdownCell(x.arm)} | ` +
        `${bold(e.advice.use === "corrected", `${f3(e.estimate)} ${ciMc(e.ci, e.ci_mc_se)}`)} | ` +
        `${bold(e.advice.use === "reference-only", reference)} | ` +
        `${f3(e.judge_only.estimate)} ${ci(e.judge_only.ci)} | ${f3(e.lambda)}` +
        `${e.lambda_rule === "power-tuned" ? "" : ` (${e.lambda_rule})`} | ${e.n_reference} (${e.reference_tasks}) | ` +
        `${e.effective_reference === null ? "n/a" : e.effective_reference.toFixed(1)} | ` +
        `${escapeMarkdownCell(e.advice.why)} |`
      );
    }),
    "",
  ];
}

/** The CSV rows of the corrected means: kind "corrected", then the classical and judge-only figures. */
export function correctedCsvRows(r: Leaderboard, width: number): (string | number | null)[][] {
  const out: (string | number | null)[][] = [];
  const row = (kind: string, arm: string, value: number, c: [number, number], tasks: number) => {
    const cells: (string | number | null)[] = new Array(width).fill(null);
    cells[0] = kind;
    cells[1] = arm;
    cells[3] = value;
    cells[4] = c[0];
    cells[5] = c[1];
    cells[6] = tasks;
    return cells;
  };
  for (const x of r.rows) {
    const e = x.corrected;
    if (!isEstimate(e)) continue;
    const corrected = row("corrected", x.arm, e.estimate, e.ci, e.reference_tasks);
    // The last column (the board's caveat) says how: λ, its rule, and the reference labels behind it.
    corrected[width - 1] =
      `lambda ${e.lambda} (${e.lambda_rule}); ${e.n_reference} reference labels in ${e.reference_tasks} tasks; ` +
      `effective ${e.effective_reference ?? "n/a"}`;
    out.push(corrected);
    out.push(row("corrected_reference_only", x.arm, e.classical.estimate, e.classical.ci, e.reference_tasks));
    out.push(row("corrected_judge_only", x.arm, e.judge_only.estimate, e.judge_only.ci, e.tasks));
  }
  return out;
}

/** compare's line for the corrected GCPC Δ (none when it was not asked for). */
export function correctedDeltaLines(r: CompareResult): string[] {
  const e = r.score_delta.corrected;
  if (e === undefined) return [];
  const towards = escapeMarkdownCell(r.score_delta.reference_judge ?? "the reference judge");
  if (!isEstimate(e))
    return [`Judge-corrected Δ (towards ${towards}): not available (${escapeMarkdownCell(e.reason)}).`, ""];
  const headline = e.advice.use === "corrected";
  const corrected =
    `Judge-corrected ${escapeMarkdownCell(r.method)} Δ (towards ${towards}) ` +
    `${f3(e.estimate)} ${ciMc(e.ci, e.ci_mc_se)}`;
  const reference = `reference only ${f3(e.classical.estimate)} ${ciMc(e.classical.ci, e.classical.ci_mc_se)}`;
  return [
    `${headline ? `**${corrected}**` : corrected}, λ ${f3(e.lambda)} (${e.lambda_rule}), on ${e.n_reference} ` +
      `matched units with reference labels on both sides in ${e.reference_tasks} tasks, of ${e.n_all} in ` +
      `${e.tasks}; ${headline ? reference : `**${reference}**`}; judge only ${f3(e.judge_only.estimate)} ` +
      `${ci(e.judge_only.ci)}; effective reference units ` +
      `${e.effective_reference === null ? "n/a" : e.effective_reference.toFixed(1)}. What happened: ` +
      `${escapeMarkdownCell(e.advice.why)}. Prediction-powered inference on the units' differences, task ` +
      "bootstrap stratified by labelled and other tasks, λ re-tuned on every draw, expanded percentile interval " +
      "(t on n − 1 − s degrees of freedom, s λ's shrinkage), " +
      `${e.resamples} resamples, seed ${e.seed}.`,
    "",
  ];
}

/** The labelling design's table (`gcpc power --judge-corrected`). */
export function labellingDesignMarkdown(r: LabellingDesign, name: string): string {
  const arm = Object.entries(r.arm)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return `${[
    `# How many tasks to label: ${escapeMarkdownCell(name)}, arm ${escapeMarkdownCell(arm)}`,
    "",
    `Reference judge ${escapeMarkdownCell(r.reference_judge)}, which labelled ${r.tasks_with_reference} of the ` +
      `arm's tasks; ${escapeMarkdownCell(r.estimator)}.`,
    "",
    "| labelled tasks | designs | ± half-width, judge-corrected | ± half-width, reference only | mean λ |",
    "|---|---|---|---|---|",
    ...r.rows.map(
      (x) =>
        `| ${x.labelled_tasks} | ${x.simulations} | ±${f3(x.half_width_corrected)} | ±${f3(x.half_width_classical)} ` +
        `| ${f3(x.lambda)} |`,
    ),
  ].join("\n")}\n`;
}
