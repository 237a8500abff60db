// Per checklist item, across tasks: how often its verdict moved between the arms' matched attempts, with a paired
// test. What `compare` shows on a store with no outcome, where the FAIL→FAIL table is empty by construction
// (issue 55.3); rubric tables reuse item ids across tasks (q1 … q8 of every dialogue), so an item is its id.
import { benjaminiHochberg } from "../../stats/multiplicity.js";
import { signTestPValue } from "../../stats/sign-test.js";
import { signFlipTest } from "../../stats/sign-flip-test.js";
import { compareCodePoints } from "../../order.js";
import { finite } from "../../estimates/not-defined.js";

export interface ItemChange {
  item_id: string;
  /** Tasks whose checklist holds the item and that have a matched pair. */
  tasks: number;
  /** Matched pairs over those tasks. */
  pairs: number;
  /** Not satisfied in a, satisfied in b (b − a: an improvement of b). */
  improved: number;
  /** Satisfied in a, not in b. */
  regressed: number;
  /** Two-sided p of the test named in `test`; null with no discordant pair. */
  p: number | null;
  test: string;
  /** Benjamini–Hochberg q over the items with a p. */
  q: number | null;
}

export interface ItemChangeInput {
  /** Per task, the item ids of its checklist, in checklist order (the index is the label vector's position). */
  checklist: ReadonlyMap<string, readonly string[]>;
  /** Per matched pair, its task and whether each item was satisfied (Yes, or a grade of 1) on side a and b. */
  pairs: ReadonlyArray<{ task: string; a: (k: number) => boolean; b: (k: number) => boolean }>;
  seed: string;
}

/**
 * Per item id: improved and regressed counts over every matched pair of every task holding it. The test: exact
 * McNemar (binomial on the discordant pairs) when each task gives the item at most one pair, since pairs of
 * different tasks are independent; otherwise pairs of one task are not, and each task's improved − regressed is
 * one unit of the task-level sign-flip test (exact on its grid). BH q over the items. Sorted by p, then id.
 */
export function itemChanges(o: ItemChangeInput): ItemChange[] {
  const perItem = new Map<string, Map<string, { improved: number; regressed: number; pairs: number }>>();
  for (const pair of o.pairs) {
    const list = o.checklist.get(pair.task) ?? [];
    for (const [k, item] of list.entries()) {
      let tasks = perItem.get(item);
      if (!tasks) perItem.set(item, (tasks = new Map()));
      const cell = tasks.get(pair.task) ?? { improved: 0, regressed: 0, pairs: 0 };
      const before = pair.a(k);
      const after = pair.b(k);
      cell.pairs++;
      if (!before && after) cell.improved++;
      if (before && !after) cell.regressed++;
      tasks.set(pair.task, cell);
    }
  }
  const rows: ItemChange[] = [...perItem.keys()].sort(compareCodePoints).map((item) => {
    const cells = [...perItem.get(item)!.entries()].sort(([x], [y]) => compareCodePoints(x, y)).map(([, c]) => c);
    const improved = cells.reduce((n, c) => n + c.improved, 0);
    const regressed = cells.reduce((n, c) => n + c.regressed, 0);
    const pairs = cells.reduce((n, c) => n + c.pairs, 0);
    const base = { item_id: item, tasks: cells.length, pairs, improved, regressed, q: null };
    if (improved + regressed === 0) return { ...base, p: null, test: "no discordant pair" };
    if (cells.every((c) => c.pairs <= 1))
      return {
        ...base,
        p: signTestPValue(Math.min(improved, regressed), improved + regressed),
        test: `exact McNemar (${improved + regressed} discordant pairs, one per task)`,
      };
    const flip = signFlipTest(
      cells.map((c) => c.improved - c.regressed),
      { seed: `${o.seed}:${item}` },
    );
    return {
      ...base,
      p: finite(flip.pValue),
      test: `task-clustered: each task's improved − regressed is one unit of the ${flip.method}`,
    };
  });
  const q = benjaminiHochberg(rows.map((r) => r.p));
  rows.forEach((r, i) => {
    r.q = q[i];
  });
  return rows.sort((x, y) => (x.p ?? 2) - (y.p ?? 2) || compareCodePoints(x.item_id, y.item_id));
}
