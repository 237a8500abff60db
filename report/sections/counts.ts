import { row, withPaper, type Section, type SectionContext } from "./section.js";

export function countsSections(ctx: SectionContext): Section[] {
  const { report: r } = ctx;
  const c = r.counts;
  const rows: [string, string | number, string?][] = [
    ["tasks", c.tasks],
    ["checklist items", c.items],
    ["trajectories (rows)", c.trajectories, "counts.public_trajectories"],
    ["duplicates dropped", c.duplicates_dropped],
    ["unique trajectories", c.unique_trajectories],
    ["binary outcome", c.binary, "counts.unique_binary"],
    ["non-binary outcome", c.non_binary],
    ["zero-evidence (all Abstain)", c.zero_evidence],
    ["judgments", c.judgments],
    ["judges", c.judges.join(", ")],
  ];
  return [
    {
      id: "counts",
      title: "Store",
      caption: `Store "${r.store.name}".${ctx.synthetic} Deduplication by log_hash (first trajectory_id kept).`,
      columns: withPaper(ctx, ["quantity", "value"]),
      rows: rows.map(([quantity, value, id]) => row(ctx, [quantity, value], id)),
    },
  ];
}
