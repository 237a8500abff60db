import { isPaperDemo } from "../paper.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import { ci, ciPct, f3, isDegenerate, notAvailable, pct, pv, ZERO_SE_TEXT } from "../format.js";
import { mcNote, row, withPaper, type Cell, type Section, type SectionContext } from "./section.js";

export function rq1Sections(ctx: SectionContext): Section[] {
  const { report: r, bootHeadline: boot, synthetic } = ctx;
  const mc = (xs: AnalysisReport["rq1"]["auc"]) => mcNote(xs.flatMap((a) => [a.bootstrap, a.within_task?.bootstrap]));
  return [
    {
      id: "rq1_auc",
      title: "RQ1 · Figure 4B / Table 3A: AUC per method on its own available sample",
      caption:
        `Estimator: ${r.rq1.estimator}; ${boot}. Obuchowski (1997) analytic clustered CI beside it. ` +
        "Within-task AUC compares PASS and FAIL of the same task only (Σ U_t / Σ m_t n_t), so it does not " +
        "credit a score for ranking tasks by difficulty; its CI is a separate task-clustered bootstrap " +
        `(same resamples; its own seed string, the AUC's plus ":within_task", e.g. ` +
        `${r.settings.seed}:rq1:auc:gcpc:within_task). Population: ${r.rq1.population}.${mc(r.rq1.auc)}${synthetic}`,
      columns: withPaper(ctx, [
        "method",
        "n",
        "PASS",
        "FAIL",
        "tasks",
        "AUC",
        "bootstrap CI",
        "Obuchowski CI",
        "within-task AUC [CI]",
        "note",
      ]),
      rows: r.rq1.auc.map((a) => {
        const obuchowski = a.obuchowski?.degenerate ? ZERO_SE_TEXT : ci(a.obuchowski?.ci);
        const cells = [a.method, a.n, a.n_pass, a.n_fail, a.tasks, f3(a.auc), ci(a.ci, a.degenerate), obuchowski];
        const wt = a.within_task;
        const within = wt?.auc == null ? "n/a" : `${f3(wt.auc)} ${ci(wt.ci, wt.degenerate)}`;
        return row(ctx, [...cells, within, a.note ?? ""], `rq1.auc.${a.method}`);
      }),
    },
    {
      id: "rq1_paired",
      title: "RQ1 · Figure 4A: paired ΔAUC on identical trajectories",
      caption:
        "ΔAUC = AUC(gcpc) − AUC(holistic) on the shared subset; both AUCs recomputed on each draw; " +
        `${boot}.${"bootstrap" in r.rq1.paired ? mcNote([r.rq1.paired.bootstrap]) : ""}${synthetic}` +
        // The demo's ΔAUC is what its generator was built to show (issue 55.4): say where it comes from.
        (isPaperDemo(r.store)
          ? " On this synthetic demo the advantage exists through the generator's verifier coupling (a PASS run's " +
            "log shows its tests passing, passAssertionYes): switched off, the same seed's ΔAUC is about 0 " +
            "(data/README.md; scripts/demo-without-coupling.ts prints both)."
          : ""),
      columns: withPaper(ctx, ["quantity", "value"]),
      rows: pairedRows(ctx, r.rq1.paired),
    },
    {
      id: "rq1_condition",
      title: "RQ1: AUC of GCPC by skill condition",
      caption: `${boot}.${mc(r.rq1.by_condition)}${synthetic}`,
      columns: withPaper(ctx, ["condition", "n", "AUC", "bootstrap CI"]),
      rows: r.rq1.by_condition.map((a) =>
        row(
          ctx,
          [a.method, a.n, f3(a.auc), ci(a.ci, a.degenerate)],
          `rq1.condition.${a.method.replace(/^gcpc \((.*)\)$/, "$1")}`,
        ),
      ),
    },
    ...judgeSections(ctx),
  ];
}

/** The judges' agreement with each other, when the store holds two or more judges (method scores judge:…). */
function judgeSections(ctx: SectionContext): Section[] {
  const j = ctx.report.rq1.judge_agreement;
  if (!("judges" in j)) return [];
  return [
    {
      id: "rq1_judge_agreement",
      title: "RQ1: agreement of the holistic judges with each other",
      caption:
        `${j.judges.length} judges (${j.judges.join(", ")}) on ${j.units} trajectories of ${j.tasks} tasks; ` +
        `Krippendorff α (nominal, PASS/FAIL verdicts; a missing or undecided verdict is missing) and the share ` +
        `of agreeing judge pairs; ${ctx.boot}.${mcNote([j.bootstrap])}${ctx.synthetic}`,
      columns: ["quantity", "value", "95% CI"],
      rows: [
        ["Krippendorff α (nominal)", f3(j.alpha), ci(j.ci, isDegenerate(j.bootstrap, "alpha"))],
        [
          "pairwise agreement",
          pct(j.pairwise_agreement),
          ciPct(j.pairwise_agreement_ci, false, isDegenerate(j.bootstrap, "agreement")),
        ],
      ],
    },
  ];
}

function pairedRows(ctx: SectionContext, pd: AnalysisReport["rq1"]["paired"]): Cell[][] {
  if (!("delta" in pd)) return [row(ctx, ["paired ΔAUC", notAvailable(pd)])];
  const intervalNote = pd.ci_reason
    ? `CI ${pd.ci_reason}`
    : pd.few_clusters
      ? "few_clusters: fewer than 10 tasks, coverage below nominal"
      : "";
  return [
    row(ctx, ["n (shared subset)", pd.n]),
    row(ctx, ["tasks", pd.tasks]),
    row(ctx, [`AUC ${pd.methods[0]}`, f3(pd.auc_a)], "rq1.auc.gcpc"),
    row(ctx, [`AUC ${pd.methods[1]}`, f3(pd.auc_b)], "rq1.auc.holistic"),
    row(ctx, ["ΔAUC [95% CI]", `${f3(pd.delta)} ${ci(pd.ci, isDegenerate(pd.bootstrap))}`], "rq1.paired.delta"),
    row(
      ctx,
      ["share of bootstrap draws with Δ > 0 (not a p-value)", pct(pd.positive_share)],
      "rq1.paired.positive_share",
    ),
    row(ctx, ["ΔAUC Obuchowski paired CI (Wald)", pairedTestCi(pd.test)]),
    row(ctx, ["paired test p, two-sided (Obuchowski clustered; H₀ ΔAUC = 0)", pv(pd.test.p)]),
    // Only when there is something to note (an empty "interval note" row printed on every store).
    ...(intervalNote ? [row(ctx, ["interval note", intervalNote])] : []),
  ];
}

/** The paired test's Wald interval: "degenerate" when its SE is 0 (a point), else the interval or why not. */
function pairedTestCi(test: { se: number | null; ci: [number, number] | null; reason?: string }): string {
  if (test.se === 0) return ZERO_SE_TEXT + (test.reason ? ` (${test.reason})` : "");
  return test.ci ? ci(test.ci) : `n/a (${test.reason})`;
}
