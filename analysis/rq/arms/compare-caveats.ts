// What compare prints beside its figures: not outcome-free, few tasks, different task sets, different judges.
import { FEW_CLUSTERS } from "../../estimates/bootstrap-interval.js";
import type { ArmPair } from "./arm-pairs.js";
import { NOT_OUTCOME_FREE } from "../outcome-free.js";
import { compareCodePoints } from "../../order.js";
import type { ArmSummary } from "./arm-summary.js";
import type { ArmRow, ArmTable } from "./arm-table.js";

/**
 * Issue 45.2: an arm scored by another judge than the arm it is compared with (InfoBench-style data, each model
 * judged by another): which judge scored each side's matched attempts, when the sides differ.
 */
export function judgeCaveat(rows: ArmRow[], pairs: ArmPair[]): string[] {
  const judges = (side: "a" | "b") => {
    const counts = new Map<string, number>();
    for (const x of pairs)
      for (const k of x[side]) if (rows[k].judge) counts.set(rows[k].judge!, (counts.get(rows[k].judge!) ?? 0) + 1);
    return [...counts].sort((p, q) => q[1] - p[1] || compareCodePoints(p[0], q[0]));
  };
  const a = judges("a");
  const b = judges("b");
  const text = (js: [string, number][]) => js.map(([j, n]) => `${j} (${n})`).join(", ");
  if (a.length === 0 || b.length === 0 || JSON.stringify(a.map(([j]) => j)) === JSON.stringify(b.map(([j]) => j)))
    return [];
  return [
    `the arms were scored by different judges (a: ${text(a)}; b: ${text(b)}): the score Δ mixes the arms with ` +
      "their judges; --judge NAME scores both by one",
  ];
}

/** The caveats a reader needs beside the figures (CompareResult.caveats). */
export function caveatsOf(table: ArmTable, a: ArmSummary, b: ArmSummary, tasks: number): string[] {
  const out: string[] = [];
  if (!table.outcome_free)
    out.push(
      `${table.method} is ${NOT_OUTCOME_FREE}: a FAIL→PASS pair gains on them by definition, so its Δ and the ` +
        "transitions restate the outcome, not evidence beyond it",
    );
  if (tasks < 2) out.push(`${tasks} matched task: no interval and no test can rest on it`);
  else if (tasks < FEW_CLUSTERS)
    out.push(`few tasks: ${tasks} matched tasks (fewer than ${FEW_CLUSTERS}): the intervals cover less often than 95%`);
  if (a.tasks !== tasks || b.tasks !== tasks)
    out.push(
      `different task sets: a ran ${a.tasks} tasks, b ${b.tasks}; every figure is on their ${tasks} common tasks`,
    );
  return out;
}
