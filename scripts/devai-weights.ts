// Item weights for the vendored DevAI store (data/real/devai), by a stated rule of ours, not upstream's: a
// requirement weighs 1 + the number of the task's requirements that depend on it, directly or transitively
// (a requirement others build on carries more of the task). DevAI itself gives no weights. The requirements
// are the importer's checklist (store/import/devai.ts: devai/instances', or the judgment files' where those
// judged another list, as for task 52), so every weight sits on the item it was computed for.
//   node --import tsx scripts/devai-weights.ts data/real/raw/devai > data/real/raw/devai/weights.csv
import { importDevai } from "../store/import/devai.js";

const { store } = importDevai(process.argv[2]);
const lines = ["task_id,item_id,weight"];
const byTask = new Map<string, typeof store.items>();
for (const it of store.items) byTask.set(it.task_id, [...(byTask.get(it.task_id) ?? []), it]);
for (const [task, items] of byTask) {
  const pre = new Map(items.map((it) => [it.item_id, it.prerequisites ?? []]));
  const ancestors = (id: string, seen = new Set<string>()): Set<string> => {
    for (const p of pre.get(id) ?? []) if (!seen.has(p)) ancestors(p, seen.add(p));
    return seen;
  };
  const dependents = new Map<string, number>();
  for (const it of items) for (const a of ancestors(it.item_id)) dependents.set(a, (dependents.get(a) ?? 0) + 1);
  for (const it of items) lines.push(`${task},${it.item_id},${1 + (dependents.get(it.item_id) ?? 0)}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
