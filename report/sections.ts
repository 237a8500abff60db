import type { AnalysisReport } from "../analysis/rq/report.js";
import type { PaperFigures } from "./paper.js";
import { armsSections } from "./sections/arms.js";
import { countsSections } from "./sections/counts.js";
import { outcomeSections } from "./sections/outcomes.js";
import { rq1Sections } from "./sections/rq1.js";
import { rq2Sections } from "./sections/rq2.js";
import { rq3Sections } from "./sections/rq3.js";
import { rq4Sections } from "./sections/rq4.js";
import { rq5Sections } from "./sections/rq5.js";
import { rubricSections } from "./sections/rubric.js";
import { sectionContext, type Section } from "./sections/section.js";

export type { Section } from "./sections/section.js";

/** One builder per part of the report, in the order the tables are printed. */
const BUILDERS = [
  armsSections,
  countsSections,
  rq1Sections,
  rq2Sections,
  rq3Sections,
  rq4Sections,
  rq5Sections,
  rubricSections,
  outcomeSections,
];

/** The paper's tables as sections, with the paper's value beside ours when `paper` is given. */
export function reportSections(report: AnalysisReport, paper?: PaperFigures): Section[] {
  const ctx = sectionContext(report, paper);
  return BUILDERS.flatMap((build) => build(ctx));
}
