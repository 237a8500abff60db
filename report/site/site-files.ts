import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { csvFormat } from "d3";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import { pairedDeltaPower } from "../../analysis/rq/power.js";
import { leaderboard } from "../../analysis/rq/arms/leaderboard.js";
import { armTable, fieldOf, type ArmField } from "../../analysis/rq/arms/compare-arms.js";
import { notAvailable } from "../../analysis/estimates/not-defined.js";
import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { writeParquet } from "../../store/write-store.js";
import { protectCsvFormulas } from "../csv-safe.js";
import { isPaperDemo, loadPaperFigures } from "../paper.js";
import { renderTidyCsv } from "../render.js";
import { tidyFigures } from "../tidy.js";
import { reportSections } from "../sections.js";
import { siteHistory } from "./history-data.js";
import { siteConsensus } from "./consensus-data.js";
import { siteItems } from "./items-data.js";
import {
  aucRows,
  checklistRows,
  compareColumns,
  explorerPairRows,
  PAIR_ITEM_TEMPLATE,
  PAIR_ROW_TEMPLATE,
  trajectoryEvidence,
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
 * Every file the pages read, from one analysis run (one process for the site's
 * analysis instead of one per loader). Pages read them as FileAttachment("data/site/NAME").
 */
export async function siteFiles(
  report: AnalysisReport,
  prepared: PreparedStore,
  order?: { order: ReadonlyMap<string, string>; source: string },
): Promise<SiteFile[]> {
  // Loaded here, not at the CLI's start: only a site build writes Arrow (81 ms of every command's start before).
  const arrow = await import("apache-arrow");
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
    // The CLI's tidy export (`gcpc report --format csv`): one row per figure, numbers as numbers.
    { name: "report-tables.csv", content: renderTidyCsv(tidyFigures(report, paper)) },
    { name: "checklists.json", content: JSON.stringify(built.checklists) },
    // Which items to fix (gcpc items at its default shuffles and the report's seed).
    { name: "items.json", content: JSON.stringify(siteItems(prepared, report.settings)) },
    // Each judge's error rates without a human for every item (gcpc consensus at its default refits).
    { name: "consensus.json", content: JSON.stringify(siteConsensus(prepared, report.settings)) },
    { name: "human.json", content: JSON.stringify(humanRows(prepared)) },
    { name: "power.json", content: JSON.stringify(designPower(report, prepared)) },
    { name: "compare.json", content: JSON.stringify(compareColumns(prepared)) },
    { name: "leaderboard.json", content: JSON.stringify(siteLeaderboard(prepared, report.settings)) },
    // The History page: versions in order, each step gated (report/site/history-data.ts).
    { name: "history.json", content: JSON.stringify(siteHistory(prepared, report.settings, order)) },
    // The Compare page's arms mode recomputes `gcpc compare` in the browser from this table (same code, seeds).
    { name: "arms.json", content: JSON.stringify(armTable(prepared)) },
    // The judge's evidence per trajectory and item, for the Compare page's task drill-down.
    { name: "evidence.json", content: JSON.stringify(trajectoryEvidence(prepared)) },
    // Arrow IPC for the explorer: DuckDB-wasm reads it offline (Parquet would need an extension download).
    { name: "pairs.arrow", content: arrowIpc(arrow, explorerPairRows(report, prepared), PAIR_ROW_TEMPLATE) },
    { name: "pair-items.arrow", content: arrowIpc(arrow, built.pairItems, PAIR_ITEM_TEMPLATE) },
  ];
  for (const [name, data] of Object.entries(downloads(report, built))) {
    files.push({ name: `${name}.csv`, content: csvFormat(protectCsvFormulas(data.map(flatRow))) });
    files.push({ name: `${name}.parquet`, content: await parquetBytes(data) });
  }
  return files;
}

/**
 * Rows as an Arrow IPC stream. No rows (an imported store without with/without-skill pairs) is a table with the
 * template's columns and no row: DuckDB-wasm refused a table of no columns ("Provided table/dataframe must
 * have at least one column"), and the explorer showed 17 errors on every imported store.
 */
function arrowIpc(arrow: typeof import("apache-arrow"), rows: Row[], template: Row): Uint8Array {
  const { tableFromJSON, tableToIPC } = arrow;
  return tableToIPC(rows.length ? tableFromJSON(rows) : tableFromJSON([template]).slice(0, 0), "stream");
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

/**
 * A row with its nested values spread into columns, for CSV (a cell holding an object printed as
 * "[object Object]"): an interval [lo, hi] becomes NAME_low and NAME_high, an object its fields as
 * NAME_FIELD, recursively; any other array is its JSON text.
 */
export function flatRow(row: Row): Row {
  const out: Row = {};
  const put = (key: string, v: unknown) => {
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number" || x === null)) {
      out[`${key}_low`] = v[0];
      out[`${key}_high`] = v[1];
    } else if (Array.isArray(v)) out[key] = JSON.stringify(v);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) put(`${key}_${k}`, x);
    else out[key] = v as Row[string];
  };
  for (const [k, v] of Object.entries(row)) put(k, v);
  return out;
}

/**
 * The Leaderboard page's data: the arms of the published store by harness and model, or by harness, or by
 * model alone, the first grouping with 2 to 60 arms (the pairwise tests and heat map cover the top
 * PAIRWISE_TOP arms, so the page stays small; the rank chart holds every arm). By pass rate; a store with no
 * PASS/FAIL (a rubric table) by GCPC over every trajectory, as `gcpc leaderboard` then does. When no grouping
 * fits, the reason gives each grouping's count (a 3-arm outcome-free store was told "no grouping gives 2 to 60
 * arms": issue 55.3).
 */
export function siteLeaderboard(prepared: PreparedStore, settings: BootstrapSettings) {
  const binary = prepared.trajectories.filter((t) => t.outcome === "PASS" || t.outcome === "FAIL");
  const metric = binary.length > 0 ? "pass_rate" : "gcpc";
  const pool = binary.length > 0 ? binary : prepared.trajectories;
  if (pool.length === 0) return notAvailable("the store has no trajectory");
  // Fields with one value in the store are left out of the arms' names ("gpt-4o", not "unrecorded / gpt-4o").
  const varies = (f: ArmField) => new Set(pool.map((t) => fieldOf(prepared, t, f))).size > 1;
  const both = (["harness", "model"] as ArmField[]).filter(varies);
  const tried: string[] = [];
  for (const by of [both, ["harness"], ["model"]] as ArmField[][]) {
    if (by.length === 0) continue;
    const arms = new Set(pool.map((t) => by.map((f) => fieldOf(prepared, t, f)).join(" / "))).size;
    if (arms >= 2 && arms <= 60) return leaderboard(prepared, { by, settings, metric });
    tried.push(`${by.join(" + ")}: ${arms} arm${arms === 1 ? "" : "s"}`);
  }
  return notAvailable(
    tried.length === 0
      ? "every trajectory has the same harness and model: one arm, nothing to rank"
      : `the page ranks 2 to 60 arms; ${[...new Set(tried)].join("; ")} ` +
          "(gcpc leaderboard --by FIELD ranks any grouping)",
  );
}
