// How `gcpc consensus` prints (issue 58.2): each judge's sensitivity and specificity per item category from
// Dawid–Skene, the latent consensus against the majority vote; Markdown for a reader, JSON for a machine.
import type { ConsensusReport } from "../analysis/rq/judge-consensus.js";
import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import { escapeMarkdownCell } from "./render.js";
import { ci, f3 } from "./format.js";

const md = escapeMarkdownCell;

export function consensusMarkdown(
  r: ConsensusReport | null,
  name: string,
  synthetic: boolean,
  s: BootstrapSettings,
): string {
  const head = [`# Judges' consensus: ${md(name)}`, ""];
  if (synthetic) head.push("SYNTHETIC DATA (generated, not real results).", "");
  if (!r) {
    const none =
      "Fewer than two judges labelled this store, and no reference judge's labels anchor one: nothing to estimate.";
    return `${[...head, none].join("\n")}\n`;
  }
  const anchors = r.reference_judge
    ? `anchored by ${md(r.reference_judge)}'s labels on ${r.anchored} of ${r.units} units`
    : `no reference judge: ${r.units} units, none anchored`;
  return `${[
    ...head,
    `Judges: ${r.judges.map(md).join(", ")}; ${anchors}. ` +
      `EM ${r.converged ? "converged" : "did NOT converge"} in ${r.rounds} rounds.`,
    "",
    `Model: ${r.estimators.model}. Labels: ${r.estimators.labels}. Interval: ${r.estimators.interval}; ` +
      `${s.resamples} resamples, seed ${md(String(s.seed))}.`,
    "",
    "| judge | category | units decided | sensitivity | 95% CI | specificity | 95% CI |",
    "|---|---|---|---|---|---|---|",
    ...r.rates.map(
      (x) =>
        `| ${md(x.judge)} | ${md(x.category)} | ${x.decided} | ${f3(x.sensitivity)} | ${ci(x.sensitivity_ci)} | ` +
        `${f3(x.specificity)} | ${ci(x.specificity_ci)} |`,
    ),
    "",
    "## Consensus against the majority vote",
    "",
    `${r.estimators.consensus}. Mean over ${r.trajectories.length} trajectories: consensus ` +
      `${f3(r.mean_consensus_credit)}, majority ${f3(r.mean_majority_credit)}. Of ${r.majority_decided} units ` +
      "where both decide (no tied vote, " +
      `consensus not ½), ${r.majority_disagreements} disagree.`,
    "",
    "| category | units | share of true Yes (estimated) |",
    "|---|---|---|",
    ...r.categories.map((c) => `| ${md(c.category)} | ${c.units} | ${f3(c.prior)} |`),
  ].join("\n")}\n`;
}
