import { csvFormat } from "d3";
import { loadReport } from "./load-store.js";
import { protectCsvFormulas } from "../components/csv-safe.js";

// Per-trajectory metrics (plain GCPC, with outcome, Perfect, coverage) as CSV, formula-injection safe.
const { report } = await loadReport();
process.stdout.write(csvFormat(protectCsvFormulas(report.per_trajectory! as unknown as Record<string, unknown>[])));
