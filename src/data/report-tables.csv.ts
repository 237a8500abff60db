import { loadReport } from "./load-store.js";
import { reportSections } from "../../report/sections.js";
import { renderCsv } from "../../report/render.js";
import { isPaperDemo, loadPaperFigures } from "../../report/paper.js";

// Every table on every page, in one long CSV (section, row, column, value), as `gcpc report --format csv` prints it.
const { report } = await loadReport();
process.stdout.write(renderCsv(reportSections(report, isPaperDemo(report.store) ? loadPaperFigures() : undefined)));
