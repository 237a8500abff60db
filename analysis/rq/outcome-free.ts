import { ALL_ITEMS_GCPC } from "./method-scores.js";
import { gcpcIsOutcomeFree, type PreparedStore } from "./prepared.js";

/** What every view prints beside a score built from items that decide the outcome (contract rule 16). */
export const NOT_OUTCOME_FREE = "not outcome-free: the outcome is computed from these items";

/**
 * Whether a method's score is free of the outcome: GCPC counts the outcome-free items of a mixed store, so it is
 * not free only when every item determines the outcome (Terminal-Bench's tests); "gcpc (all items)", GCPC with
 * the official-outcome step and the verifier's test share never are; a stored method score (a judge's) is.
 */
export function isOutcomeFree(p: Pick<PreparedStore, "outcomeItems">, method: string): boolean {
  // GCPC with the official-outcome step (PASS propagation and the endpoint item, paper §3.3) reads the outcome.
  if (method === ALL_ITEMS_GCPC || method === "verifier_tests" || method === "gcpc_outcome") return false;
  if (method === "gcpc" || method.startsWith("gcpc (")) return gcpcIsOutcomeFree(p);
  return true;
}
