/**
 * The trajectories of a store in trajectory_id order, with the log_hash deduplication (paper §4.1) decided,
 * as a store read from disk may carry them (computed in DuckDB while JavaScript reads the other tables,
 *): sorting 2 M id strings and a Set of their hashes took the main thread ≈ 4 s at 100× the paper.
 * Index k describes `store.trajectories[k]`.
 */
export interface TrajectoryOrder {
  /** Position of the trajectory when the trajectories are sorted by trajectory_id in code-point order. */
  rank: Int32Array;
  /** 1 when it has no log_hash or is the first of its log_hash in that order (the one deduplication keeps). */
  kept: Uint8Array;
}

/**
 * The kept trajectories in id order, from an order computed elsewhere: the same list as sorting by id and
 * keeping the first of each log_hash (tested against that).
 */
export function keptInOrder<T>(
  all: readonly T[],
  order: TrajectoryOrder,
): { trajectories: T[]; dropped: number; slotOf: Int32Array } {
  const n = all.length;
  if (order.rank.length !== n || order.kept.length !== n) throw new Error("trajectory order of another store");
  const atRank = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (order.kept[i] === 1) atRank[order.rank[i]] = i;
  const kept: T[] = [];
  // slotOf[i]: where all[i] is among the kept (−1 when dropped), the index of every per-trajectory column.
  const slotOf = new Int32Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    const i = atRank[r];
    if (i < 0) continue;
    slotOf[i] = kept.length;
    kept.push(all[i]);
  }
  return { trajectories: kept, dropped: n - kept.length, slotOf };
}
