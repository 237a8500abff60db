import type { Trajectory } from "../../schema/tables.js";
import type { ArmField, ArmView } from "./arm-pairs.js";
import { isBinary, type PreparedStore } from "../prepared.js";

/** A trajectory's value of a descriptive field (benchmark and domain through its task). */
export function fieldOf(p: PreparedStore, t: Trajectory, field: ArmField): string | null {
  if (field === "benchmark") return p.tasks.get(t.task_id)?.benchmark ?? null;
  if (field === "domain") return p.tasks.get(t.task_id)?.domain ?? null;
  return (t[field] as string | null | undefined) ?? null;
}

/** The prepared store's binary trajectories as the arm comparison reads them (no object per trajectory). */
export function preparedArmView(p: PreparedStore): ArmView {
  const slots: number[] = [];
  for (const [k, t] of p.trajectories.entries()) if (isBinary(t)) slots.push(k);
  return {
    slots,
    id: (k) => p.trajectories[k].trajectory_id,
    task: (k) => p.trajectories[k].task_id,
    column: (f) => {
      // A reader per field with the property written out: a loop over a million slots then makes no
      // field-name dispatch (fieldOf's); any other field reads through fieldOf.
      const ts = p.trajectories;
      if (f === "harness") return (k) => ts[k].harness;
      if (f === "model") return (k) => ts[k].model;
      if (f === "source") return (k) => ts[k].source ?? null;
      if (f === "condition") return (k) => ts[k].condition ?? null;
      return (k) => fieldOf(p, ts[k], f);
    },
    trial: (k) => p.trajectories[k].trial ?? null,
  };
}
