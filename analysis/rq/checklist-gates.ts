import type { Item, Task } from "../schema/tables.js";

/** Result of the mechanical gates of paper §3.2 on one item (contract "Transfer", rule 10). */
export interface GateResult {
  /** The quote appears verbatim in the task instruction (an absent quote fails). */
  quote_verbatim: boolean;
  /** An assertion-route item's assertion_ref is one of the task's verifier_tests (other routes pass). */
  assertion_resolves: boolean;
  /** The item has non-empty text. */
  has_text: boolean;
  valid: boolean;
}

export function checkGates(item: Item, task: Task | undefined): GateResult {
  const quote_verbatim = item.quote != null && item.quote.length > 0 && (task?.instruction ?? "").includes(item.quote);
  const assertion_resolves =
    item.route !== "assertion" ||
    (item.assertion_ref != null && (task?.verifier_tests ?? []).includes(item.assertion_ref));
  const has_text = item.text.trim().length > 0;
  return { quote_verbatim, assertion_resolves, has_text, valid: quote_verbatim && assertion_resolves && has_text };
}
