import { csvFormat } from "d3";
import { loadReport } from "./load-store.js";
import { protectCsvFormulas } from "../components/csv-safe.js";

// RQ3 matched pairs with Δ, formula-injection safe.
const { report } = await loadReport();
process.stdout.write(csvFormat(protectCsvFormulas(report.rq3.pairs as unknown as Record<string, unknown>[])));
