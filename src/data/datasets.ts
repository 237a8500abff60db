// The datasets behind the pages, each exported as CSV and Parquet by a two-line loader.
import { loadReport, loadStore } from "./load-store.js";
import { checkGates } from "../../analysis/rq/checklist-gates.js";

type Row = Record<string, unknown>;

export async function dataset(name: string): Promise<Row[]> {
  if (name === "checklists") {
    const store = await loadStore();
    const tasks = new Map(store.tasks.map((t) => [t.task_id, t]));
    return store.items.map((it) => ({
      ...it,
      benchmark: tasks.get(it.task_id)?.benchmark,
      ...checkGates(it, tasks.get(it.task_id)),
    }));
  }
  const { report, prepared, store } = await loadReport();
  if (name === "explorer-pairs")
    return report.rq3.pairs.map((p) => ({
      pair_id: p.pair_id,
      task_id: p.task_id,
      domain: prepared.tasks.get(p.task_id)?.domain ?? "",
      harness: p.harness,
      model: p.model,
      source: p.source ?? "",
      transition: p.transition,
      without_id: p.without_id,
      with_id: p.with_id,
      gcpc_without: p.gcpc_without,
      gcpc_with: p.gcpc_with,
      delta: p.delta,
    }));
  if (name === "per-trajectory") return report.per_trajectory as unknown as Row[];
  if (name === "pairs") return report.rq3.pairs as unknown as Row[];
  if (name === "pair-items") {
    const evidence = new Map<string, string>();
    for (const j of store.judgments)
      if ((j.run ?? 1) === 1 && (j.judge ?? prepared.primaryJudge) === prepared.primaryJudge && j.evidence)
        evidence.set(`${j.trajectory_id}\u0000${j.item_id}`, j.evidence);
    return report.rq3.pairs.flatMap((p) => {
      const items = prepared.checklist.get(p.task_id)!;
      const a = prepared.labelsOf(p.without_id) ?? [],
        b = prepared.labelsOf(p.with_id) ?? [];
      return items.map((it, k) => ({
        pair_id: p.pair_id,
        task_id: p.task_id,
        transition: p.transition,
        item_id: it.item_id,
        text: it.text,
        route: it.route,
        category: it.category ?? "",
        label_without: a[k] ?? "Abstain",
        label_with: b[k] ?? "Abstain",
        changed: (a[k] ?? "Abstain") !== (b[k] ?? "Abstain"),
        evidence_without: evidence.get(`${p.without_id}\u0000${it.item_id}`) ?? "",
        evidence_with: evidence.get(`${p.with_id}\u0000${it.item_id}`) ?? "",
      }));
    });
  }
  if (name === "auc")
    return report.rq1.auc.concat(report.rq1.by_condition).map((a) => ({
      method: a.method,
      n: a.n,
      n_pass: a.n_pass,
      n_fail: a.n_fail,
      tasks: a.tasks,
      auc: a.auc,
      ci_low: a.ci?.[0] ?? null,
      ci_high: a.ci?.[1] ?? null,
      obuchowski_low: a.obuchowski?.ci?.[0] ?? null,
      obuchowski_high: a.obuchowski?.ci?.[1] ?? null,
      resamples: a.bootstrap?.resamples ?? null,
      seed: a.bootstrap?.seed ?? null,
    }));
  if (name === "transitions") return report.rq3.transitions as unknown as Row[];
  throw new Error(`unknown dataset ${name}`);
}
