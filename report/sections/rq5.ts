import type { AnalysisReport } from "../../analysis/rq/report.js";
import { ci, f3, isDegenerate, notAvailable, pct, pv } from "../format.js";
import { mcNote, paperCell, row, withPaper, type Cell, type Section, type SectionContext } from "./section.js";

type Rq5 = AnalysisReport["rq5"];

export function rq5Sections(ctx: SectionContext): Section[] {
  const { report: r, synthetic } = ctx;
  const s = r.settings;
  return [
    {
      id: "rq5_reliability",
      title: "RQ5: reliability and judge substitution",
      caption:
        "Krippendorff α (interval) of plain GCPC across scoring runs; tasks resampled with their trajectories " +
        `(${s.resamples} resamples, ` +
        `seed ${s.seed}). Judge substitution: Spearman ρ, task-clustered CI.${rq5Mc(r.rq5)}${synthetic}`,
      columns: withPaper(ctx, ["quantity", "value"]),
      rows: reliabilityRows(ctx, r.rq5),
    },
    {
      id: "rq5_table4",
      title: "RQ5 · Table 4: checklist synthesis across benchmarks",
      caption:
        "Validity = share of items passing every mechanical gate (verbatim quote, assertion reference resolves, " +
        `non-empty text).${synthetic}`,
      columns: withPaper(
        ctx,
        [
          "benchmark",
          "tasks",
          "items",
          "items per task (min–median–max)",
          "routes assertion / generated / judge",
          "validity",
          "failed quote",
          "failed assertion ref",
        ],
        ["paper tasks", "paper items", "paper validity"],
      ),
      rows: r.rq5.transfer.map((t) => {
        const prefix = `rq5.transfer.${t.benchmark}`;
        const cells: Cell[] = [
          t.benchmark,
          t.tasks,
          t.items,
          `${t.items_min ?? "n/a"}–${t.items_median ?? "n/a"}–${t.items_max ?? "n/a"}`,
          `${pct(t.route_assertion)} / ${pct(t.route_generated)} / ${pct(t.route_judge)}`,
          pct(t.validity),
          t.failed_quote,
          t.failed_assertion,
        ];
        return row(ctx, cells, `${prefix}.tasks`, `${prefix}.items`, `${prefix}.validity`);
      }),
    },
    pairCheckSection(ctx),
  ];
}

/** The paper prints either higher/lower/equal counts or "equal k of n" per benchmark. */
function pairCheckPaperCell(ctx: SectionContext, benchmark: string): string {
  const k = `rq5.pair_check.${benchmark}`;
  const P = (id: string) => paperCell(ctx, id);
  if (ctx.paper?.figures[`${k}.higher`]) return `${P(`${k}.higher`)}/${P(`${k}.lower`)}/${P(`${k}.equal`)}`;
  if (ctx.paper?.figures[`${k}.equal`]) return `equal ${P(`${k}.equal`)} of ${P(`${k}.decidable`)}`;
  return "";
}

function reliabilityRows(ctx: SectionContext, rq5: Rq5): Cell[][] {
  const { reliability: rel, judge_substitution: js } = rq5;
  const alpha =
    "unit_rule" in rel
      ? `${f3(rel.alpha)} ${ci(rel.ci, isDegenerate(rel.bootstrap))} ` +
        `(${rel.units} units, ${rel.runs} runs; ${rel.unit_rule})`
      : notAvailable(rel);
  const judges = Array.isArray(js)
    ? js.flatMap((j) => [
        row(
          ctx,
          [
            `ρ plain GCPC, primary vs ${j.judge}`,
            `${f3(j.rho_plain)} ${ci(j.rho_plain_ci, isDegenerate(j.bootstrap_plain))} (n ${j.n_plain})`,
          ],
          "rq5.judge.rho_plain",
        ),
        row(
          ctx,
          [
            `ρ with official outcome, primary vs ${j.judge}`,
            `${f3(j.rho_outcome)} ${ci(j.rho_outcome_ci, isDegenerate(j.bootstrap_outcome))} (n ${j.n_outcome})`,
          ],
          "rq5.judge.rho_outcome",
        ),
      ])
    : [row(ctx, ["judge substitution", notAvailable(js)])];
  return [row(ctx, ["α across runs [95% CI]", alpha], "rq5.reliability.alpha"), ...judges];
}

/** The caption's Monte Carlo and few-clusters note over every interval of the table: α and each judge's ρ. */
function rq5Mc(rq5: Rq5): string {
  const js = rq5.judge_substitution;
  return mcNote([
    "bootstrap" in rq5.reliability ? rq5.reliability.bootstrap : null,
    ...(Array.isArray(js) ? js.flatMap((j) => [j.bootstrap_plain, j.bootstrap_outcome]) : []),
  ]);
}

function pairCheckSection(ctx: SectionContext): Section {
  const { report: r, synthetic } = ctx;
  return {
    id: "rq5_pair_check",
    title: "RQ5: same-task PASS vs FAIL pair check",
    caption:
      "First PASS and first FAIL trajectory per task (by trajectory_id); Δ = GCPC(PASS) − GCPC(FAIL); " +
      "exact two-sided sign test over non-equal pairs; Holm and Benjamini–Hochberg adjust it over the " +
      `benchmarks.${synthetic}`,
    columns: withPaper(
      ctx,
      ["benchmark", "decidable", "undecidable", "higher", "lower", "equal", "median Δ", "sign test p", "Holm", "BH"],
      ["paper higher/lower/equal"],
    ),
    rows: r.rq5.pair_check.map((x) => {
      const cells = [x.benchmark, x.decidable, x.undecidable, x.higher, x.lower, x.equal];
      const out: Cell[] = [
        ...cells,
        f3(x.median_delta),
        pv(x.sign_test_p),
        pv(x.sign_test_p_holm),
        pv(x.sign_test_p_bh),
      ];
      return ctx.paper ? [...out, pairCheckPaperCell(ctx, x.benchmark)] : out;
    }),
  };
}
