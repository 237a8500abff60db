import type { UpliftRow } from "../../analysis/rq/outcome-level.js";
import { SCORE_INTERVALS } from "../../analysis/rq/uplift-row.js";
import { ciPct, isDegenerate, notAvailable, pct, signedPct } from "../format.js";
import { mcNote, type Cell, type Section, type SectionContext } from "./section.js";

const UPLIFT_COLUMNS = [
  "group",
  "tasks",
  "passes/trials without",
  "pass rate without [95% CI]",
  "passes/trials with",
  "pass rate with [95% CI]",
  "uplift [95% CI]",
  "draws with uplift > 0",
];
const CELL_STATES = ["FAIL-only", "mixed", "PASS-only"] as const;

function upliftRow(u: UpliftRow): Cell[] {
  return [
    u.group,
    u.tasks,
    `${u.passes_none}/${u.trials_none}`,
    `${pct(u.rate_none)} ${ciPct(u.rate_none_ci, false, isDegenerate(u.bootstrap, "none"))}`,
    `${u.passes_curated}/${u.trials_curated}`,
    `${pct(u.rate_curated)} ${ciPct(u.rate_curated_ci, false, isDegenerate(u.bootstrap, "curated"))}`,
    `${signedPct(u.uplift)} ${ciPct(u.uplift_ci, true, isDegenerate(u.bootstrap, "uplift"))}`,
    u.positive_share === null ? "n/a" : pct(u.positive_share),
  ];
}

export function outcomeSections(ctx: SectionContext): Section[] {
  const { report: r, boot, synthetic } = ctx;
  const oc = r.outcomes;
  const caption =
    "Binary view (the one GCPC refines): pooled pass rate = passes / trials; " +
    `CIs resample tasks (${boot}).${upliftMc(oc)}${synthetic}`;
  const title = "Outcomes: pass rate without and with curated skills";
  if (!("overall" in oc)) {
    return [
      {
        id: "outcomes_overall",
        title,
        caption,
        columns: ["quantity", "value"],
        rows: [["pass-rate uplift", notAvailable(oc)]],
      },
    ];
  }
  const sections: Section[] = [
    { id: "outcomes_overall", title, caption, columns: UPLIFT_COLUMNS, rows: [upliftRow(oc.overall)] },
  ];
  if (oc.by_domain.length) {
    const title = "Outcomes: pass-rate uplift by domain";
    sections.push({
      id: "outcomes_domain",
      title,
      caption,
      columns: UPLIFT_COLUMNS,
      rows: oc.by_domain.map(upliftRow),
    });
  }
  sections.push(
    {
      id: "outcomes_model",
      title: "Outcomes: pass-rate uplift by harness / model",
      caption,
      columns: UPLIFT_COLUMNS,
      rows: oc.by_model.map(upliftRow),
    },
    {
      id: "outcomes_task",
      title: "Outcomes: pass-rate uplift by task",
      caption: `Per task: ${SCORE_INTERVALS}. A task's configurations are its harness/model/source cells.${synthetic}`,
      columns: UPLIFT_COLUMNS.slice(0, -1).map((c) => (c === "tasks" ? "configurations" : c)),
      rows: oc.by_task.map((u) => {
        const cells = upliftRow(u).slice(0, -1);
        cells[1] = u.clusters;
        return cells;
      }),
    },
    {
      id: "outcomes_cells",
      title: "Outcomes: cell transitions without → with curated skills",
      caption:
        "Cell = (task, harness, model, source); state of its trials: FAIL-only (no pass), mixed, PASS-only. " +
        `${oc.cells_paired} cells have both conditions; ${oc.gained} go from FAIL-only to some PASS, ` +
        `${oc.lost} lose passes (PASS-only → mixed/FAIL-only, mixed → FAIL-only).${synthetic}`,
      columns: ["without \\ with", ...CELL_STATES],
      rows: CELL_STATES.map((from) => [
        from,
        ...CELL_STATES.map((to) => oc.cell_transitions.find((c) => c.from === from && c.to === to)?.cells ?? 0),
      ]),
    },
  );
  return sections;
}

function upliftMc(oc: SectionContext["report"]["outcomes"]): string {
  return "overall" in oc ? mcNote([oc.overall, ...oc.by_domain, ...oc.by_model].map((u) => u.bootstrap)) : "";
}
