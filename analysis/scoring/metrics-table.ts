import type { TrajectoryMetrics } from "./trajectory-metrics.js";
import { keptColumn } from "../kept-columns.js";

/** What the analyses ask of the per-trajectory metrics: a Map's reading side. */
export type MetricsLookup = Pick<
  ReadonlyMap<string, TrajectoryMetrics>,
  "get" | "has" | "size" | typeof Symbol.iterator
>;

/**
 * Every deduplicated trajectory's metrics as typed columns over the trajectory slots (its position in
 * the prepared store's order), read back as a {@link TrajectoryMetrics} object on each `get`. An object
 * and a Map entry per trajectory held ≈ 150 bytes each, 460 MiB of heap at 100× the paper;
 * the columns hold 50 bytes. Values round-trip exactly (doubles in Float64Array).
 */
export class MetricsTable implements MetricsLookup {
  private readonly gcpc: Float64Array;
  private readonly gcpcOutcome: Float64Array;
  private readonly coverage: Float64Array;
  private readonly flags: Uint8Array;
  private readonly counts: Float64Array;

  constructor(
    private readonly ids: readonly string[],
    private readonly slots: ReadonlyMap<string, number>,
  ) {
    const n = ids.length;
    this.gcpc = keptColumn(Float64Array, n);
    this.gcpcOutcome = keptColumn(Float64Array, n);
    this.coverage = keptColumn(Float64Array, n);
    this.flags = keptColumn(Uint8Array, n);
    // Sums of weights under schema_version 2 (weighted or graded items), counts otherwise: exact either way.
    this.counts = keptColumn(Float64Array, 3 * n);
  }

  /** Stores the metrics of the trajectory in slot k. */
  setSlot(k: number, m: TrajectoryMetrics): void {
    this.gcpc[k] = m.gcpc;
    this.gcpcOutcome[k] = m.gcpc_outcome;
    this.coverage[k] = m.coverage;
    this.flags[k] = (m.perfect === 1 ? 1 : 0) | (m.zero_evidence ? 2 : 0);
    this.counts[3 * k] = m.yes;
    this.counts[3 * k + 1] = m.decided;
    this.counts[3 * k + 2] = m.items;
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  get(id: string): TrajectoryMetrics | undefined {
    const k = this.slots.get(id);
    return k === undefined ? undefined : this.atSlot(k);
  }

  /** Plain GCPC of slot k, NaN when it is zero-evidence: what RQ3's pairs read, without a metrics object per call. */
  evidencedGcpcAt(k: number): number {
    return this.flags[k] & 2 ? NaN : this.gcpc[k];
  }

  atSlot(k: number): TrajectoryMetrics {
    return {
      gcpc: this.gcpc[k],
      gcpc_outcome: this.gcpcOutcome[k],
      perfect: (this.flags[k] & 1) as 0 | 1,
      coverage: this.coverage[k],
      zero_evidence: (this.flags[k] & 2) !== 0,
      yes: this.counts[3 * k],
      decided: this.counts[3 * k + 1],
      items: this.counts[3 * k + 2],
    };
  }

  /** [trajectory_id, metrics] in slot order (the prepared store's trajectory order), as the Map iterated. */
  *[Symbol.iterator](): MapIterator<[string, TrajectoryMetrics]> {
    for (let k = 0; k < this.ids.length; k++) yield [this.ids[k], this.atSlot(k)];
  }
}
