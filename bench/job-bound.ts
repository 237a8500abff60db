// Child process of `npm run bench -- scale S --bound`: the report's interval jobs for a store, planned as
// `gcpc report` plans them and run one after another on this one thread, and the task indices they draw.
// Prints JSON. With both cores of the machine running nothing but these jobs, a report cannot take less
// than half their time, whatever its read costs: that is the bound on report ÷ floor at these bytes
// (the draws are seeded streams, part of the output; docs/scaling.md, the engine round's third session).
import { readStore } from "../store/read-store.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { runJob, type AnalysisJob, type JobResult, type JobRunner } from "../analysis/rq/jobs.js";
import { WithinTaskAuc } from "../analysis/stats/within-task-auc.js";

// The report's own plans hand their jobs to this runner, which runs each batch here, one job after another,
// timing each: the jobs are the report's, whatever plans it has.
const timed: { job: AnalysisJob; seconds: number }[] = [];
/** The resamples each job drew, from its result's descriptor (the draws rule may draw fewer than planned). */
const drawnOf = new Map<AnalysisJob, number>();
const runner: JobRunner = {
  submit(jobs) {
    let results: JobResult[] | undefined;
    const run = () =>
      (results ??= jobs.map((job) => {
        const t0 = performance.now();
        const result = runJob(job);
        timed.push({ job, seconds: (performance.now() - t0) / 1000 });
        const used = (result as { bootstrap?: { resamples?: number } | null }).bootstrap?.resamples;
        if (typeof used === "number") drawnOf.set(job, used);
        return result;
      }));
    return { help: () => void run(), wait: run };
  },
};
const { store } = await readStore(process.argv[2]);
analyzeStore(store, DEFAULT_SETTINGS, { runner });
/** Task indices a job's bootstraps draw: resamples × clusters each (the few redraws aside). */
function indicesDrawn(job: AnalysisJob): number {
  // A headline job draws `escalate_from` resamples unless its endpoints were too rough (the draws rule,
  // analysis/estimates/bootstrap-interval.ts): counted from the result when it says, else the first count.
  const r = drawnResamples(job);
  switch (job.kind) {
    case "auc": {
      // The pooled AUC's draws, and the within-task AUC's over every task too (analysis/rq/common.ts), when
      // at least two tasks hold both outcomes.
      const c = job.columns;
      const within = WithinTaskAuc.of(c.scores, c.pass, c.clusterOf, c.clusters).informativeClusters;
      return r * c.clusters * (within >= 2 ? 2 : 1);
    }
    case "paired":
    case "uplift":
    case "transition":
      return r * job.columns.clusters;
    case "separation":
      return r * job.sums.nPass.length;
    case "leaderboard-pair":
      return r * job.d.length;
  }
}
function drawnResamples(job: AnalysisJob): number {
  return drawnOf.get(job) ?? job.settings.escalate_from ?? job.settings.resamples;
}
const byKind: Record<string, { jobs: number; seconds: number; indices: number }> = {};
let seconds = 0;
for (const { job, seconds: s } of timed) {
  seconds += s;
  const k = (byKind[job.kind] ??= { jobs: 0, seconds: 0, indices: 0 });
  k.jobs++;
  k.seconds += s;
  k.indices += indicesDrawn(job);
}
const indices = Object.values(byKind).reduce((a, k) => a + k.indices, 0);
console.log(JSON.stringify({ jobs: timed.length, seconds, indices, byKind }));
