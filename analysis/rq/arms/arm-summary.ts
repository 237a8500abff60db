import type { Selector } from "./arm-pairs.js";

/** One side of a comparison of arms: its selector and what it holds, over all of its runs (matched or not). */
export interface ArmSummary {
  selector: Selector;
  trajectories: number;
  tasks: number;
  pass_rate: number | null;
}
