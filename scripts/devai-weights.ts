// Item weights for the vendored DevAI store (data/real/devai), by a stated rule of ours, not upstream's: a
// requirement weighs 1 + the number of the task's requirements that depend on it, directly or transitively
// (a requirement others build on carries more of the task). DevAI itself gives no weights. The requirements
// are the importer's checklist (store/import/devai.ts: devai/instances', or the judgment files' where those
// judged another list, as for task 52), so every weight sits on the item it was computed for.
//   node --import tsx scripts/devai-weights.ts data/real/raw/devai > data/real/raw/devai/weights.csv
import { prerequisiteClosure } from "../analysis/scoring/gated-credit.js";
import { group } from "d3";
import { importDevai } from "../store/import/devai.js";

const { store } = importDevai(process.argv[2]);
const lines = ["task_id,item_id,weight"];
for (const [task, items] of group(store.items, (it) => it.task_id)) {
  // prerequisiteClosure (gated credit's): for each position, the positions it depends on, followed transitively.
  const dependents = new Array<number>(items.length).fill(0);
  for (const ancestors of prerequisiteClosure(items)) for (const a of ancestors) dependents[a]++;
  for (const [k, it] of items.entries()) lines.push(`${task},${it.item_id},${1 + dependents[k]}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
