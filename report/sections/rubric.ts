import type { Agreement, RubricResult } from "../../analysis/rq/rubric.js";
import { ci, f3, notAvailable, pct, pv } from "../format.js";
import type { Cell, Section, SectionContext } from "./section.js";

/**
 * Graded, weighted and hierarchical checklists (schema_version 2 stores only): plain, weighted and gated credit
 * against the outcome, and each judge against the reference judge item by item.
 */
export function rubricSections(ctx: SectionContext): Section[] {
  const rubric = ctx.report.rubric;
  if (!rubric) return [];
  return [creditSection(rubric, ctx), ...judgeSections(rubric, ctx)];
}

function creditSection(rubric: RubricResult, ctx: SectionContext): Section {
  const c = rubric.credit;
  const title = "Checklist credit: plain, weighted and gated against the outcome";
  const base =
    "Plain credit = mean grade over the applicable decided items (the paper's GCPC when every grade is Yes/No); " +
    "weighted = Σ w·grade / Σ w; gated: an item counts only when its prerequisites hold (Yes or not applicable), " +
    "transitively.";
  if (!("credits" in c))
    return {
      id: "rubric_credit",
      title,
      caption: base + ctx.synthetic,
      columns: ["quantity", "value"],
      rows: [["credit comparison", notAvailable(c)]],
    };
  const rows: Cell[][] = c.pairs.map((r) => {
    if (!("delta" in r)) return [r.methods.join(" vs "), "n/a", "n/a", notAvailable(r), "n/a", "n/a", "n/a"];
    return [
      r.methods.join(" vs "),
      f3(r.auc_a),
      f3(r.auc_b),
      `${f3(r.delta)} ${ci(r.ci, false)}`,
      r.n,
      pv(r.test.p),
      pv(r.holm_p),
    ];
  });
  const best = c.best
    ? ` Highest AUC: ${c.best.method}, ${c.best.separated ? "" : "not "}separated from every other credit ` +
      `${c.best.separated ? "(Holm p < 0.05)" : "at Holm p < 0.05"}.`
    : "";
  return {
    id: "rubric_credit",
    title,
    caption: `${base} ${c.estimator}; ${ctx.bootHeadline}.${best}${ctx.synthetic}`,
    columns: ["pair (a vs b)", "AUC a", "AUC b", "ΔAUC [95% CI]", "trajectories", "p", "Holm p"],
    rows,
  };
}

const agreementCells = (a: Agreement): Cell[] => [
  a.units,
  a.tasks,
  `${pct(a.percent)} ${a.percent_ci ? `[${pct(a.percent_ci[0])}, ${pct(a.percent_ci[1])}]` : "[n/a]"}`,
  `${f3(a.kappa)} ${ci(a.kappa_ci)}`,
  `${f3(a.kappa_quadratic)} ${ci(a.kappa_quadratic_ci)}`,
  `${f3(a.alpha)} ${ci(a.alpha_ci)}`,
  `${pct(a.sensitivity)} ${a.sensitivity_ci ? `[${pct(a.sensitivity_ci[0])}, ${pct(a.sensitivity_ci[1])}]` : "[n/a]"}`,
  `${pct(a.specificity)} ${a.specificity_ci ? `[${pct(a.specificity_ci[0])}, ${pct(a.specificity_ci[1])}]` : "[n/a]"}`,
];

export function judgeSections(
  rubric: Pick<RubricResult, "judges">,
  ctx: Pick<SectionContext, "boot" | "bootHeadline" | "synthetic">,
): Section[] {
  const j = rubric.judges;
  const title = "Judges against the reference judge, item by item";
  const caption =
    "Units: (trajectory, item) that both judges decided (Abstain and not applicable left out); percent = same grade; " +
    "Cohen's κ with the grades as categories, and quadratic-weighted κ with the grades as numbers (ordinal grades); " +
    "Krippendorff's α (nominal for Yes/No, interval for grades); sensitivity and specificity of the judge's Yes " +
    "(grade 1) against the reference's; " +
    `CIs resample tasks (${ctx.boot}).${ctx.synthetic}`;
  if (!Array.isArray(j))
    return [
      {
        id: "rubric_judges",
        title,
        caption,
        columns: ["quantity", "value"],
        rows: [["judge agreement", notAvailable(j)]],
      },
    ];
  const columns = [
    "judge vs reference",
    "group",
    "units",
    "tasks",
    "agreement [95% CI]",
    "κ [95% CI]",
    "quadratic κ [95% CI]",
    "α [95% CI]",
    "sensitivity [95% CI]",
    "specificity [95% CI]",
  ];
  const rows: Cell[][] = j.flatMap((x) => [
    [`${x.judge} vs ${x.reference} (α ${x.alpha_metric})`, "all items", ...agreementCells(x.overall)],
    ...x.by_group.map((g) => [`${x.judge} vs ${x.reference}`, g.group, ...agreementCells(g)]),
  ]);
  const aucRows: Cell[][] = j.map((x) =>
    "delta" in x.auc
      ? [
          x.auc.methods.join(" vs "),
          f3(x.auc.auc_a),
          f3(x.auc.auc_b),
          `${f3(x.auc.delta)} ${ci(x.auc.ci, false)}`,
          x.auc.n,
          pv(x.auc.test.p),
        ]
      : [`${x.reference} vs ${x.judge}`, "n/a", "n/a", notAvailable(x.auc), "n/a", "n/a"],
  );
  return [
    { id: "rubric_judges", title, caption, columns, rows },
    {
      id: "rubric_judge_auc",
      title: "Plain GCPC from each judge's labels against the outcome, paired",
      caption:
        "The same trajectories scored from the reference's labels (a) and the judge's (b); paired ΔAUC as RQ1's, " +
        `${ctx.bootHeadline}; p: Obuchowski's paired clustered test.${ctx.synthetic}`,
      columns: ["a vs b", "AUC a", "AUC b", "ΔAUC [95% CI]", "trajectories", "p"],
      rows: aucRows,
    },
  ];
}
