import type { PreparedStore } from "./prepared.js";
import { ScoreColumn, type ScoreLookup } from "./score-column.js";

/** Plain GCPC over every item, outcome-determining ones included (a store of both kinds only). */
export const ALL_ITEMS_GCPC = "gcpc (all items)";
/** Plain GCPC with item weights dropped, beside the weighted `gcpc` of a store whose items carry weights. */
export const UNWEIGHTED_GCPC = "gcpc (unweighted)";
/** Gated plain GCPC: an item counts only when its prerequisites hold, transitively (a store with prerequisites). */
export const GATED_GCPC = "gcpc (gated)";

/**
 * Score of every scorer for every deduplicated trajectory: plain GCPC
 * (`gcpc`, undefined when zero-evidence), GCPC with official outcome
 * (`gcpc_outcome`) and each stored method_scores method.
 */
export function methodScoreMaps(p: PreparedStore): ReadonlyMap<string, ScoreLookup> {
  // Built once per prepared store (RQ1, RQ2, the site's power grid and Compare columns all read it):
  // one score per method score row, 1.5 M at scale 100, 10 M at 100× the paper.
  let maps = built.get(p);
  if (!maps) built.set(p, (maps = buildMethodScoreMaps(p)));
  return maps;
}

const built = new WeakMap<PreparedStore, ReadonlyMap<string, ScoreLookup>>();

function buildMethodScoreMaps(p: PreparedStore): Map<string, ScoreLookup> {
  const slots = p.slots;
  const gcpc = new ScoreColumn(slots),
    gcpcOutcome = new ScoreColumn(slots);
  // By slot: the metrics and the score columns share the prepared store's slots (no id lookup each).
  for (let k = 0; k < p.metrics.size; k++) {
    const m = p.metrics.atSlot(k);
    if (!m.zero_evidence) {
      gcpc.setSlot(k, m.gcpc);
      gcpcOutcome.setSlot(k, m.gcpc_outcome);
    }
  }
  const maps = new Map<string, ScoreLookup>([
    ["gcpc", gcpc],
    ["gcpc_outcome", gcpcOutcome],
  ]);
  // A store with outcome-determining and outcome-free items: GCPC counts the outcome-free ones; the
  // all-items score is reported beside it, flagged not outcome-free (analysis/rq/rq1-discrimination.ts).
  const alternatives: [string, Float64Array | undefined][] = [
    [ALL_ITEMS_GCPC, p.allItemsGcpc],
    [UNWEIGHTED_GCPC, p.unweightedGcpc],
    [GATED_GCPC, p.gatedGcpc],
  ];
  for (const [name, scores] of alternatives) {
    if (!scores) continue;
    const column = new ScoreColumn(slots);
    for (let k = 0; k < p.metrics.size; k++) if (!p.metrics.atSlot(k).zero_evidence) column.setSlot(k, scores[k]);
    maps.set(name, column);
  }
  // A stored method named like a computed one takes its place, as Map.set does.
  for (const [name, scores] of p.storedScores) maps.set(name, scores);
  return maps;
}
