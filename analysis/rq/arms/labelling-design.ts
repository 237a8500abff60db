import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { Xor4096 } from "../../stats/xor4096.js";
import { PLAIN } from "../../scoring/official-outcome.js";
import { methodScoreMaps } from "../method-scores.js";
import type { PreparedStore } from "../prepared.js";
import { taskClusters } from "../common.js";
import type { ArmField, Selector } from "./arm-pairs.js";
import { fieldOf } from "./arm-view.js";
import { judgeCorrectedMean, referenceJudgeOf } from "./judge-corrected.js";

export interface LabellingDesignRow {
  /** Tasks whose trajectories keep their reference labels in each simulated design. */
  labelled_tasks: number;
  simulations: number;
  /** Mean over the simulated designs of the corrected interval's half-width, and of the classical one's. */
  half_width_corrected: number;
  half_width_classical: number;
  lambda: number;
}

export interface LabellingDesign {
  arm: Selector;
  reference_judge: string;
  /** Tasks of the arm that carry reference labels now (the designs draw from these). */
  tasks_with_reference: number;
  rows: LabellingDesignRow[];
  estimator: string;
}

/**
 * "How many tasks must humans label for a CI of ±w?" (issue 47), for one arm, by the judge-corrected estimate's own
 * resampling: for each number m of labelled tasks, `simulations` random sets of m of the tasks that carry reference
 * labels keep their labels (the others lose them), and the mean half-width of the corrected and of the classical
 * (reference-only) interval over those designs is reported. The store must hold reference labels on more tasks than
 * the largest m: the designs are subsets of what was labelled.
 */
export function labellingDesign(
  p: PreparedStore,
  o: { arm: Selector; sizes: number[]; simulations: number; settings: BootstrapSettings },
): LabellingDesign | NotAvailable {
  const reference = referenceJudgeOf(p);
  if (typeof reference !== "string") return reference;
  const gcpc = methodScoreMaps(p).get("gcpc")!;
  const f = (k: number) => gcpc.get(p.trajectories[k].trajectory_id) ?? NaN;
  const selector = Object.entries(o.arm) as [ArmField, string][];
  const slots = p.trajectories.flatMap((t, k) =>
    selector.every(([field, v]) => fieldOf(p, t, field) === v) && Number.isFinite(f(k)) ? [k] : [],
  );
  if (slots.length === 0) return notAvailable("the arm selects no trajectory with a GCPC score");
  const { clusterOf, clusters } = taskClusters(slots.map((k) => p.trajectories[k].task_id));
  const arm = { name: JSON.stringify(o.arm), slots, slotClusters: clusterOf, clusters };
  const labelledTasks = [
    ...new Set(
      slots
        .filter((k) => Number.isFinite(p.scoreAt(k, PLAIN, "exclude", reference)))
        .map((k) => p.trajectories[k].task_id),
    ),
  ].sort();
  const rows: LabellingDesignRow[] = [];
  const rng = new Xor4096(`${o.settings.seed}:labelling-design:${arm.name}`);
  for (const m of o.sizes) {
    if (m < 2 || m >= labelledTasks.length) continue;
    let corrected = 0;
    let classical = 0;
    let lambda = 0;
    let n = 0;
    for (let s = 0; s < o.simulations; s++) {
      const chosen = new Set(sample(labelledTasks, m, () => rng.uniform()));
      const settings = { ...o.settings, seed: o.settings.seed + s };
      const e = judgeCorrectedMean(p, arm, f, reference, settings, { referenceTasks: chosen });
      if (!("estimate" in e)) continue;
      corrected += (e.ci[1] - e.ci[0]) / 2;
      classical += (e.classical.ci[1] - e.classical.ci[0]) / 2;
      lambda += e.lambda;
      n++;
    }
    if (n > 0)
      rows.push({
        labelled_tasks: m,
        simulations: n,
        half_width_corrected: corrected / n,
        half_width_classical: classical / n,
        lambda: lambda / n,
      });
  }
  if (rows.length === 0)
    return notAvailable(`the arm's reference labels cover ${labelledTasks.length} tasks: no size below that was asked`);
  return {
    arm: o.arm,
    reference_judge: reference,
    tasks_with_reference: labelledTasks.length,
    rows,
    estimator:
      "per size m, random sets of m of the arm's reference-labelled tasks keep their labels; the mean half-width of " +
      `the judge-corrected and of the reference-only 95% interval over the designs (${o.settings.resamples} ` +
      `resamples each, seeds ${o.settings.seed}+s)`,
  };
}

/** m of `xs` drawn without replacement (a partial Fisher–Yates shuffle). */
function sample<T>(xs: readonly T[], m: number, random: () => number): T[] {
  const out = [...xs];
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random() * (out.length - i));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.slice(0, m);
}
