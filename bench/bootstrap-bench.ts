import seedrandom from "seedrandom";
import { auc } from "../analysis/stats/auc.js";
import { clusterBootstrap } from "../analysis/stats/bootstrap.js";
import { ClusteredAuc } from "../analysis/stats/clustered-auc.js";

/** Synthetic scores shaped like GCPC fractions (many ties) over `tasks` clusters. */
function data(n: number, tasks: number, continuous: boolean) {
  const rng = seedrandom(`bench-${n}-${continuous}`);
  const cluster = Int32Array.from({ length: n }, () => Math.floor(rng() * tasks));
  const pass = Array.from({ length: n }, () => rng() < 0.35);
  const raw = (p: boolean) => rng() * 0.8 + (p ? 0.2 : 0);
  const score = Float64Array.from(pass, (p) => (continuous ? raw(p) : Math.round(raw(p) * 12) / 12));
  return { cluster, pass, score };
}

function time<T>(f: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const r = f();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}

export function benchBootstrap(resamples = 2000): string[] {
  const lines: string[] = [];
  for (const [n, continuous] of [
    [4455, false],
    [20818, false],
    [4455, true],
    [20818, true],
  ] as const) {
    const tasks = 87;
    const { cluster, pass, score } = data(n, tasks, continuous);
    const [clusteredMs] = time(() => {
      const c = new ClusteredAuc(score, pass, cluster, tasks);
      return clusterBootstrap({
        clusters: tasks,
        seed: 1,
        resamples,
        statistics: { auc: (w) => c.evaluate(w) },
        accept: (w) => c.hasBothClasses(w),
      });
    });
    // Naive: materialise each resample (concatenate the drawn tasks) and re-sort via auc().
    const members: number[][] = Array.from({ length: tasks }, () => []);
    for (const [i, c] of cluster.entries()) members[c].push(i);
    const [naiveMs] = time(() => {
      const rng = seedrandom("1");
      const out = new Float64Array(resamples);
      for (let r = 0; r < resamples; r++) {
        const s: number[] = [],
          y: boolean[] = [];
        for (let k = 0; k < tasks; k++)
          for (const i of members[Math.floor(rng() * tasks)]) {
            s.push(score[i]);
            y.push(pass[i]);
          }
        out[r] = auc(s, y);
      }
      return out;
    });
    // Bare O(n) pass: one weighted sum over the same arrays per resample.
    const [bareMs] = time(() => {
      const w = new Float64Array(tasks).fill(1);
      let acc = 0;
      for (let r = 0; r < resamples; r++) {
        w[r % tasks] = (r % 3) + 1;
        for (let i = 0; i < n; i++) acc += w[cluster[i]] * (pass[i] ? score[i] : 0);
      }
      return acc;
    });
    const kind = continuous ? "continuous (no ties)" : "GCPC-like twelfths";
    lines.push(
      `bootstrap AUC n=${n} tasks=${tasks} resamples=${resamples} scores=${kind}: ` +
        `clustered ${clusteredMs.toFixed(0)} ms | naive ${naiveMs.toFixed(0)} ms ` +
        `| bare O(n) pass ${bareMs.toFixed(0)} ms | naive/clustered ${(naiveMs / clusteredMs).toFixed(1)}x ` +
        `(target >= 20x) | clustered/bare ${(clusteredMs / bareMs).toFixed(2)}x ` +
        `(target <= 3x)`,
    );
  }
  return lines;
}
