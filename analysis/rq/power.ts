import { group } from "d3";
import seedrandom from "seedrandom";
import { isBinary, type PreparedStore } from "./prepared.js";
import { methodScoreMaps } from "./method-scores.js";
import { normalQuantile, pairedObuchowskiTest } from "../stats/obuchowski.js";
import { compareCodePoints } from "../order.js";
import { notAvailable, type NotAvailable } from "../estimates/not-defined.js";

export interface DesignPower {
  tasks: number;
  /** Trajectories per task asked for; null in the store's own design (each task keeps all of its own). */
  per_task: number | null;
  /** Mean trajectories per task actually simulated: below `per_task` when some tasks hold fewer (capped). */
  per_task_simulated: number;
  /** Share of drawn tasks holding fewer trajectories than `per_task` (they enter whole: nothing is invented). */
  capped_share: number;
  /**
   * Share of simulated studies whose two-sided 95% Wald CI of ΔAUC (paired clustered test, Obuchowski)
   * excludes 0: the power of a two-sided test at the 5% level, against the store's observed ΔAUC.
   */
  power: number;
  /** Binomial Monte Carlo SE of `power` (0 when every study or none rejects; see `power_bound`). */
  mc_se: number;
  /** When every study (or none) rejected: the one-sided 95% bound that many studies support (rule of three). */
  power_bound?: string;
  /** SD of ΔAUC across the simulated studies (its sampling SD at this design). */
  delta_sd: number;
  /** Normal approximation: (z₀.₉₇₅ + z₀.₈₀) × delta_sd, the Δ this design detects with 80% power. */
  min_detectable_delta: number;
  /** Why the figure should not be read at face value (fewer than 10 tasks: the Wald test's SE is unstable). */
  warning?: string;
}

export interface PowerResult {
  methods: [string, string];
  observed_delta: number;
  store_tasks: number;
  store_per_task: number;
  /** The paired clustered (Obuchowski) SE of ΔAUC on the store itself: what the own design must reproduce. */
  store_se: number;
  simulations: number;
  seed: string;
  method: string;
  sided: "two-sided";
  /** The store's own design (its tasks, each with all its trajectories): shows the simulation is calibrated. */
  own_design: DesignPower;
  designs: DesignPower[];
}

/**
 * Power of the paired ΔAUC comparison (RQ1) for other designs, from the store's own structure. Each
 * simulated study draws `tasks` tasks with replacement from the store's tasks (task effects and per-task
 * class balance as observed) and keeps, inside each, its trajectories as they are: at the store's own
 * design this is the task-clustered bootstrap, so the spread of ΔAUC equals the store's clustered SE
 * (Davison & Hinkley 1997, §3.8: resampling the second stage too would count the within-task variance
 * twice). Fewer trajectories per task are a subsample without replacement of the task's own (a drawn
 * task's within-task noise then grows as 1/m − 1/n on top of the 1/n it already carries, i.e. to the 1/m of
 * an m-trajectory task; Politis, Romano & Wolf 1999, ch. 2). More trajectories per task than a task holds
 * cannot be simulated without a model, so such a task enters whole and the design reports the mean it
 * simulated (`per_task_simulated`, `capped_share`). Each study is analysed with the paired clustered test
 * (Obuchowski); power = share of studies whose two-sided 95% CI excludes 0, with its binomial Monte Carlo SE.
 * The truth the simulation assumes is the store's observed ΔAUC.
 */
export function pairedDeltaPower(
  p: PreparedStore,
  designs: { tasks: number; per_task: number }[],
  o: { simulations: number; seed: number; methods?: [string, string] },
): PowerResult | NotAvailable {
  const methods = o.methods ?? ["gcpc", "holistic"];
  const maps = methodScoreMaps(p);
  const [a, b] = [maps.get(methods[0]), maps.get(methods[1])];
  if (!a || !b) return notAvailable(`needs scores for ${methods.join(" and ")}`);
  const scored = p.trajectories.filter((t) => isBinary(t) && a.has(t.trajectory_id) && b.has(t.trajectory_id));
  const byTask = group(
    scored.map((t) => ({
      a: a.get(t.trajectory_id)!,
      b: b.get(t.trajectory_id)!,
      pass: t.outcome === "PASS",
      task: t.task_id,
    })),
    (r) => r.task,
  );
  const tasks = [...byTask.keys()].sort(compareCodePoints).map((k) => byTask.get(k)!);
  if (tasks.length < 2) return notAvailable("fewer than 2 tasks with both methods scored");
  const all = tasks.flat();
  const observed = pairedObuchowskiTest(
    all.map((r) => r.a),
    all.map((r) => r.b),
    all.map((r) => r.pass),
    tasks.flatMap((rows, k) => rows.map(() => k)),
  );
  const seed = `${o.seed}:power:${methods.join("-")}`;
  const own = { tasks: tasks.length, per_task: null };
  return {
    methods,
    observed_delta: observed.delta,
    store_tasks: tasks.length,
    store_per_task: all.length / tasks.length,
    store_se: observed.se,
    simulations: o.simulations,
    seed,
    method:
      "tasks resampled with replacement, each with its own trajectories (subsampled without replacement when " +
      "fewer per task are asked for; never invented when more are); paired clustered test (Obuchowski), power = " +
      "share of two-sided 95% CIs excluding 0",
    sided: "two-sided",
    own_design: simulateDesign(tasks, own, o.simulations, `${seed}:own`),
    designs: designs.map((d) => simulateDesign(tasks, d, o.simulations, `${seed}:${d.tasks}x${d.per_task}`)),
  };
}

/** Below this many tasks a design's power is printed with a warning (contract rule 14's few clusters). */
const FEW_TASKS = 10;

export function simulateDesign(
  tasks: { a: number; b: number; pass: boolean }[][],
  d: { tasks: number; per_task: number | null },
  simulations: number,
  seed: string,
): DesignPower {
  const rng = seedrandom.xor4096(seed);
  const pick = (n: number) => Math.floor(rng() * n);
  let hits = 0;
  let drawn = 0;
  let capped = 0;
  let simulatedRows = 0;
  const deltas: number[] = [];
  const order = new Int32Array(Math.max(...tasks.map((t) => t.length)));
  for (let s = 0; s < simulations; s++) {
    const sa: number[] = [];
    const sb: number[] = [];
    const pass: boolean[] = [];
    const cluster: number[] = [];
    for (let k = 0; k < d.tasks; k++) {
      const rows = tasks[pick(tasks.length)];
      const m = d.per_task === null ? rows.length : Math.min(d.per_task, rows.length);
      drawn++;
      if (d.per_task !== null && d.per_task > rows.length) capped++;
      simulatedRows += m;
      // The first m of a partial Fisher–Yates shuffle: m of the task's rows without replacement.
      for (let j = 0; j < rows.length; j++) order[j] = j;
      for (let j = 0; j < m; j++) {
        const r = j + (m === rows.length ? 0 : pick(rows.length - j));
        const x = order[r];
        order[r] = order[j];
        order[j] = x;
        sa.push(rows[x].a);
        sb.push(rows[x].b);
        pass.push(rows[x].pass);
        cluster.push(k);
      }
    }
    const t = pairedObuchowskiTest(sa, sb, pass, cluster);
    if (!Number.isFinite(t.delta)) continue;
    deltas.push(t.delta);
    if (Number.isFinite(t.se) && (t.ci[0] > 0 || t.ci[1] < 0)) hits++;
  }
  const n = deltas.length;
  const power = n ? hits / n : NaN;
  const mean = deltas.reduce((x, y) => x + y, 0) / n;
  const sd = Math.sqrt(deltas.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1));
  const bound =
    hits === n ? `≥ ${(100 * (1 - 3 / n)).toFixed(1)}%` : hits === 0 ? `≤ ${(100 * (3 / n)).toFixed(1)}%` : undefined;
  return {
    tasks: d.tasks,
    per_task: d.per_task,
    per_task_simulated: simulatedRows / drawn,
    capped_share: capped / drawn,
    power,
    mc_se: Math.sqrt((power * (1 - power)) / n),
    ...(bound ? { power_bound: `${bound} (all ${n} studies agree; one-sided 95%, rule of three)` } : {}),
    delta_sd: sd,
    min_detectable_delta: (normalQuantile(0.975) + normalQuantile(0.8)) * sd,
    ...(d.tasks < FEW_TASKS
      ? {
          warning:
            `${d.tasks} tasks (< ${FEW_TASKS}): the clustered SE rests on too few tasks, so the Wald test's ` +
            "size and this power are unreliable",
        }
      : {}),
  };
}
