import { loadReport } from "./load-store.js";

// Mean Q1 rating and plain GCPC per human-rated trajectory (RQ2 scatter).
const { store, prepared } = await loadReport();
const q1 = new Map<string, number[]>();
for (const r of store.human_ratings ?? []) {
  if (!q1.has(r.trajectory_id)) q1.set(r.trajectory_id, []);
  q1.get(r.trajectory_id)!.push(r.rating);
}
const rows = [...q1].flatMap(([id, ratings]) => {
  const m = prepared.metrics.get(id);
  if (!m || m.zero_evidence) return [];
  return [
    {
      trajectory_id: id,
      gcpc: m.gcpc,
      q1: ratings.reduce((a, b) => a + b, 0) / ratings.length,
      outcome: prepared.byId.get(id)?.outcome ?? "non-binary",
    },
  ];
});
process.stdout.write(JSON.stringify(rows));
