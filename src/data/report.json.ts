import { loadReport } from "./load-store.js";
import { reportSections } from "../../report/sections.js";
import { isPaperDemo, loadPaperFigures } from "../../report/paper.js";

// The full analysis report plus the rendered tables (the figures' table alternatives).
const { report } = await loadReport();
const paper = isPaperDemo(report.store) ? loadPaperFigures() : undefined;
const { pairs, ...rq3 } = report.rq3;
process.stdout.write(
  JSON.stringify({
    ...report,
    rq3: { ...rq3, deltas: pairs.map((p) => ({ transition: p.transition, delta: p.delta })) },
    per_trajectory: undefined,
    sections: reportSections(report, paper),
    paper: paper?.figures ?? null,
  }),
);
