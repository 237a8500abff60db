import { loadStore } from "./load-store.js";
import { checkGates } from "../../analysis/rq/checklist-gates.js";

// Frozen checklists with each mechanical gate's result.
const store = await loadStore();
const tasks = new Map(store.tasks.map((t) => [t.task_id, t]));
process.stdout.write(JSON.stringify(store.items.map((it) => ({ ...it, benchmark: tasks.get(it.task_id)?.benchmark, ...checkGates(it, tasks.get(it.task_id)) }))));
