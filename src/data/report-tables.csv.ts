import { readFileSync } from "node:fs";
import { loadReport } from "./load-store.js";
import { reportSections } from "../../cli/report/sections.js";
import { renderCsv } from "../../cli/report/render.js";

// Every table on every page, in one long CSV (section, row, column, value), as `gcpc report --format csv` prints it.
const { report } = await loadReport();
const isDemo = report.store.synthetic && report.store.name.startsWith("gcpc-demo");
process.stdout.write(renderCsv(reportSections(report, isDemo ? JSON.parse(readFileSync("data/paper/reported.json", "utf8")) : undefined)));
