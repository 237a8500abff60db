import type { ArmField } from "./arm-pairs.js";
import { fieldOf } from "./arm-view.js";
import { isBinary, type PreparedStore } from "../prepared.js";

/** At most this many arms in a store's overview: a longer table is not read, and ranks over it are vague. */
export const MAX_OVERVIEW_ARMS = 15;

/**
 * The arms of a store's overview (the site's first page, the report's first section): the descriptive fields
 * that vary among the binary trajectories, or among all of them in a store with no outcome (a rubric table: its
 * arms are compared by GCPC, which needs none; benchmark and domain belong to tasks), or, when that makes more than
 * 15 arms, the first of harness + model, harness, model, condition that gives 2 to 15. Empty: no grouping does.
 */
export function overviewArmFields(p: PreparedStore): ArmField[] {
  const binary = p.trajectories.filter(isBinary);
  const population = binary.length > 0 ? binary : p.trajectories;
  const count = (by: ArmField[]) => new Set(population.map((t) => by.map((f) => fieldOf(p, t, f)).join("\u0000"))).size;
  const varying = (["harness", "model", "source", "condition"] as ArmField[]).filter((f) => count([f]) > 1);
  if (varying.length === 0) return [];
  const candidates: ArmField[][] = [varying, ["harness", "model"], ["harness"], ["model"], ["condition"]];
  return (
    candidates.find((by) => by.every((f) => varying.includes(f)) && count(by) >= 2 && count(by) <= MAX_OVERVIEW_ARMS) ??
    []
  );
}
