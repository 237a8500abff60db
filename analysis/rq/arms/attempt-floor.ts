// compare's noise floor: measured between attempts of the same arm and task where there are repeats.
import type { ArmField } from "./arm-pairs.js";
import { cellKeyOf } from "./compare-pairs.js";
import { tableView, type ArmTable } from "./arm-table.js";
import type { FloorName } from "../noise-floor.js";

/** The noise floor compare prints beside its transitions (CompareResult.noise_floor). */
export interface CompareFloor {
  name: FloorName;
  value: number;
  source: "measured between attempts" | "measured between runs" | "paper";
  n: number;
  definition: string;
}

/**
 * The noise floor "material" is measured against: where an arm has two or more attempts of a task (in the
 * same cell), the mean |score(attempt i) − score(attempt j)| over those attempt pairs of both arms, with its
 * n; else the store's repeated scoring runs, else the paper's constant (analysis/rq/noise-floor.ts).
 */
export function measuredFloor(
  table: ArmTable,
  sides: { a: number[]; b: number[] },
  shared: readonly ArmField[],
  score: (k: number) => number,
): CompareFloor {
  const cellKey = cellKeyOf(tableView(table.rows), shared);
  let sum = 0;
  let n = 0;
  for (const slots of [sides.a, sides.b]) {
    const cells = new Map<string, number[]>();
    for (const k of slots) {
      const v = score(k);
      if (!Number.isFinite(v)) continue;
      const key = cellKey(k);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key)!.push(v);
    }
    for (const values of cells.values())
      for (let i = 0; i < values.length; i++)
        for (let j = i + 1; j < values.length; j++) {
          sum += Math.abs(values[i] - values[j]);
          n++;
        }
  }
  if (n > 0)
    return {
      name: "attempt floor",
      value: sum / n,
      source: "measured between attempts",
      n,
      definition: `mean |score(attempt i) − score(attempt j)| over ${n} pairs of attempts of the same arm and task`,
    };
  return table.fallbackFloor;
}
