import { DEGENERATE_TEXT, pct } from "../format.js";
import { row, unavailableRow, withPaper, type Section, type SectionContext } from "./section.js";

const rankText = (c: [number, number] | null) =>
  c ? `[${Number(c[0].toPrecision(12))}, ${Number(c[1].toPrecision(12))}]` : "n/a";

/** The report's first section: the store's arms (the user's runs) by pass rate, before the paper's tables. */
export function armsSections(ctx: SectionContext): Section[] {
  const a = ctx.report.arms;
  const columns = ["arm", "trajectories", "tasks", "pass rate [95% CI]", "rank [95% CI]", "joint rank set", "caveat"];
  if (!a || "available" in a)
    return [
      {
        id: "arms",
        title: "Your arms",
        caption: `The arms of this store.${ctx.synthetic}`,
        columns: withPaper(ctx, columns),
        rows: [unavailableRow(ctx, a?.reason ?? "not computed", columns.length)],
      },
    ];
  const b = a.leaderboard;
  const boot = b.bootstrap;
  return [
    {
      id: "arms",
      title: `Your arms: pass rate by ${a.by.join(" / ")}`,
      caption:
        `${b.estimator}; ${boot ? `${boot.resamples} resamples, seed ${boot.seed}` : "no resampling"}. ` +
        "rank [95% CI] holds for one arm at a time, the joint rank set for every arm at once " +
        "(Mogstad et al. 2024); pairwise tests with Holm: gcpc leaderboard." +
        ctx.synthetic,
      columns: withPaper(ctx, columns),
      rows: b.rows.map((r) =>
        row(ctx, [
          r.arm,
          r.trajectories,
          r.tasks,
          `${pct(r.value)} ${r.degenerate ? DEGENERATE_TEXT : r.ci ? `[${pct(r.ci[0])}, ${pct(r.ci[1])}]` : "n/a"}`,
          `${Number(r.rank.toPrecision(12))} ${rankText(r.rank_ci)}`,
          rankText(r.rank_ci_joint),
          r.caveat ?? "",
        ]),
      ),
    },
  ];
}
