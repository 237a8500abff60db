import { ciPct, pct, rankInterval, rankText } from "../format.js";
import { row, unavailableRow, withPaper, type Section, type SectionContext } from "./section.js";

/** The report's first section: the store's arms (the user's runs) by pass rate, before the paper's tables. */
export function armsSections(ctx: SectionContext): Section[] {
  const a = ctx.report.arms;
  const columns = ["arm", "trajectories", "tasks", "pass rate [95% CI]", "rank [95% CI]", "joint rank set", "caveat"];
  if ("available" in a)
    return [
      {
        id: "arms",
        title: "Your arms",
        caption: `The arms of this store.${ctx.synthetic}`,
        columns: withPaper(ctx, columns),
        rows: [unavailableRow(ctx, a.reason, columns.length)],
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
          `${pct(r.value)} ${ciPct(r.ci, false, r.degenerate) || "n/a"}`,
          `${rankText(r.rank)} ${rankInterval(r.rank_ci)}`,
          rankInterval(r.rank_ci_joint),
          r.caveat ?? "",
        ]),
      ),
    },
  ];
}
