import { headlineRule } from "../../analysis/estimates/bootstrap-interval.js";
import { max, min } from "d3";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import { ci, f3, pct } from "../format.js";
import { paperId, paperMarksOf, type PaperFigureId, type PaperFigures } from "../paper.js";
import { tidyFigures } from "../tidy.js";

/** A rendered table: every output format (md, csv, latex, the site) is made from these. */
export interface Section {
  id: string;
  title: string;
  caption: string;
  columns: string[];
  rows: Cell[][];
}

export type Cell = string | number | null;

/** What every section builder needs besides its own part of the report. */
export interface SectionContext {
  report: AnalysisReport;
  paper?: PaperFigures;
  /** "N task-clustered bootstrap resamples, percentile 95% CI (type-7), seed S". */
  boot: string;
  /** The same for the headline intervals (RQ1 AUC and ΔAUC), which use more resamples. */
  bootHeadline: string;
  /** " SYNTHETIC DATA (...)." or "" */
  synthetic: string;
}

const INTERVAL_CAPTION: Record<string, string> = {
  percentile: "percentile",
  bca: "BCa (bias-corrected and accelerated)",
  expanded: "expanded percentile (Hesterberg 2015, widened for few tasks)",
  studentized: "studentized (bootstrap-t for AUC and ΔAUC, expanded percentile elsewhere)",
};

export function sectionContext(report: AnalysisReport, paper?: PaperFigures): SectionContext {
  const s = report.settings;
  const level = Math.round(s.level * 100);
  const method = INTERVAL_CAPTION[s.interval] ?? s.interval;
  const bootOf = (n: number) =>
    `${n} task-clustered bootstrap resamples, ${method} ${level}% CI (type-7 quantiles), seed ${s.seed}`;
  const synthetic = report.store.synthetic ? " SYNTHETIC DATA (generated or hand-made, not real results)." : "";
  const ci = `${method} ${level}% CI (type-7 quantiles), seed ${s.seed}`;
  const headlineBoot = `task-clustered bootstrap: ${headlineRule(s)}; ${ci}`;
  return { report, paper, boot: bootOf(s.resamples), bootHeadline: headlineBoot, synthetic };
}

/** Our value of a figure the paper prints (from the tidy rows, once per report), for its calibration mark. */
const estimates = new WeakMap<AnalysisReport, Map<string, number | null>>();
function estimateOf(ctx: SectionContext, id: string): number | null | undefined {
  if (!ctx.paper) return undefined;
  if (!estimates.has(ctx.report)) {
    const byId = new Map<string, number | null>();
    tidyFigures(ctx.report, ctx.paper, (id, estimate) => byId.set(id, estimate));
    estimates.set(ctx.report, byId);
  }
  return estimates.get(ctx.report)!.get(id);
}

/** The paper's value of a figure, formatted by its unit: "" when the paper has none, null without a paper column. */
export function paperCell(ctx: SectionContext, id: PaperFigureId | string | undefined): string | null {
  if (!ctx.paper) return null;
  const key = id === undefined ? undefined : paperId(id);
  const fig = key ? ctx.paper.figures[key] : undefined;
  if (!fig) return "";
  // A demo-generator input agrees with the paper by construction, a calibrated figure was searched to land
  // near it, and a SkillsBench-only figure beside a pooled one compares two populations: each cell says so,
  // so nobody reads it as a reproduction (an unmarked cell is one).
  const marks = key ? paperMarksOf(ctx.report, key, estimateOf(ctx, key)).filter((m) => m !== "reproduced") : [];
  const input = marks.length ? ` (${marks.join("; ")})` : "";
  if (fig.unit === "share") return pct(fig.value) + input;
  if (fig.ci) return `${f3(fig.value)} ${ci(fig.ci)}${input}`;
  return (fig.unit === "count" ? String(fig.value) : f3(fig.value)) + input;
}

/** Columns plus the "paper" column when the report compares with the paper. */
export function withPaper(ctx: SectionContext, columns: string[], paperColumns: string[] = ["paper"]): string[] {
  return ctx.paper ? [...columns, ...paperColumns] : columns;
}

/** Cells plus the paper's values of the given figures (one per paper column). */
export function row(ctx: SectionContext, cells: Cell[], ...ids: (PaperFigureId | string | undefined)[]): Cell[] {
  if (!ctx.paper) return cells;
  return [...cells, ...(ids.length ? ids : [undefined]).map((id) => paperCell(ctx, id))];
}

/** A one-row table saying why a result is not available, padded to the columns. */
export function unavailableRow(ctx: SectionContext, message: Cell, width: number, paperWidth = 1): Cell[] {
  const cells: Cell[] = [message, ...Array(width - 1).fill("")];
  return ctx.paper ? [...cells, ...Array(paperWidth).fill("")] : cells;
}

/**
 * Caption sentence on the Monte Carlo error of a table's intervals: the largest batch-means SE of
 * any endpoint, so a reader knows which digits another seed would change.
 */
export function mcNote(
  descriptors: ({ mc_se: [number, number] | null; few_clusters?: boolean; clusters?: number } | null | undefined)[],
): string {
  const few = descriptors.filter((d) => d?.few_clusters);
  const fewText = few.length
    ? ` few_clusters: ${few.length} interval(s) here rest on fewer than 10 clusters ` +
      `(as few as ${min(few, (d) => d?.clusters ?? 0)}); their coverage falls below nominal.`
    : "";
  const ses = descriptors.flatMap((d) => d?.mc_se ?? []);
  if (ses.length === 0) return fewText;
  const worst = max(ses)!;
  // Every endpoint exact (every draw the same: degenerate intervals): say so, not "≤ 0".
  if (worst === 0) return ` Every interval endpoint here is the same on any seed (Monte Carlo SE 0).${fewText}`;
  const how = "(Maritz–Jarrett; BCa: batch means)";
  return ` Monte Carlo SE of the interval endpoints ≤ ${worst.toPrecision(2)} ${how}.${fewText}`;
}
