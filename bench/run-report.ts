// Child process of the benchmark: read + analyse one store, print wall time and peak RSS as JSON.
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";

const t0 = performance.now();
const { store } = await readStore(process.argv[2]);
const t1 = performance.now();
const report = analyzeStore(store, DEFAULT_SETTINGS);
JSON.stringify(report);
const t2 = performance.now();
const rows =
  Object.values(store).reduce((n: number, v) => n + (Array.isArray(v) ? v.length : 0), 0) +
  (store.labels?.judgments ?? 0);
console.log(
  JSON.stringify({
    readMs: t1 - t0,
    analyzeMs: t2 - t1,
    totalMs: t2 - t0,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    rows,
  }),
);
