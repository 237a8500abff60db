// Child process of `npm run bench -- scale S --bound`: the report's interval jobs for a store, planned as
// `gcpc report` plans them and run one after another on this one thread, and the task indices they draw.
// Prints JSON. With both cores of the machine running nothing but these jobs, a report cannot take less
// than half their time, whatever its read costs: that is the bound on report ÷ floor at these bytes
// (the draws are seeded streams, part of the output; docs/scaling.md, the engine round's third session).
import { readStore } from "../store/read-store.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { runJob, type AnalysisJob } from "../analysis/rq/jobs.js";
import { rq1Plan } from "../analysis/rq/rq1-discrimination.js";
import { outcomePlan } from "../analysis/rq/outcome-level.js";
import { rq3Plan } from "../analysis/rq/rq3-skill-effects.js";
import { rq4Plan } from "../analysis/rq/rq4-ablations.js";
import { WithinTaskAuc } from "../analysis/stats/within-task-auc.js";

const settings = DEFAULT_SETTINGS;
const { store } = await readStore(process.argv[2]);
const p = prepareStore(store);
const outcomes = outcomePlan(p, settings);
const jobs: AnalysisJob[] = [
  ...rq1Plan(p, settings).jobs,
  ...("available" in outcomes ? [] : outcomes.jobs),
  ...rq3Plan(p, settings).jobs,
  ...rq4Plan(p, settings, []).jobs,
];
/** Task indices a job's bootstraps draw: resamples × clusters each (the few redraws aside). */
function indicesDrawn(job: AnalysisJob): number {
  const r = job.settings.resamples;
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
  }
}
const byKind: Record<string, { jobs: number; seconds: number; indices: number }> = {};
let seconds = 0;
for (const job of jobs) {
  const t0 = performance.now();
  runJob(job);
  const s = (performance.now() - t0) / 1000;
  seconds += s;
  const k = (byKind[job.kind] ??= { jobs: 0, seconds: 0, indices: 0 });
  k.jobs++;
  k.seconds += s;
  k.indices += indicesDrawn(job);
}
const indices = Object.values(byKind).reduce((a, k) => a + k.indices, 0);
console.log(JSON.stringify({ jobs: jobs.length, seconds, indices, byKind }));
