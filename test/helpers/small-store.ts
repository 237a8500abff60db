// Small hand-built stores for the statistics' edge cases: every row is written out here, so a test's
// expected figures can be computed by hand (or by a reference implementation) from the same rows.
import type { Judgment, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";

export interface SmallTrajectory {
  task: string;
  outcome: "PASS" | "FAIL";
  /** One label per item of the task (items i1..iK). */
  labels: ("Yes" | "No" | "Abstain")[];
  condition?: Trajectory["condition"];
  harness?: string;
  model?: string;
  trial?: number;
  holistic?: number;
}

/** A synthetic store from trajectory rows: tasks and items (i1..iK per task) follow from the rows. */
export function smallStore(name: string, rows: SmallTrajectory[]): Store {
  const itemsPerTask = new Map<string, number>();
  for (const r of rows) itemsPerTask.set(r.task, Math.max(itemsPerTask.get(r.task) ?? 0, r.labels.length));
  const tasks = [...itemsPerTask.keys()].map((task_id) => ({ task_id, benchmark: "small-1", domain: "d" }));
  const items = [...itemsPerTask].flatMap(([task_id, k]) =>
    Array.from({ length: k }, (_, i) => ({
      task_id,
      item_id: `i${i + 1}`,
      text: `item ${i + 1}`,
      route: "generated" as const,
    })),
  );
  const trajectories: Trajectory[] = [];
  const judgments: Judgment[] = [];
  const method_scores: { trajectory_id: string; method: string; score: number }[] = [];
  rows.forEach((r, n) => {
    const trajectory_id = `t${n}`;
    trajectories.push({
      trajectory_id,
      task_id: r.task,
      harness: r.harness ?? "h",
      model: r.model ?? "m",
      condition: r.condition ?? "none",
      trial: r.trial ?? n,
      outcome: r.outcome,
      log_hash: `sha256:${n}`,
    });
    r.labels.forEach((label, i) => {
      judgments.push({ trajectory_id, item_id: `i${i + 1}`, label, judge: "judge-1" });
    });
    if (r.holistic !== undefined) method_scores.push({ trajectory_id, method: "holistic", score: r.holistic });
  });
  return {
    manifest: { name, synthetic: true, primary_judge: "judge-1", schema_version: 1 },
    tasks,
    items,
    trajectories,
    judgments,
    ...(method_scores.length ? { method_scores } : {}),
  } as Store;
}

/** Defect 1's store: 12 tasks, each 2 PASS (every item Yes) and 2 FAIL (every item No): AUC = 1. */
export function perfectSeparationStore(): Store {
  const rows: SmallTrajectory[] = [];
  for (let t = 0; t < 12; t++)
    for (const outcome of ["PASS", "PASS", "FAIL", "FAIL"] as const)
      rows.push({
        task: `task-${t}`,
        outcome,
        labels: Array(4).fill(outcome === "PASS" ? "Yes" : "No"),
        // A holistic score that overlaps across classes (so ΔAUC and its test have variance).
        holistic: ((t * 7 + rows.length * 3) % 10) / 10,
      });
  return smallStore("perfect separation (synthetic, AUC 1)", rows);
}
