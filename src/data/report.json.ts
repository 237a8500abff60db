import { readFileSync } from "node:fs";
import { loadReport } from "./load-store.js";
import { reportSections } from "../../cli/report/sections.js";

// The full analysis report plus the rendered tables (the figures' table alternatives).
const { report } = await loadReport();
const isDemo = report.store.synthetic && report.store.name.startsWith("gcpc-demo");
const paper = isDemo ? JSON.parse(readFileSync("data/paper/reported.json", "utf8")) : undefined;
const { pairs, ...rq3 } = report.rq3;
process.stdout.write(JSON.stringify({ ...report, rq3: { ...rq3, deltas: pairs.map((p) => ({ transition: p.transition, delta: p.delta })) }, per_trajectory: undefined, sections: reportSections(report, paper), paper: paper?.figures ?? null }));
