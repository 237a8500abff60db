import type { StoreFrame } from "./store.js";
import type { MethodScoreColumns } from "./method-score-columns.js";

/**
 * The part of a store that belongs to one benchmark's tasks: tasks, their items, their
 * trajectories and every row that names those trajectories (contract rule 4 allows per-benchmark
 * views beside the pooled one). The paper's headline figures are SkillsBench-only, so comparing
 * them with a pooled multi-benchmark store would not be like with like.
 */
export function benchmarkSubset(store: StoreFrame, benchmark: string): StoreFrame {
  const tasks = new Set(store.tasks.filter((t) => t.benchmark === benchmark).map((t) => t.task_id));
  const ids = new Set(store.trajectories.filter((t) => tasks.has(t.task_id)).map((t) => t.trajectory_id));
  const byTrajectory = <T extends { trajectory_id: string }>(rows: T[] | undefined) =>
    rows?.filter((r) => ids.has(r.trajectory_id));
  // The read's trajectory order describes the whole store; the subset's deduplication is its own.
  const { trajectory_order: _wholeStoreOrder, ...rest } = store;
  // Label vectors of the kept trajectories; the judgment count is theirs.
  const runs = new Map([...store.labels.runs].filter(([id]) => ids.has(id)));
  let judgments = 0;
  for (const list of runs.values()) for (const r of list) judgments += r.labels.replaceAll(".", "").length;
  const out: StoreFrame = {
    ...rest,
    manifest: { ...store.manifest, name: `${store.manifest.name} [benchmark ${benchmark}]` },
    tasks: store.tasks.filter((t) => tasks.has(t.task_id)),
    items: store.items.filter((i) => tasks.has(i.task_id)),
    trajectories: store.trajectories.filter((t) => ids.has(t.trajectory_id)),
    labels: { judgments, runs },
  };
  for (const key of [
    "method_scores",
    "human_ratings",
    "human_item_labels",
    "evidence_replacements",
    "verifier_results",
  ] as const) {
    if (store[key])
      (out as unknown as Record<string, unknown>)[key] = byTrajectory(store[key] as { trajectory_id: string }[]);
  }
  if (store.method_score_columns) out.method_score_columns = columnsOfKept(store, store.method_score_columns, ids);
  if (store.human_preferences)
    out.human_preferences = store.human_preferences.filter((p) => ids.has(p.trajectory_a) && ids.has(p.trajectory_b));
  return out;
}

/** The benchmarks of a store, in first-seen task order. */
export function benchmarksOf(store: Pick<StoreFrame, "tasks">): string[] {
  return [...new Set(store.tasks.map((t) => t.benchmark))];
}

/** The method score columns of the kept trajectories, renumbered to their positions in the subset. */
function columnsOfKept(store: StoreFrame, c: MethodScoreColumns, ids: ReadonlySet<string>): MethodScoreColumns {
  const position = new Int32Array(store.trajectories.length).fill(-1);
  let kept = 0;
  store.trajectories.forEach((t, k) => {
    if (ids.has(t.trajectory_id)) position[k] = kept++;
  });
  let length = 0;
  for (let k = 0; k < c.length; k++) if (position[c.trajectory[k]] >= 0) length++;
  const out = {
    length,
    trajectory: new Int32Array(length),
    method: new Int32Array(length),
    methods: c.methods,
    score: new Float64Array(length),
  };
  for (let k = 0, j = 0; k < c.length; k++) {
    const to = position[c.trajectory[k]];
    if (to < 0) continue;
    out.trajectory[j] = to;
    out.method[j] = c.method[k];
    out.score[j++] = c.score[k];
  }
  return out;
}
