// Child process of the benchmark: read + analyse one store as `gcpc report` does (a worker thread for
// stores of 50,000 trajectories or more unless `--threads 1`), print wall time and peak RSS as JSON.
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { jobRunnerFor } from "../cli/job-worker.js";

const threads = process.argv.includes("--threads") ? Number(process.argv[process.argv.indexOf("--threads") + 1]) : 2;
const t0 = performance.now();
const { store } = await readStore(process.argv[2]);
const t1 = performance.now();
const runner = threads === 2 ? jobRunnerFor(store.trajectories.length) : undefined;
const report = analyzeStore(store, DEFAULT_SETTINGS, { runner });
await runner?.close();
JSON.stringify(report);
const t2 = performance.now();
// Rows of every table, whichever form the read keeps them in (judgments as label vectors, method scores
// as columns when read from Parquet).
const rows =
  Object.values(store).reduce((n: number, v) => n + (Array.isArray(v) ? v.length : 0), 0) +
  store.labels.judgments +
  (store.method_score_columns?.length ?? 0);
console.log(
  JSON.stringify({
    readMs: t1 - t0,
    analyzeMs: t2 - t1,
    totalMs: t2 - t0,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    rows,
    threads: runner ? 2 : 1,
  }),
);
