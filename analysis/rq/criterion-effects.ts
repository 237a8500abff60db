import { group } from "d3";
import { labelAt } from "../schema/label-vectors.js";
import { benjaminiHochberg } from "../stats/multiplicity.js";
import { signTestPValue } from "../stats/sign-test.js";
import { compareCodePoints } from "../order.js";
import type { PreparedStore } from "./prepared.js";

/** What per-criterion effects read: each trajectory's primary-run label string and each task's checklist. */
export type CriterionLabels = Pick<PreparedStore, "labelsAt" | "slots"> & {
  checklist: ReadonlyMap<string, readonly { item_id: string; text: string; category?: string | null; route: string }[]>;
};

export interface CriterionEffect {
  task_id: string;
  item_id: string;
  text: string;
  category: string | null;
  route: string;
  /** Pairs of the item's task in the filter (each gives one without/with label pair for the item). */
  pairs: number;
  /** No or Abstain without the skill, Yes with it. */
  improved: number;
  /** Yes without, No or Abstain with. */
  regressed: number;
  /** Exact McNemar test: two-sided binomial test of improved vs regressed (discordant pairs only). */
  mcnemar_p: number | null;
  /** Benjamini–Hochberg q over every criterion with a discordant pair. */
  bh_q: number | null;
}

/** Whether item k of a label string (label-vectors.ts) is "Yes"; not judged or no run is not. */
export const satisfied = (labels: string | undefined, k: number) =>
  labels !== undefined && labelAt(labels, k) === "Yes";

/**
 * Per-criterion skill effects: for each checklist item, across the given matched pairs of
 * its task, the paired 2×2 of "satisfied" without vs with the skill. The exact McNemar test uses
 * only the discordant cells b (not → Yes) and c (Yes → not): p = 2·P(X ≤ min(b, c)), X ~ Bin(b+c, ½).
 * Items are a family: BH q-values over all items with b + c > 0. Sorted by p, then task and item.
 */
export function criterionEffects(
  p: CriterionLabels,
  pairs: ReadonlyArray<{ task_id: string; without_id: string; with_id: string }>,
): CriterionEffect[] {
  const rows: CriterionEffect[] = [];
  const byTask = group(pairs, (pair) => pair.task_id);
  for (const task of [...byTask.keys()].sort(compareCodePoints)) {
    const taskPairs = byTask.get(task)!;
    // Each pair's primary-run label strings, looked up once per task, not once per item, and not decoded
    // into an array per trajectory (340,000 of them for the FAIL→FAIL pairs at scale 100).
    const primary = (id: string) => p.labelsAt(p.slots.get(id));
    const labels = taskPairs.map((pair) => [primary(pair.without_id), primary(pair.with_id)]);
    for (const [k, item] of (p.checklist.get(task) ?? []).entries()) {
      let improved = 0;
      let regressed = 0;
      for (const [without, withSkill] of labels) {
        const before = satisfied(without, k);
        const after = satisfied(withSkill, k);
        if (!before && after) improved++;
        if (before && !after) regressed++;
      }
      const n = improved + regressed;
      rows.push({
        task_id: task,
        item_id: item.item_id,
        text: item.text,
        category: item.category ?? null,
        route: item.route,
        pairs: taskPairs.length,
        improved,
        regressed,
        mcnemar_p: n === 0 ? null : signTestPValue(Math.min(improved, regressed), n),
        bh_q: null,
      });
    }
  }
  const q = benjaminiHochberg(rows.map((r) => r.mcnemar_p));
  for (const [i, r] of rows.entries()) r.bh_q = q[i];
  return rows.sort(
    (a, b) =>
      (a.mcnemar_p ?? 2) - (b.mcnemar_p ?? 2) ||
      compareCodePoints(a.task_id, b.task_id) ||
      compareCodePoints(a.item_id, b.item_id),
  );
}
