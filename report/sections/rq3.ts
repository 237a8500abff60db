import { estimateCell, f3, isDegenerate, pct, pv, shareCell } from "../format.js";
import { mcNote, row, unavailableRow, withPaper, type Section, type SectionContext } from "./section.js";

const PAPER_COLUMNS = ["paper n", "paper median Δ", "paper improved", "paper regressed"];

export function rq3Sections(ctx: SectionContext): Section[] {
  const r3 = ctx.report.rq3;
  const caption =
    `${r3.estimator}. Material change |Δ| > ${r3.threshold}; ` +
    `noise floor: the judge retest floor ${f3(r3.noise_floor)}. ` +
    `Pairs: ${r3.pairs_total} matched, ${r3.excluded_zero_evidence} excluded as zero-evidence, ` +
    `${r3.unmatched} unmatched cells, ${r3.unmatched_no_trial} trajectories without a trial index (never matched), ` +
    `${r3.duplicate_trials} duplicate trials. CIs: ${ctx.boot}, tasks resampled with their pairs. ` +
    "The sign test treats pairs as independent, as the paper does; the clustered test is in the next table." +
    `${r3.available ? mcNote([...r3.transitions, r3.all].map((t) => t.bootstrap)) : ""}${ctx.synthetic}`;
  const columns = [
    "transition",
    "n",
    "median Δ [CI]",
    "improved > 0.10 [CI]",
    "regressed < −0.10 [CI]",
    "sign test p (iid)",
  ];
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
                estimateCell(t.median_delta, t.median_delta_ci, isDegenerate(t.bootstrap, "median")),
                shareCell(t.improved_share, t.improved_share_ci, isDegenerate(t.bootstrap, "improved")),
                shareCell(t.regressed_share, t.regressed_share_ci, isDegenerate(t.bootstrap, "regressed")),
                pv(t.sign_test_p),
              ],
              all ? "rq3.pairs" : `rq3.${t.group}.n`,
              `rq3.${t.group}.median_delta`,
              `rq3.${t.group}.improved_share`,
              `rq3.${t.group}.regressed_share`,
            );
          }),
    },
    testsSection(ctx),
    criteriaSection(ctx),
  ];
}

const TESTS_COLUMNS = [
  "transition",
  "tasks",
  "clustered sign test p",
  "Holm",
  "BH",
  "within noise",
  "between",
  "material",
  "note",
];

function testsSection(ctx: SectionContext): Section {
  const r3 = ctx.report.rq3;
  return {
    id: "rq3_tests",
    title: "RQ3: cluster-robust tests and noise classes by transition",
    caption:
      "Exact task-clustered sign test (the signs of a task flip together under H₀), adjusted over the four " +
      "transition groups by Holm (FWER) and Benjamini–Hochberg (FDR). " +
      `Noise floor: the judge retest floor ${f3(r3.noise_floor)}: ` +
      `${r3.noise_floor_source?.definition ?? "the paper's"}. ` +
      "Δ within noise: |Δ| ≤ floor; between: floor < |Δ| ≤ " +
      `0.10; material: |Δ| > 0.10.${ctx.synthetic}`,
    columns: TESTS_COLUMNS,
    rows: !r3.available
      ? [unavailableRow(ctx, `not available: ${r3.reason}`, TESTS_COLUMNS.length, 0)]
      : [...r3.transitions, r3.all].map((t) => [
          t.group === "any→any" ? "all pairs" : t.group,
          t.tasks,
          pv(t.clustered_sign_test_p),
          t.group === "any→any" ? "" : pv(t.clustered_p_holm),
          t.group === "any→any" ? "" : pv(t.clustered_p_bh),
          pct(t.within_noise_share),
          pct(t.between_share),
          pct(t.material_share),
          t.few_clusters ? "few_clusters: fewer than 10 tasks" : "",
        ]),
  };
}

const TOP_CRITERIA = 15;

const CRITERIA_COLUMNS = [
  "task",
  "item",
  "criterion",
  "category",
  "pairs",
  "improved",
  "regressed",
  "McNemar p",
  "BH q",
];

function criteriaSection(ctx: SectionContext): Section {
  const r3 = ctx.report.rq3;
  const rows = (r3.criteria_fail_fail ?? []).filter((c) => c.mcnemar_p !== null);
  return {
    id: "rq3_criteria",
    title: "RQ3: criteria that changed most in FAIL→FAIL pairs",
    caption:
      `The ${Math.min(TOP_CRITERIA, rows.length)} checklist items with the smallest p of ${rows.length} with a ` +
      "discordant pair. Per item, across the FAIL→FAIL pairs of its task: improved = not satisfied (No or Abstain) " +
      "without the skill and Yes with it; regressed = the reverse. Exact McNemar test (two-sided binomial on the " +
      "discordant pairs); q = Benjamini–Hochberg over all those items. Every item is in the downloads " +
      `(criteria.csv).${ctx.synthetic}`,
    columns: CRITERIA_COLUMNS,
    rows: !r3.available
      ? [unavailableRow(ctx, `not available: ${r3.reason}`, CRITERIA_COLUMNS.length, 0)]
      : rows
          .slice(0, TOP_CRITERIA)
          .map((c) => [
            c.task_id,
            c.item_id,
            c.text,
            c.category ?? "",
            c.pairs,
            c.improved,
            c.regressed,
            pv(c.mcnemar_p),
            pv(c.bh_q),
          ]),
  };
}
