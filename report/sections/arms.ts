import { ci, ciPct, f3, pct, rankInterval, rankText } from "../format.js";
import { row, unavailableRow, withPaper, type Section, type SectionContext } from "./section.js";

/**
 * The report's first section: the store's arms (the user's runs) by pass rate, or by GCPC when the store has no
 * binary outcome, before the paper's tables.
 */
export function armsSections(ctx: SectionContext): Section[] {
  const a = ctx.report.arms;
  const gcpc = !("available" in a) && a.leaderboard.metric === "gcpc";
  const value = gcpc ? "GCPC [95% CI]" : "pass rate [95% CI]";
  const columns = ["arm", "trajectories", "tasks", value, "rank [95% CI]", "joint rank set", "caveat"];
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
      title: `Your arms: ${gcpc ? "GCPC (the store has no binary outcome)" : "pass rate"} by ${a.by.join(" / ")}`,
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
          gcpc
            ? `${f3(r.value)} ${ci(r.ci, r.degenerate) || "n/a"}`
            : `${pct(r.value)} ${ciPct(r.ci, false, r.degenerate) || "n/a"}`,
          `${rankText(r.rank)} ${rankInterval(r.rank_ci)}`,
          rankInterval(r.rank_ci_joint),
          r.caveat ?? "",
        ]),
      ),
    },
  ];
}
