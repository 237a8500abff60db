// compare's outcome transitions (trial pairing): each cell's score Δ, its median and shares with intervals, and
// the per-item exact McNemar tests with BH q.
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { notAvailable } from "../../estimates/not-defined.js";
import { quantileSorted } from "../../stats/quantile.js";
import { criterionEffects, satisfied } from "../criterion-effects.js";
import { itemChanges } from "./item-changes.js";
import type { ArmPair } from "./arm-pairs.js";
import { transitionTests, type PairOutcome, type TransitionGroup, type TransitionTests } from "./transition-tests.js";
import type { ArmTable } from "./arm-table.js";

export interface TransitionCell extends TransitionTests {
  /** Pairs with a score on both sides: every figure of the cell (Δ, shares, tests, per-item tests) is over these. */
  n: number;
  /** Pairs of this transition left out because a side has no score (e.g. a zero-evidence run). */
  unscored: number;
  /** Δ = score(b) − score(a) over the cell's pairs: quartiles, mean, and how many moved beyond the noise floor. */
  delta: { mean: number | null; q25: number | null; median: number | null; q75: number | null };
  improved_share: number | null;
  regressed_share: number | null;
  tasks: number;
}

/** The four transitions (RQ3's grouping, analysis/rq/arms/transition-tests.ts) in compare's columns. */
export function transitions(
  groups: readonly TransitionGroup<PairOutcome>[],
  floor: number,
  settings: BootstrapSettings,
  figure: string,
): Record<string, TransitionCell> {
  const out: Record<string, TransitionCell> = {};
  for (const g of groups) {
    const cell = `${g.from}→${g.to}`;
    const deltas = g.columns.deltas;
    const sorted = Float64Array.from(deltas).sort();
    const q = (pr: number) => (sorted.length ? quantileSorted(sorted, pr) : null);
    const tests = transitionTests({ columns: g.columns, settings, figure: `${figure}:${cell}`, threshold: floor });
    const n = deltas.length;
    out[cell] = {
      n,
      unscored: g.unscored,
      delta: { mean: n ? deltas.reduce((a, b) => a + b, 0) / n : null, q25: q(0.25), median: q(0.5), q75: q(0.75) },
      improved_share: n ? deltas.filter((x) => x > floor).length / n : null,
      regressed_share: n ? deltas.filter((x) => x < -floor).length / n : null,
      tasks: g.columns.clusters,
      ...tests,
    };
  }
  return out;
}

export function items(table: ArmTable, pairs: ArmPair[], seed: string) {
  const labels = table.labels;
  if (!labels) return notAvailable("the store holds no judgments");
  const rows = table.rows;
  // The per-item test reads label strings by row: the table's rows stand in for the prepared store's slots.
  const source = {
    slots: new Map(rows.map((r, k) => [r.id, k])),
    labelsAt: (k: number | undefined) => (k === undefined ? undefined : labels[k]),
    checklist: new Map(Object.entries(table.checklist)),
  };
  const list = pairs.map((x) => ({
    task_id: x.task,
    without_id: rows[x.a[0]].id,
    with_id: rows[x.b[0]].id,
    failFail: rows[x.a[0]].outcome === "FAIL" && rows[x.b[0]].outcome === "FAIL",
  }));
  const checklist = new Map(
    Object.entries(table.checklist).map(([task, list]) => [task, list.map((it) => it.item_id)]),
  );
  return {
    fail_fail: criterionEffects(
      source,
      list.filter((r) => r.failFail),
    ),
    all: criterionEffects(source, list),
    by_item: itemChanges({
      checklist,
      pairs: pairs.map((x) => ({
        task: x.task,
        a: (k: number) => satisfied(labels[x.a[0]], k),
        b: (k: number) => satisfied(labels[x.b[0]], k),
      })),
      seed,
    }),
  };
}
