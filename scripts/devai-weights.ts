// Item weights for the vendored DevAI store (data/real/devai), by a stated rule of ours, not upstream's: a
// requirement weighs 1 + the number of the task's requirements that depend on it, directly or transitively
// (a requirement others build on carries more of the task). DevAI itself gives no weights.
//   node --import tsx scripts/devai-weights.ts data/real/raw/devai/benchmark/devai/instances \
//     > data/real/raw/devai/weights.csv
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

const dir = process.argv[2];
const lines = ["task_id,item_id,weight"];
for (const f of readdirSync(dir)
  .filter((x) => x.endsWith(".json"))
  .sort()) {
  const task = basename(f, ".json");
  const reqs = JSON.parse(readFileSync(join(dir, f), "utf8")).requirements as {
    requirement_id: number;
    prerequisites?: number[];
  }[];
  const pre = new Map(
    reqs.map((r) => [r.requirement_id, (r.prerequisites ?? []).filter((p) => p !== r.requirement_id)]),
  );
  const ancestors = (id: number, seen = new Set<number>()): Set<number> => {
    for (const p of pre.get(id) ?? []) if (!seen.has(p)) ancestors(p, seen.add(p));
    return seen;
  };
  const dependents = new Map<number, number>();
  for (const r of reqs) for (const a of ancestors(r.requirement_id)) dependents.set(a, (dependents.get(a) ?? 0) + 1);
  for (const r of reqs) lines.push(`${task},R${r.requirement_id},${1 + (dependents.get(r.requirement_id) ?? 0)}`);
}
process.stdout.write(`${lines.join("\n")}\n`);
