import type { Store } from "../../analysis/schema/store.js";
import { compareCodePoints } from "../../analysis/order.js";
import type { ImportResult } from "./importer.js";
import { scoringJudge } from "../../analysis/rq/prepared.js";
import { DEFAULT_JUDGE } from "../../analysis/schema/tables.js";

/**
 * The summary every import prints, the same for every kind: totals, then one line per arm (named by whichever of
 * harness, model and condition vary; harness / model when none does) with its tasks, trajectories, outcomes and
 * judgments and, when the store has several judges, which judge scores its trajectories (analysis/rq/prepared.ts,
 * scoringJudge), then what was skipped and the importer's own notes. Store text is the caller's to strip of
 * control characters.
 */
export function importSummary(kind: string, result: ImportResult): string[] {
  const s = result.store;
  // The fields that vary name an arm ("gpt-4o", not "unrecorded / gpt-4o"); with none varying, harness / model.
  const fields: ((t: Store["trajectories"][number]) => string)[] = [
    (t) => t.harness,
    (t) => t.model,
    (t) => t.condition ?? "none",
  ];
  const varying = fields.filter((f) => new Set(s.trajectories.map(f)).size > 1);
  const naming = varying.length ? varying : fields.slice(0, 2);
  const armOf = (t: Store["trajectories"][number]) => naming.map((f) => f(t)).join(" / ");
  const primary = s.manifest.primary_judge ?? DEFAULT_JUDGE;
  const judged = new Map<string, number>();
  const judgesOf = new Map<string, { judge: string }[]>();
  for (const j of s.judgments) {
    judged.set(j.trajectory_id, (judged.get(j.trajectory_id) ?? 0) + 1);
    const list = judgesOf.get(j.trajectory_id) ?? [];
    list.push({ judge: j.judge ?? primary });
    judgesOf.set(j.trajectory_id, list);
  }
  const severalJudges = new Set(s.judgments.map((j) => j.judge ?? primary)).size > 1;
  type ArmCounts = { tasks: Set<string>; n: number; pass: number; fail: number; judgments: number };
  const arms = new Map<string, ArmCounts & { scoredBy: Map<string, number> }>();
  for (const t of s.trajectories) {
    const key = armOf(t);
    if (!arms.has(key)) arms.set(key, { tasks: new Set(), n: 0, pass: 0, fail: 0, judgments: 0, scoredBy: new Map() });
    const a = arms.get(key)!;
    a.tasks.add(t.task_id);
    a.n++;
    if (t.outcome === "PASS") a.pass++;
    else if (t.outcome === "FAIL") a.fail++;
    a.judgments += judged.get(t.trajectory_id) ?? 0;
    const runs = judgesOf.get(t.trajectory_id);
    const by = runs ? scoringJudge(runs, primary) : "no judge";
    a.scoredBy.set(by, (a.scoredBy.get(by) ?? 0) + 1);
  }
  const lines = [
    `imported ${kind}: ${s.trajectories.length} trajectories of ${s.tasks.length} tasks in ${arms.size} arm(s); ` +
      `${s.items.length} items, ${s.judgments.length} judgments; ${result.skipped.length} input problem(s) skipped`,
  ];
  for (const [arm, a] of [...arms].sort(([x], [y]) => compareCodePoints(x, y)))
    lines.push(
      `  arm ${arm}: ${a.tasks.size} tasks, ${a.n} trajectories (${a.pass} PASS, ${a.fail} FAIL, ` +
        `${a.n - a.pass - a.fail} non-binary), ${a.judgments} judgments` +
        (severalJudges ? `; scored by ${scoredBy(a.scoredBy)}` : ""),
    );
  for (const n of result.notes) lines.push(`  ${n}`);
  return lines;
}

/** "llama3" or "llama3 (40), mistral (10)": which judge scores an arm's trajectories, most first. */
export function scoredBy(counts: Map<string, number>): string {
  const list = [...counts].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]));
  return list.length === 1 ? list[0][0] : list.map(([j, n]) => `${j} (${n})`).join(", ");
}
