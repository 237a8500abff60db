import { loadReport } from "./load-store.js";
import { rowsToArrowIPC } from "./arrow.js";

// Item-level labels of both sides of every matched pair (which criteria changed), with the cited evidence.
const { report, prepared, store } = await loadReport();
const evidence = new Map<string, string>();
for (const j of store.judgments) if ((j.run ?? 1) === 1 && (j.judge ?? prepared.primaryJudge) === prepared.primaryJudge && j.evidence) evidence.set(`${j.trajectory_id}\u0000${j.item_id}`, j.evidence);
const rows = report.rq3.pairs.flatMap((p) => {
  const items = prepared.checklist.get(p.task_id)!;
  const a = prepared.labelsOf(p.without_id) ?? [], b = prepared.labelsOf(p.with_id) ?? [];
  return items.map((it, k) => ({
    pair_id: p.pair_id, item_id: it.item_id, text: it.text, route: it.route, category: it.category ?? "",
    label_without: a[k] ?? "Abstain", label_with: b[k] ?? "Abstain", changed: (a[k] ?? "Abstain") !== (b[k] ?? "Abstain"),
    evidence_without: evidence.get(`${p.without_id}\u0000${it.item_id}`) ?? "", evidence_with: evidence.get(`${p.with_id}\u0000${it.item_id}`) ?? "",
  }));
});
process.stdout.write(rowsToArrowIPC(rows));
