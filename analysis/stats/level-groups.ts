import { argError } from "../errors.js";
import { countingSort, identity } from "./counting-sort.js";
import { levelCodes } from "./level-codes.js";

/**
 * A sample's (score level, cluster) groups: what the clustered AUC (ClusteredAuc), its task-pair form
 * (TaskPairAuc) and the within-task AUC (WithinTaskAuc) are computed from.
 */
export interface LevelGroups {
  /** Each group's cluster, groups in level order and clusters ascending within a level. */
  cluster: Int32Array;
  /** Each group's PASS and FAIL counts. */
  pos: Float64Array;
  neg: Float64Array;
  /** levelEnd[l] = one past the last group of score level l (levels ascending by score). */
  levelEnd: Int32Array;
}

/**
 * Throws, naming `caller`, unless the columns have one length, every score is finite and every cluster an
 * integer in [0, clusters): what grouping them needs (ClusteredAuc's and WithinTaskAuc's inputs).
 */
export function checkColumns(
  caller: string,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<unknown>,
  clusterOf: ArrayLike<number>,
  clusters: number,
): void {
  const n = scores.length;
  if (outcomes.length !== n || clusterOf.length !== n) {
    const lengths = [n, outcomes.length, clusterOf.length];
    throw argError(caller, "lengths", lengths, "scores, outcomes and clusterOf must have equal length");
  }
  for (let i = 0; i < n; i++) {
    // s − s is 0 exactly for finite s; (c | 0) === c for integers in int32 (cheaper than Number.is*).
    const s = scores[i];
    if (s - s !== 0) throw argError(caller, `scores[${i}]`, s, "must be finite");
    const c = clusterOf[i];
    if (!((c | 0) === c && c >= 0 && c < clusters))
      throw argError(caller, `clusterOf[${i}]`, c, `must be an integer in [0, ${clusters})`);
  }
}

/**
 * (score level, cluster) groups in level order, clusters ascending within a level, with their PASS and
 * FAIL counts, and the end of each level's run of groups. Few distinct scores (GCPC's k/n grid): one
 * pass into a dense level × cluster count table; many: a counting sort by cluster, then a stable one by
 * level (O(n + levels + clusters), no comparisons).
 */
export function groupByLevelAndCluster(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<boolean | number>,
  clusterOf: ArrayLike<number>,
  clusters: number,
): LevelGroups {
  const n = scores.length;
  const { level, values } = levelCodes(scores);
  const L = values.length;
  // At most min(n, L·clusters) groups: filled, then trimmed (typed arrays throughout; a typed array made
  // from an array walks its iterator, which cost as much as the grouping).
  const dense = L * clusters <= 4 * n + 1024;
  const most = dense ? Math.min(n, L * clusters) : n;
  const gc = new Int32Array(most);
  const gp = new Float64Array(most);
  const gn = new Float64Array(most);
  const ends = new Int32Array(L);
  let groups = 0;
  if (dense) {
    // One counter pair per (level, cluster) cell, PASS then FAIL: the class picks the slot, no branch on it.
    const counts = new Int32Array(2 * L * clusters);
    for (let i = 0; i < n; i++) counts[2 * (level[i] * clusters + clusterOf[i]) + (outcomes[i] ? 0 : 1)]++;
    for (let l = 0; l < L; l++) {
      for (let c = 0; c < clusters; c++) {
        const cell = 2 * (l * clusters + c);
        if (counts[cell] + counts[cell + 1] === 0) continue;
        gc[groups] = c;
        gp[groups] = counts[cell];
        gn[groups++] = counts[cell + 1];
      }
      ends[l] = groups;
    }
  } else {
    const order = countingSort(countingSort(identity(n), clusterOf, clusters), level, L);
    for (let i = 0; i < n; i++) {
      const idx = order[i];
      const prev = i > 0 ? order[i - 1] : -1;
      const newLevel = i === 0 || level[idx] !== level[prev];
      if (newLevel && i > 0) ends[level[prev]] = groups;
      if (newLevel || clusterOf[idx] !== clusterOf[prev]) gc[groups++] = clusterOf[idx];
      if (outcomes[idx]) gp[groups - 1]++;
      else gn[groups - 1]++;
    }
    if (n > 0) ends[L - 1] = groups;
  }
  if (groups === most) return { cluster: gc, pos: gp, neg: gn, levelEnd: ends };
  return { cluster: gc.slice(0, groups), pos: gp.slice(0, groups), neg: gn.slice(0, groups), levelEnd: ends };
}
