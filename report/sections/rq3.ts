import { f3, pct, pv } from "../format.js";
import { row, unavailableRow, withPaper, type Section, type SectionContext } from "./section.js";

const PAPER_COLUMNS = ["paper n", "paper median Δ", "paper improved", "paper regressed"];

export function rq3Sections(ctx: SectionContext): Section[] {
  const r3 = ctx.report.rq3;
  const caption =
    `${r3.estimator}. Material change |Δ| > ${r3.threshold}; noise floor ${r3.noise_floor}. ` +
    `Pairs: ${r3.pairs_total} matched, ${r3.excluded_zero_evidence} excluded as zero-evidence, ` +
    `${r3.unmatched} unmatched cells, ${r3.unmatched_no_trial} trajectories without a trial index (never matched), ` +
    `${r3.duplicate_trials} duplicate trials.${ctx.synthetic}`;
  const columns = ["transition", "n", "median Δ", "improved > 0.10", "regressed < −0.10", "sign test p"];
  return [
    {
      id: "rq3_figure5",
      title: "RQ3 · Figure 5: matched skill effects by outcome transition (without → with)",
      caption,
      columns: withPaper(ctx, columns, PAPER_COLUMNS),
      rows: !r3.available
        ? [unavailableRow(ctx, `not available: ${r3.reason}`, columns.length, PAPER_COLUMNS.length)]
        : [...r3.transitions, r3.all].map((t) => {
            const all = t.group === "any→any";
            return row(
              ctx,
              [
                all ? "all pairs" : t.group,
                t.n,
                f3(t.median_delta),
                pct(t.improved_share),
                pct(t.regressed_share),
                pv(t.sign_test_p),
              ],
              all ? "rq3.pairs" : `rq3.${t.group}.n`,
              `rq3.${t.group}.median_delta`,
              `rq3.${t.group}.improved_share`,
              `rq3.${t.group}.regressed_share`,
            );
          }),
    },
  ];
}
