import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import type { ImportResult } from "./importer.js";

/**
 * The summary every import prints, the same for every kind: totals, then one line per arm (harness / model, and
 * the condition when the store has several) with its tasks, trajectories, outcomes and judgments, then what was
 * skipped and the importer's own notes. Store text is the caller's to strip of control characters.
 */
export function importSummary(kind: string, result: ImportResult): string[] {
  const s = result.store;
  const conditions = new Set(s.trajectories.map((t) => t.condition ?? ""));
  const armOf = (t: Store["trajectories"][number]) =>
    [t.harness, t.model, ...(conditions.size > 1 ? [t.condition ?? "none"] : [])].join(" / ");
  const judged = new Map<string, number>();
  for (const j of s.judgments) judged.set(j.trajectory_id, (judged.get(j.trajectory_id) ?? 0) + 1);
  const arms = new Map<string, { tasks: Set<string>; n: number; pass: number; fail: number; judgments: number }>();
  for (const t of s.trajectories) {
    const key = armOf(t);
    if (!arms.has(key)) arms.set(key, { tasks: new Set(), n: 0, pass: 0, fail: 0, judgments: 0 });
    const a = arms.get(key)!;
    a.tasks.add(t.task_id);
    a.n++;
    if (t.outcome === "PASS") a.pass++;
    else if (t.outcome === "FAIL") a.fail++;
    a.judgments += judged.get(t.trajectory_id) ?? 0;
  }
  const lines = [
    `imported ${kind}: ${s.trajectories.length} trajectories of ${s.tasks.length} tasks in ${arms.size} arm(s); ` +
      `${s.items.length} items, ${s.judgments.length} judgments; ${result.skipped.length} input problem(s) skipped`,
  ];
  for (const [arm, a] of [...arms].sort(([x], [y]) => compareCodePoints(x, y)))
    lines.push(
      `  arm ${arm}: ${a.tasks.size} tasks, ${a.n} trajectories (${a.pass} PASS, ${a.fail} FAIL, ` +
        `${a.n - a.pass - a.fail} non-binary), ${a.judgments} judgments`,
    );
  for (const n of result.notes) lines.push(`  ${n}`);
  return lines;
}
