import { argError } from "../errors.js";
import { quantileSorted } from "./quantile.js";

export interface JointRankSets {
  /** Per arm, [best, worst] rank (1 = highest value) that holds for all arms at once with the stated level. */
  sets: [number, number][];
  /** The bootstrap critical value c: the level-quantile of max over pairs of |Δ*_jk − Δ_jk| / SE_jk. */
  critical: number;
  /** Pairs whose simultaneous CI Δ_jk ± c·SE_jk excludes 0 (unordered pairs). */
  separated: number;
  method: string;
}

/**
 * Simultaneous confidence sets for the ranks of all arms (Mogstad, Romano, Shaikh & Wilhelm 2024, "Inference
 * for Ranks with Applications to Mobility across Neighbourhoods and Academic Achievement across Countries",
 * Review of Economic Studies 91(1), §3: the "all ranks" sets from simultaneous CIs for every pairwise
 * difference). Δ_jk = θ_j − θ_k; SE_jk is the bootstrap standard deviation of Δ*_jk; c is the level-quantile
 * (type-7) over draws of max_{j<k} |Δ*_jk − Δ_jk| / SE_jk (the studentized max-|t| bootstrap, their
 * Algorithm 3.1 with the symmetric two-sided statistic). Arm k is declared above j when Δ_kj − c·SE_kj > 0;
 * j's set is [1 + #{k above j}, p − #{k below j}]. With probability ≥ level (asymptotically) every arm's true
 * rank, 1 + #{k: θ_k > θ_j}, lies in its set at once. A pair with SE 0 (every draw the same difference) is
 * separated when its Δ is not 0 and left out of the maximum.
 *
 * `draws[j][r]` is arm j's value on draw r (the same task draws for every arm).
 */
export function jointRankSets(
  estimates: readonly number[],
  draws: readonly Float64Array[],
  level: number,
): JointRankSets {
  const p = estimates.length;
  if (draws.length !== p) throw argError("jointRankSets", "draws", draws.length, `must hold ${p} arms`);
  const B = p > 0 ? draws[0].length : 0;
  if (draws.some((d) => d.length !== B)) throw argError("jointRankSets", "draws", "ragged", "must be equally long");
  if (!(level > 0 && level < 1)) throw argError("jointRankSets", "level", level, "must be in (0, 1)");
  const pairs: { j: number; k: number; delta: number; se: number }[] = [];
  for (let j = 0; j < p; j++)
    for (let k = j + 1; k < p; k++) {
      const delta = estimates[j] - estimates[k];
      let mean = 0;
      for (let r = 0; r < B; r++) mean += draws[j][r] - draws[k][r];
      mean /= B;
      let ss = 0;
      for (let r = 0; r < B; r++) ss += (draws[j][r] - draws[k][r] - mean) ** 2;
      pairs.push({ j, k, delta, se: B > 1 ? Math.sqrt(ss / (B - 1)) : 0 });
    }
  const maxT = new Float64Array(B);
  for (let r = 0; r < B; r++) {
    let m = 0;
    for (const { j, k, delta, se } of pairs)
      if (se > 0) m = Math.max(m, Math.abs(draws[j][r] - draws[k][r] - delta) / se);
    maxT[r] = m;
  }
  maxT.sort();
  const critical = B > 0 ? quantileSorted(maxT, level) : NaN;
  const above = new Array<number>(p).fill(0);
  const below = new Array<number>(p).fill(0);
  let separated = 0;
  for (const { j, k, delta, se } of pairs) {
    const sign = se > 0 ? (delta - critical * se > 0 ? 1 : delta + critical * se < 0 ? -1 : 0) : Math.sign(delta);
    if (sign === 0) continue;
    separated++;
    // sign 1: j above k.
    if (sign > 0) {
      above[k]++;
      below[j]++;
    } else {
      above[j]++;
      below[k]++;
    }
  }
  return {
    sets: estimates.map((_, j) => [1 + above[j], p - below[j]]),
    critical,
    separated,
    method:
      `simultaneous rank sets (Mogstad, Romano, Shaikh & Wilhelm 2024): every pairwise Δ ± c·SE with c the ` +
      `${level} quantile of the bootstrap max-|t| over all ${pairs.length} pairs; hold for all arms at once`,
  };
}
