import type { PageCapability } from "./capabilities.js";
import { overviewData } from "./overview.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";
import type { AnalysisReport } from "../../analysis/rq/report.js";
import { realData } from "./real-data.js";
import { siteFiles } from "./site-files.js";
import type { RealStores } from "../../store/real-stores.js";

/** The fixed timestamp of every member: the same store and seed give the same archive bytes. */
const MEMBER_DATE = new Date("2000-01-01T00:00:00Z");

/**
 * Every file the site's pages read, as one zip (Framework extracts members referenced as
 * FileAttachment("data/site/NAME")). `real` are the bundled real-data stores for the Real evaluations page.
 */
export async function siteArchive(
  report: AnalysisReport,
  prepared: PreparedStore,
  real: RealStores,
  pages: readonly PageCapability[] = [],
  order?: { order: ReadonlyMap<string, string>; source: string },
): Promise<Uint8Array> {
  const files = await siteFiles(report, prepared, order);
  files.push({
    name: "overview.json",
    content: JSON.stringify(overviewData(report, prepared, report.settings, pages)),
  });
  files.push({ name: "real.json", content: JSON.stringify(realData(real, report.settings)) });
  const { default: JSZip } = await import("jszip");
  const zip = new JSZip();
  for (const f of files) zip.file(f.name, f.content, { date: MEMBER_DATE });
  return zip.generateAsync({ type: "uint8array", compression: "STORE" });
}
