import type { Trajectory } from "../schema/tables.js";
import { keptColumn } from "../kept-columns.js";

/** What the analyses ask of one method's scores: is a trajectory scored, and its score. */
export type ScoreLookup = Pick<ReadonlyMap<string, number>, "get" | "has" | "size">;

/**
 * The slot of every deduplicated trajectory (its position in the prepared store's order), shared by
 * every score column of that store.
 */
export function trajectorySlots(trajectories: readonly Trajectory[]): ReadonlyMap<string, number> {
  // Set one by one: an array of [id, slot] pairs to construct the Map from cost 0.1–0.16 s more at 471,105.
  const slots = new Map<string, number>();
  for (let k = 0; k < trajectories.length; k++) slots.set(trajectories[k].trajectory_id, k);
  return slots;
}

/**
 * One method's score per deduplicated trajectory as typed arrays over the shared trajectory slots,
 * instead of a Map per method (at 100× the paper the six score maps held 10 M entries,
 * ≈ 400 MiB of JavaScript heap; columns hold 9 bytes a trajectory). A score of a trajectory outside
 * the slots (e.g. a dropped duplicate) is ignored, as the maps ignored it.
 */
export class ScoreColumn implements ScoreLookup {
  private readonly values: Float64Array;
  private readonly present: Uint8Array;
  private count = 0;

  constructor(private readonly slots: ReadonlyMap<string, number>) {
    this.values = keptColumn(Float64Array, slots.size);
    this.present = keptColumn(Uint8Array, slots.size);
  }

  /** Sets (or replaces: the last write wins, as Map.set) a trajectory's score; false when it has no slot. */
  set(trajectoryId: string, score: number): boolean {
    const k = this.slots.get(trajectoryId);
    if (k === undefined) return false;
    this.setSlot(k, score);
    return true;
  }

  /** Sets the score of the trajectory in slot k (the last write wins). */
  setSlot(k: number, score: number): void {
    if (this.present[k] === 0) this.count++;
    this.present[k] = 1;
    this.values[k] = score;
  }

  get size(): number {
    return this.count;
  }

  has(trajectoryId: string): boolean {
    const k = this.slots.get(trajectoryId);
    return k !== undefined && this.present[k] === 1;
  }

  /** The score of the trajectory in slot k, if scored. */
  atSlot(k: number): number | undefined {
    return this.present[k] === 1 ? this.values[k] : undefined;
  }

  get(trajectoryId: string): number | undefined {
    const k = this.slots.get(trajectoryId);
    return k !== undefined && this.present[k] === 1 ? this.values[k] : undefined;
  }
}
