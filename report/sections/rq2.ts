import type { AnalysisReport } from "../../analysis/rq/report.js";
import { ci, f3, isDegenerate, notAvailable, pct } from "../format.js";
import { mcNote, row, unavailableRow, withPaper, type Cell, type Section, type SectionContext } from "./section.js";

export function rq2Sections(ctx: SectionContext): Section[] {
  const { report: r, boot, synthetic } = ctx;
  const m2 = r.rq2.methods;
  return [
    {
      id: "rq2_table2",
      title: "RQ2 · Table 2: agreement with human judgments",
      caption:
        "Pairwise agreement = agreeing / comparable Q2 comparisons (ties and unscored excluded). " +
        `ρ = Spearman (average ranks) with the mean Q1 rating; ${boot}.` +
        `${Array.isArray(m2) ? mcNote(m2.map((m) => m.bootstrap)) : ""}${synthetic}`,
      columns: withPaper(
        ctx,
        ["method", "agreement", "comparable", "ρ vs Q1", "ρ 95% CI", "n"],
        ["paper agreement", "paper ρ"],
      ),
      rows: Array.isArray(m2)
        ? m2.map((m) =>
            row(
              ctx,
              [m.method, f3(m.agreement), m.comparable, f3(m.rho), ci(m.rho_ci, isDegenerate(m.bootstrap)), m.rho_n],
              `rq2.agreement.${m.method}`,
              `rq2.rho.${m.method}`,
            ),
          )
        : [unavailableRow(ctx, notAvailable(m2), 6, 2)],
    },
    {
      id: "rq2_reliability",
      title: "RQ2: human reliability and ratings by outcome",
      caption:
        "Krippendorff α: interval for Q1 ratings (coders = annotators), " +
        `${q3Interval(r.rq2) ? Q3_INTERVAL : "nominal for Q3 labels (Abstain a category)"}.${synthetic}`,
      columns: withPaper(ctx, ["quantity", "value"]),
      rows: reliabilityRows(ctx, r.rq2),
    },
  ];
}

const Q3_INTERVAL = "interval over the Q3 grades (Abstain and not applicable missing)";
const q3Interval = (rq2: AnalysisReport["rq2"]) => "alpha" in rq2.alpha_q3 && rq2.alpha_q3.metric === "interval";

function reliabilityRows(ctx: SectionContext, rq2: AnalysisReport["rq2"]): Cell[][] {
  const { alpha_q1: a1, alpha_q3: a3, q1_by_outcome: q1o, q3_judge_agreement: q3j } = rq2;
  return [
    row(
      ctx,
      [
        "α Q1 (interval)",
        "alpha" in a1 ? `${f3(a1.alpha)} (${a1.units} units, ${a1.annotators} annotators)` : notAvailable(a1),
      ],
      "rq2.alpha_q1",
    ),
    row(
      ctx,
      [
        "alpha" in a3 && a3.metric === "interval" ? "α Q3 (interval, over grades)" : "α Q3 (nominal)",
        "alpha" in a3 ? `${f3(a3.alpha)} (${a3.pairable_units} doubly rated items)` : notAvailable(a3),
      ],
      "rq2.alpha_q3",
    ),
    row(
      ctx,
      ["mean Q1, PASS", "pass_mean" in q1o ? `${f3(q1o.pass_mean)} (n ${q1o.n_pass})` : notAvailable(q1o)],
      "rq2.q1.pass_mean",
    ),
    row(
      ctx,
      ["mean Q1, FAIL", "fail_mean" in q1o ? `${f3(q1o.fail_mean)} (n ${q1o.n_fail})` : notAvailable(q1o)],
      "rq2.q1.fail_mean",
    ),
    row(ctx, [
      "Q3 labels equal to the judge's",
      "share" in q3j ? `${pct(q3j.share)} (${q3j.agreeing}/${q3j.n})` : notAvailable(q3j),
    ]),
  ];
}
