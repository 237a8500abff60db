import type { RouteCounts } from "./official-outcome.js";
import { keptColumn } from "../kept-columns.js";

/**
 * Every trajectory's primary-run route counts (official-outcome.ts) as typed columns over the trajectory
 * slots: counted once when the store is prepared, so that scoring a trajectory under any variant without
 * per-test propagation is arithmetic (RQ4 walked every run's labels again for its ten variants,
 * 8 s of the main thread at 100× the paper). Seven doubles a trajectory.
 */
export class RouteCountsTable {
  private readonly counts: Float64Array;

  constructor(readonly size: number) {
    // Sums of weights (and weighted grades) under schema_version 2; plain counts otherwise.
    this.counts = keptColumn(Float64Array, 7 * size);
  }

  set(k: number, c: RouteCounts): void {
    const o = 7 * k;
    this.counts[o] = c.items;
    this.counts[o + 1] = c.assertion;
    this.counts[o + 2] = c.assertionYes;
    this.counts[o + 3] = c.assertionDecided;
    this.counts[o + 4] = c.otherYes;
    this.counts[o + 5] = c.otherDecided;
    this.counts[o + 6] = c.endpoint;
  }

  at(k: number): RouteCounts {
    const o = 7 * k;
    const c = this.counts;
    return {
      items: c[o],
      assertion: c[o + 1],
      assertionYes: c[o + 2],
      assertionDecided: c[o + 3],
      otherYes: c[o + 4],
      otherDecided: c[o + 5],
      endpoint: c[o + 6],
    };
  }
}
