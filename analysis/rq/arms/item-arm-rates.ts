import { wilsonInterval } from "../../stats/wilson.js";
import { readableLabels } from "../../schema/label-vectors.js";
import type { ArmField, Selector } from "./arm-pairs.js";
import type { ArmTable } from "./compare-arms.js";

/** One arm's verdicts on one item (or item group): Yes among the decided (Yes or No) verdicts. */
export interface ItemArmCell {
  yes: number;
  decided: number;
  abstain: number;
  /** Yes / decided (with grades: the mean grade over the decided verdicts); null when none was decided. */
  rate: number | null;
  /** Wilson 95% score interval of the rate (null when nothing was decided or the row holds grades). */
  ci: [number, number] | null;
  /** Whether the interval lies wholly above or below the pooled rate of the row's other arms. */
  differs: "above" | "below" | null;
}

export interface ItemArmRow {
  /** task_id and item_id (by item), or the category's name (by category). */
  key: string;
  task_id: string | null;
  item_id: string | null;
  text: string;
  cells: Record<string, ItemArmCell>;
  /** The largest rate minus the smallest across the arms with a rate (0 with fewer than two). */
  spread: number;
}

export interface ItemArmRates {
  field: ArmField;
  arms: string[];
  by: "item" | "category";
  rows: ItemArmRow[];
  estimator: string;
}

/**
 * Per checklist item (or category) and per value of `field`: the share of Yes among the decided verdicts of the
 * primary judge (Abstain and not-applicable left out), with a Wilson 95% interval, and a mark where that interval
 * excludes the pooled rate of the other arms on the same row. An item-level screen, not a test of the arms: the
 * marks are not adjusted for the number of cells, and a task's attempts are counted as independent.
 */
export function itemArmRates(
  table: ArmTable,
  o: { field: ArmField; where?: Selector; by?: "item" | "category" },
): ItemArmRates {
  const by = o.by ?? "item";
  const { counts, arms } = countVerdicts(table, o.field, Object.entries(o.where ?? {}), by);
  const rows = [...counts.values()].map((entry) => rowOf(entry, arms));
  rows.sort((x, y) => y.spread - x.spread || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return {
    field: o.field,
    arms,
    by,
    rows,
    estimator:
      "Yes / decided (Yes or No) verdicts of the primary judge per arm, Abstain and not applicable left out " +
      "(graded items: the mean grade); Wilson 95% score interval; a cell is marked where its interval excludes " +
      "the pooled rate of the row's other arms (a screen: no adjustment for the number of cells, attempts " +
      "counted as independent)",
  };
}

/** Per row and arm: [Σ credit, decided, abstain, yes]. */
type Counts = [number, number, number, number];

interface RowCounts {
  row: Omit<ItemArmRow, "cells" | "spread">;
  graded: boolean;
  arms: Map<string, Counts>;
}

/** Every arm's verdicts counted per item (or category), over the rows the filter keeps. */
function countVerdicts(
  table: ArmTable,
  field: ArmField,
  where: [string, string | undefined][],
  by: "item" | "category",
): { counts: Map<string, RowCounts>; arms: string[] } {
  const counts = new Map<string, RowCounts>();
  const armSet = new Set<string>();
  table.rows.forEach((row, k) => {
    const arm = row.fields[field];
    const labels = table.labels?.[k];
    if (arm === null || !labels || !where.every(([f, v]) => row.fields[f as ArmField] === v)) return;
    armSet.add(arm);
    const items = table.checklist[row.task] ?? [];
    readableLabels(labels, table.grades).forEach((label, i) => {
      const item = items[i];
      if (!item || label === undefined || label === "NotApplicable") return;
      const key = by === "category" ? (item.category ?? "(no category)") : `${row.task}:${item.item_id}`;
      let entry = counts.get(key);
      if (!entry) {
        const row0 =
          by === "category"
            ? { key, task_id: null, item_id: null, text: key }
            : { key, task_id: row.task, item_id: item.item_id, text: item.text };
        entry = { row: row0, graded: false, arms: new Map() };
        counts.set(key, entry);
      }
      const c: Counts = entry.arms.get(arm) ?? [0, 0, 0, 0];
      entry.arms.set(arm, c);
      if (label === "Abstain") c[2]++;
      else {
        const credit = label === "Yes" ? 1 : label === "No" ? 0 : Number(label);
        if (label !== "Yes" && label !== "No") entry.graded = true;
        c[0] += credit;
        c[1]++;
        if (label === "Yes") c[3]++;
      }
    });
  });
  return { counts, arms: [...armSet].sort() };
}

/** A row's cells: each arm's rate and interval, marked against the pooled rate of the other arms. */
function rowOf({ row, graded, arms: byArm }: RowCounts, arms: string[]): ItemArmRow {
  const cells: Record<string, ItemArmCell> = {};
  for (const arm of arms) {
    const [credit, decided, abstain, yes] = byArm.get(arm) ?? [0, 0, 0, 0];
    let otherCredit = 0;
    let otherDecided = 0;
    for (const [a, c] of byArm)
      if (a !== arm) {
        otherCredit += c[0];
        otherDecided += c[1];
      }
    const ci = graded ? null : wilsonInterval(yes, decided);
    const pooled = otherDecided > 0 ? otherCredit / otherDecided : null;
    cells[arm] = {
      yes,
      decided,
      abstain,
      rate: decided > 0 ? credit / decided : null,
      ci,
      differs: ci && pooled !== null ? (ci[0] > pooled ? "above" : ci[1] < pooled ? "below" : null) : null,
    };
  }
  const rates = arms.map((a) => cells[a].rate).filter((r): r is number => r !== null);
  const spread = rates.length >= 2 ? Math.max(...rates) - Math.min(...rates) : 0;
  return { ...row, cells, spread };
}
