import { group } from "d3";
import seedrandom from "seedrandom";
import { isBinary, type PreparedStore } from "./prepared.js";
import { methodScoreMaps } from "./method-scores.js";
import { normalQuantile, pairedObuchowskiTest } from "../stats/obuchowski.js";
import { compareCodePoints } from "../order.js";
import { notAvailable, type NotAvailable } from "../estimates/not-defined.js";

export interface DesignPower {
  tasks: number;
  per_task: number;
  /** Share of simulated studies whose paired-test Wald CI excludes 0 (two-sided 5%). */
  power: number;
  /** Binomial Monte Carlo SE of `power`. */
  mc_se: number;
  /** SD of ΔAUC across the simulated studies (its sampling SD at this design). */
  delta_sd: number;
  /** Normal approximation: (z₀.₉₇₅ + z₀.₈₀) × delta_sd, the Δ this design detects with 80% power. */
  min_detectable_delta: number;
}

export interface PowerResult {
  methods: [string, string];
  observed_delta: number;
  store_tasks: number;
  store_per_task: number;
  simulations: number;
  seed: string;
  method: string;
  designs: DesignPower[];
}

/**
 * Power of the paired ΔAUC comparison (RQ1) for other designs, from the store's own structure:
 * each simulated study draws `tasks` tasks with replacement from the store's tasks (task effects
 * and per-task class balance as observed) and, inside each, `per_task` trajectories with
 * replacement from that task's shared trajectories (score distributions as observed) — a two-stage
 * nonparametric bootstrap (Davison & Hinkley 1997, §3.8). Each study is analysed with the paired
 * clustered test (Obuchowski); power = share of studies whose 95% CI excludes 0, with its
 * binomial Monte Carlo SE. The truth the simulation assumes is the store's observed ΔAUC.
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
  ).delta;
  const seed = `${o.seed}:power:${methods.join("-")}`;
  return {
    methods,
    observed_delta: observed,
    store_tasks: tasks.length,
    store_per_task: all.length / tasks.length,
    simulations: o.simulations,
    seed,
    method:
      "two-stage resampling of the store (tasks, then trajectories within task); paired clustered test " +
      "(Obuchowski), power = share of 95% CIs excluding 0",
    designs: designs.map((d) => simulateDesign(tasks, d, o.simulations, `${seed}:${d.tasks}x${d.per_task}`)),
  };
}

export function simulateDesign(
  tasks: { a: number; b: number; pass: boolean }[][],
  d: { tasks: number; per_task: number },
  simulations: number,
  seed: string,
): DesignPower {
  const rng = seedrandom.xor4096(seed);
  const pick = (n: number) => Math.floor(rng() * n);
  let hits = 0;
  const deltas: number[] = [];
  for (let s = 0; s < simulations; s++) {
    const sa: number[] = [];
    const sb: number[] = [];
    const pass: boolean[] = [];
    const cluster: number[] = [];
    for (let k = 0; k < d.tasks; k++) {
      const rows = tasks[pick(tasks.length)];
      for (let j = 0; j < d.per_task; j++) {
        const r = rows[pick(rows.length)];
        sa.push(r.a);
        sb.push(r.b);
        pass.push(r.pass);
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
  return {
    tasks: d.tasks,
    per_task: d.per_task,
    power,
    mc_se: Math.sqrt((power * (1 - power)) / n),
    delta_sd: sd,
    min_detectable_delta: (normalQuantile(0.975) + normalQuantile(0.8)) * sd,
  };
}
