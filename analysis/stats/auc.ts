import { argError } from "../errors.js";
import { midranks } from "./ranks.js";

/**
 * Area under the ROC curve of `scores` against a binary `outcomes` vector.
 *
 * Method: the Mann–Whitney form. With midranks R, n₁ positives and n₀
 * negatives, AUC = (ΣR_pos − n₁(n₁+1)/2) / (n₁n₀), which equals
 * P(S₊ > S₋) + ½·P(S₊ = S₋): ties count one half, as the paper (§4.1) states.
 *
 * Returns NaN when there are no positives or no negatives (undefined, not 0.5).
 * Complexity O(n log n).
 * @throws RangeError when lengths differ or a score is not finite.
 * @example auc([0.1, 0.4, 0.4, 0.8], [false, false, true, true]) // → 0.875
 */
export function auc(scores: ArrayLike<number>, outcomes: ArrayLike<boolean>): number {
  if (scores.length !== outcomes.length) {
    throw argError("auc", "outcomes.length", outcomes.length, `must equal scores.length ${scores.length}`);
  }
  for (let i = 0; i < scores.length; i++) {
    if (!Number.isFinite(scores[i])) throw argError("auc", `scores[${i}]`, scores[i], "must be finite");
  }
  const ranks = midranks(scores);
  let nPos = 0;
  let rankSum = 0;
  for (let i = 0; i < ranks.length; i++) {
    if (outcomes[i]) {
      nPos++;
      rankSum += ranks[i];
    }
  }
  const nNeg = scores.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}
