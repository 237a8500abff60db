import { gradeAt } from "../schema/grades.js";

/**
 * Gated credit (schema_version 2, items.prerequisites): an item counts only when its prerequisites hold,
 * transitively. This is DevAI's "requirements met with dependencies" (Zhuge et al. 2024, Agent-as-a-Judge,
 * §3: a requirement is counted as satisfied only when the requirements it depends on are). A prerequisite
 * holds when it is judged at full credit (Yes, grade 1) or does not apply to the trajectory (NotApplicable);
 * Abstain, No and partial grades do not hold. An item whose prerequisites do not all hold keeps its place
 * among the decided items with grade 0 (an Abstain stays Abstain: there is nothing to gate).
 */

/** Each checklist position's prerequisites, transitively, as positions (the store's validation refuses cycles). */
export function prerequisiteClosure(
  items: readonly { item_id: string; prerequisites?: readonly string[] | null }[],
): number[][] {
  const position = new Map(items.map((it, k) => [it.item_id, k]));
  const direct = items.map((it) =>
    (it.prerequisites ?? []).map((id) => position.get(id)).filter((k): k is number => k !== undefined),
  );
  const closure: (number[] | undefined)[] = new Array(items.length);
  const visiting = new Uint8Array(items.length);
  const close = (k: number): number[] => {
    const known = closure[k];
    if (known) return known;
    if (visiting[k]) throw new Error(`prerequisites of item ${items[k].item_id} form a cycle`);
    visiting[k] = 1;
    const all = new Set<number>();
    for (const j of direct[k]) {
      all.add(j);
      for (const i of close(j)) all.add(i);
    }
    visiting[k] = 0;
    return (closure[k] = [...all].sort((a, b) => a - b));
  };
  return items.map((_, k) => close(k));
}

/** Whether any item has a prerequisite. */
export const hasPrerequisites = (closure: readonly (readonly number[])[]): boolean => closure.some((c) => c.length > 0);

/** A run's label string under gating: each decided item with a prerequisite that does not hold becomes "N". */
export function gatedLabels(labels: string, closure: readonly (readonly number[])[]): string {
  let out = "";
  for (let k = 0; k < closure.length; k++) {
    const own = k < labels.length ? labels[k] : ".";
    const grade = gradeAt(labels, k);
    const decided = grade >= 0; // not Abstain / not judged (NaN) and not NotApplicable (-1)
    out += decided && !closure[k].every((j) => holds(gradeAt(labels, j))) ? "N" : own;
  }
  return out;
}

const holds = (grade: number) => grade === 1 || grade === -1;
