import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromJSON, tableToIPC } from "apache-arrow";
import { csvFormat } from "d3";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import { pairedDeltaPower } from "../../analysis/rq/power.js";
import { writeParquet } from "../../store/write-store.js";
import { protectCsvFormulas } from "../csv-safe.js";
import { isPaperDemo, loadPaperFigures } from "../paper.js";
import { renderCsv } from "../render.js";
import { reportSections } from "../sections.js";
import {
  aucRows,
  checklistRows,
  compareColumns,
  explorerPairRows,
  humanRows,
  pairItemRows,
  type Row,
} from "./datasets.js";

/** One member of the site's data archive: its name under data/site/ and its bytes. */
export interface SiteFile {
  name: string;
  content: string | Uint8Array;
}

/** Downloads: each dataset as CSV (formula-safe) and Parquet (written by DuckDB, types inferred). */
function downloads(report: AnalysisReport, built: { pairItems: Row[]; checklists: Row[] }): Record<string, Row[]> {
  return {
    auc: aucRows(report),
    transitions: report.rq3.transitions as unknown as Row[],
    pairs: report.rq3.pairs as unknown as Row[],
    "pair-items": built.pairItems,
    "per-trajectory": (report.per_trajectory ?? []) as unknown as Row[],
    checklists: built.checklists,
    criteria: (report.rq3.criteria_fail_fail ?? []) as unknown as Row[],
  };
}

/**
 * Every file the pages read, from one analysis run (issue 10: one process for the site's
 * analysis instead of one per loader). Pages read them as FileAttachment("data/site/NAME").
 */
export async function siteFiles(report: AnalysisReport, prepared: PreparedStore): Promise<SiteFile[]> {
  const paper = isPaperDemo(report.store) ? loadPaperFigures() : undefined;
  const sections = reportSections(report, paper);
  const { pairs, ...rq3 } = report.rq3;
  const pageReport = {
    ...report,
    rq3: { ...rq3, deltas: pairs.map((p) => ({ transition: p.transition, delta: p.delta })) },
    per_trajectory: undefined,
    sections,
    paper: paper?.figures ?? null,
  };
  // Built once: each is both a page file and a download.
  const built = { checklists: checklistRows(prepared.store), pairItems: pairItemRows(report, prepared) };
  const files: SiteFile[] = [
    { name: "report.json", content: JSON.stringify(pageReport) },
    { name: "report-tables.csv", content: renderCsv(sections) },
    { name: "checklists.json", content: JSON.stringify(built.checklists) },
    { name: "human.json", content: JSON.stringify(humanRows(prepared)) },
    { name: "power.json", content: JSON.stringify(designPower(report, prepared)) },
    { name: "compare.json", content: JSON.stringify(compareColumns(prepared)) },
    // Arrow IPC for the explorer: DuckDB-wasm reads it offline (Parquet would need an extension download).
    { name: "pairs.arrow", content: arrowIpc(explorerPairRows(report, prepared)) },
    { name: "pair-items.arrow", content: arrowIpc(built.pairItems) },
  ];
  for (const [name, data] of Object.entries(downloads(report, built))) {
    files.push({ name: `${name}.csv`, content: csvFormat(protectCsvFormulas(data)) });
    files.push({ name: `${name}.parquet`, content: await parquetBytes(data) });
  }
  return files;
}

function arrowIpc(rows: Row[]): Uint8Array {
  return tableToIPC(tableFromJSON(rows), "stream");
}

async function parquetBytes(rows: Row[]): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "gcpc-pq-"));
  try {
    await writeParquet(join(dir, "out.parquet"), rows);
    return readFileSync(join(dir, "out.parquet"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Design page's power grid: fewer simulated studies than `gcpc power` (100 per design) to keep builds short. */
export const SITE_POWER_GRID = { tasks: [30, 87, 150, 300], per_task: [10, 20], simulations: 100 };

function designPower(report: AnalysisReport, prepared: PreparedStore) {
  const g = SITE_POWER_GRID;
  const designs = g.tasks.flatMap((tasks) => g.per_task.map((per_task) => ({ tasks, per_task })));
  return pairedDeltaPower(prepared, designs, { simulations: g.simulations, seed: report.settings.seed });
}
