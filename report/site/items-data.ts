// The Checklists page's "Items to fix" (issue 58.1): `gcpc items`'s figures at its default shuffle count and the
// report's seed, without what the page takes from checklists.json (the items' text) or does not show (every
// redundant pair: the items to fix name each item's repeats).
import type { BootstrapSettings } from "../../analysis/estimates/bootstrap-interval.js";
import { itemDiagnostics } from "../../analysis/rq/item-diagnostics.js";
import type { PreparedStore } from "../../analysis/rq/prepared.js";

export const SITE_ITEM_SHUFFLES = 1000;

export function siteItems(prepared: PreparedStore, settings: BootstrapSettings) {
  if (prepared.store.items.length === 0) return { available: false, reason: "no checklist items" };
  const { by_item, redundant_pairs, to_fix, ...summary } = itemDiagnostics(prepared, settings, SITE_ITEM_SHUFFLES);
  return {
    ...summary,
    seed: settings.seed,
    redundant_pair_count: redundant_pairs.length,
    to_fix: to_fix.map(({ text: _text, ...f }) => f),
    by_item: by_item.map((d) => ({
      task_id: d.task_id,
      item_id: d.item_id,
      decided: d.decided,
      difficulty: d.difficulty,
      difficulty_ci: d.difficulty_ci,
      against: d.against,
      difference: d.difference,
      difference_ci: d.difference_ci,
      auc: d.auc,
      r: d.against === "rest" ? d.item_rest : d.point_biserial,
      control_p: d.control_p,
      constant: d.constant,
      informative: d.informative,
      wrong_sign: d.wrong_sign,
      redundant_with: d.redundant_with,
      judge_kappa: d.judge?.kappa ?? null,
      judge_units: d.judge?.units ?? null,
    })),
  };
}
