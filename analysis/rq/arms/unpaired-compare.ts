import type { BootstrapSettings } from "../../estimates/bootstrap-interval.js";
import { seedFor } from "../../estimates/bootstrap-interval.js";
import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { twoSampleDelta, type TwoSampleDelta } from "../../stats/two-sample-bootstrap.js";
import type { Selector } from "./arm-pairs.js";
import type { ArmSummary } from "./arm-summary.js";

/** What the unpaired comparison reads of an arm table's row (arm-table.ts, ArmRow). */
interface ArmRow {
  task: string;
  outcome: "PASS" | "FAIL" | null;
  score: number | null;
}

/** What it reads of the arm table (arm-table.ts, ArmTable). */
interface ArmTable {
  method: string;
  rows: readonly ArmRow[];
}

/** `gcpc compare` when no unit of one arm matches one of the other (issue 45.5): each arm over its own tasks. */
export interface UnpairedCompareResult {
  /** Always true: the figures compare different tasks, not matched units ("unpaired" in every format). */
  unpaired: true;
  method: string;
  caveats: string[];
  a: ArmSummary;
  b: ArmSummary;
  where: Selector;
  /** Tasks both arms ran (none, or some whose other fields differ so no unit matches). */
  common_tasks: number;
  pass_rate_delta: (TwoSampleDelta & { estimator: string }) | NotAvailable;
  score_delta: (TwoSampleDelta & { method: string; estimator: string }) | NotAvailable;
  /** --judge-corrected on arms with no matched unit: why there is no corrected Δ. */
  corrected?: NotAvailable;
}

const ESTIMATOR = (what: string) =>
  `${what}(b) − ${what}(a), each over its own arm's trajectories; two-sample task-clustered percentile bootstrap ` +
  "(each arm's tasks resampled from its own), unpaired";

/** Per task of one side: the sum of `value` over its rows and their number (rows with no value left out). */
function sideSums(rows: readonly ArmRow[], slots: number[], value: (r: ArmRow) => number | null) {
  const tasks = new Map<string, [number, number]>();
  for (const k of slots) {
    const v = value(rows[k]);
    if (v === null) continue;
    const t = tasks.get(rows[k].task) ?? [0, 0];
    t[0] += v;
    t[1]++;
    tasks.set(rows[k].task, t);
  }
  const cells = [...tasks.values()];
  return { sum: Float64Array.from(cells, (c) => c[0]), count: Float64Array.from(cells, (c) => c[1]) };
}

/** The unpaired comparison of two arms' sides (`sides`: their rows in the arm table). */
export function unpairedCompare(
  table: ArmTable,
  sides: { a: number[]; b: number[] },
  summaries: { a: ArmSummary; b: ArmSummary },
  o: { where?: Selector; settings: BootstrapSettings; figure: string },
): UnpairedCompareResult {
  const rows = table.rows;
  const tasksOf = (slots: number[]) => new Set(slots.map((k) => rows[k].task));
  const ta = tasksOf(sides.a);
  const common = [...tasksOf(sides.b)].filter((t) => ta.has(t)).length;
  const draw = { resamples: o.settings.resamples, level: o.settings.level };
  const pass = (r: ArmRow) => (r.outcome === null ? null : r.outcome === "PASS" ? 1 : 0);
  const passA = sideSums(rows, sides.a, pass);
  const passB = sideSums(rows, sides.b, pass);
  const passDelta =
    passA.sum.length && passB.sum.length
      ? {
          ...twoSampleDelta(passA, passB, { ...draw, seed: seedFor(o.settings, `${o.figure}:unpaired:pass_rate`) }),
          estimator: ESTIMATOR("pass rate"),
        }
      : notAvailable("no binary outcome (PASS/FAIL) on both sides: the pass rate needs one");
  const scoreA = sideSums(rows, sides.a, (r) => r.score);
  const scoreB = sideSums(rows, sides.b, (r) => r.score);
  const scoreDelta =
    scoreA.sum.length && scoreB.sum.length
      ? {
          ...twoSampleDelta(scoreA, scoreB, { ...draw, seed: seedFor(o.settings, `${o.figure}:unpaired:score`) }),
          method: table.method,
          estimator: ESTIMATOR(`mean ${table.method}`),
        }
      : notAvailable(`an arm has no trajectory with a ${table.method} score`);
  const caveats = [
    common === 0
      ? "unpaired: the arms share no task, so nothing is matched; each arm is measured on its own tasks and the Δ " +
        "mixes the arms' difference with their tasks' difficulty"
      : `unpaired: the arms share ${common} task(s) but no unit (their other fields differ); each arm is measured ` +
        "on its own tasks and the Δ mixes the arms' difference with their tasks' difficulty",
  ];
  return {
    unpaired: true,
    method: table.method,
    caveats,
    a: summaries.a,
    b: summaries.b,
    where: o.where ?? {},
    common_tasks: common,
    pass_rate_delta: passDelta,
    score_delta: scoreDelta,
  };
}
