import type { PreparedStore } from "./prepared.js";
import { compareCodePoints } from "./order.js";

/** Paper baselines first (Table 3A order), then any other stored method by name. */
const PAPER_ORDER = ["holistic", "generic", "tick", "tick_adapted"];

/**
 * Score of every scorer for every deduplicated trajectory: plain GCPC
 * (`gcpc`, undefined when zero-evidence), GCPC with official outcome
 * (`gcpc_outcome`) and each stored method_scores method.
 */
export function methodScoreMaps(p: PreparedStore): Map<string, Map<string, number>> {
  const maps = new Map<string, Map<string, number>>();
  const gcpc = new Map<string, number>(), gcpcOutcome = new Map<string, number>();
  for (const [id, m] of p.metrics) {
    if (!m.zero_evidence) { gcpc.set(id, m.gcpc); gcpcOutcome.set(id, m.gcpc_outcome); }
  }
  maps.set("gcpc", gcpc);
  maps.set("gcpc_outcome", gcpcOutcome);
  const stored = new Map<string, Map<string, number>>();
  for (const row of p.store.method_scores ?? []) {
    if (!p.byId.has(row.trajectory_id)) continue;
    let m = stored.get(row.method);
    if (!m) stored.set(row.method, (m = new Map()));
    m.set(row.trajectory_id, row.score);
  }
  for (const name of baselineOrder([...stored.keys()])) maps.set(name, stored.get(name)!);
  return maps;
}

export function baselineOrder(names: string[]): string[] {
  const known = PAPER_ORDER.filter((n) => names.includes(n));
  const rest = names.filter((n) => !PAPER_ORDER.includes(n)).sort(compareCodePoints);
  return [...known, ...rest];
}
