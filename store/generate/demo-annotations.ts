import type { Label, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { pad, sigmoid } from "./demo-random.js";
import type { DemoPopulation, SbTask } from "./demo-populations.js";

type Rows<K extends keyof Store> = NonNullable<Store[K]>;
const key = (a: string, b: string) => `${a}\u0000${b}`;
const ANNOTATORS = ["ann-1", "ann-2", "ann-3", "ann-4", "ann-5"];
const BASELINES = ["holistic", "generic", "tick", "tick_adapted"];

/** Log-only baseline scorers in [0, 1], with a per-(task, method) leniency bias. */
export function baselineScores(p: DemoPopulation, eligible: Trajectory[]): Rows<"method_scores"> {
  const { M, r } = p;
  const out: Rows<"method_scores"> = [];
  const bias = new Map<string, number>();
  const biasOf = (task: string, method: string) => {
    const k = key(task, method);
    if (!bias.has(k)) bias.set(k, r.normal() * M.baselineTaskBiasSd);
    return bias.get(k)!;
  };
  const nonBinary = p.trajectories.filter((t) => !t.outcome && p.latent.has(t.trajectory_id));
  for (const t of eligible.concat(nonBinary)) {
    const z = p.latent.get(t.trajectory_id)!;
    for (const method of BASELINES) {
      if (r.uniform() > M.baselineCoverage[method]) continue;
      const noise = method === "holistic" ? M.holisticNoiseSd : M.baselineNoiseSd[method];
      const raw = sigmoid(0.7 * z + 1.4 + biasOf(t.task_id, method) + r.normal() * noise);
      // The holistic judge rates 0–10 (rescaled); the checklist baselines ask five questions.
      const score = method === "holistic" ? Math.round(raw * 10) / 10 : Math.round(raw * 5) / 5;
      out.push({ trajectory_id: t.trajectory_id, method, score });
    }
  }
  return out;
}

export interface HumanRows {
  human_ratings: Rows<"human_ratings">;
  human_preferences: Rows<"human_preferences">;
  human_item_labels: Rows<"human_item_labels">;
}

/** Human evaluation: 12 tasks × 8 trajectories, 5 annotators (Q1 ratings, Q2 preferences, Q3 item labels). */
export function humanEvaluation(p: DemoPopulation, eligible: Trajectory[], judged: Map<string, Label>): HumanRows {
  const rows: HumanRows = { human_ratings: [], human_preferences: [], human_item_labels: [] };
  const annotatorBias = ANNOTATORS.map(() => p.r.normal() * 0.35);
  const heTasks = p.M.domains.flatMap((d) => p.sbTasks.filter((t) => t.domain === d).slice(0, 2)).slice(0, 12);
  for (const [ti, task] of heTasks.entries()) humanTask(p, rows, { task, ti, eligible, judged, annotatorBias });
  return rows;
}

function humanTask(
  p: DemoPopulation,
  rows: HumanRows,
  o: { task: SbTask; ti: number; eligible: Trajectory[]; judged: Map<string, Label>; annotatorBias: number[] },
): void {
  const { M, r } = p;
  const pool = o.eligible.filter((t) => t.task_id === o.task.id);
  const shared = new Map(pool.map((t) => [t.trajectory_id, r.normal() * M.humanSharedNoiseSd]));
  const chosen = r
    .shuffled(pool)
    .slice(0, 8)
    .sort((a, b) => (a.trajectory_id < b.trajectory_id ? -1 : 1));
  for (const t of chosen) t.tags = [...(t.tags ?? []), "human-eval"];
  const ti = o.ti;
  const assigned = [ANNOTATORS[ti % 5], ANNOTATORS[(ti + 2) % 5]].concat(ti === 0 ? [ANNOTATORS[(ti + 4) % 5]] : []);
  for (const a of assigned) {
    const bias = o.annotatorBias[ANNOTATORS.indexOf(a)];
    const perceived = new Map(
      chosen.map((t) => [
        t.trajectory_id,
        p.latent.get(t.trajectory_id)! + shared.get(t.trajectory_id)! + r.normal() * M.humanRatingNoiseSd,
      ]),
    );
    for (const t of chosen) {
      const rating = Math.max(
        0,
        Math.min(10, Math.round(10 * sigmoid(0.6 * perceived.get(t.trajectory_id)! + 1.9 + bias))),
      );
      rows.human_ratings.push({ annotator: a, trajectory_id: t.trajectory_id, rating });
    }
    for (let k = 0; k < 4; k++) {
      const [x, y] = r.shuffled(chosen).slice(0, 2);
      if (!x || !y) continue;
      const d = perceived.get(x.trajectory_id)! - perceived.get(y.trajectory_id)! + r.normal() * 0.3;
      const preference = Math.abs(d) < 0.15 ? "tie" : d > 0 ? "a" : "b";
      rows.human_preferences.push({
        annotator: a,
        trajectory_a: x.trajectory_id,
        trajectory_b: y.trajectory_id,
        preference,
      });
    }
  }
  for (const t of chosen.slice(0, 5)) {
    for (const it of o.task.items) {
      const judgedLabel = o.judged.get(key(t.trajectory_id, it.item_id)) ?? "Abstain";
      for (const a of assigned.slice(0, 2)) {
        const label = r.uniform() < 0.97 ? judgedLabel : r.pick(["Yes", "No", "Abstain"] as const);
        rows.human_item_labels.push({ annotator: a, trajectory_id: t.trajectory_id, item_id: it.item_id, label });
      }
    }
  }
}

/** Directed set: 116 trajectories × 3 scoring runs, and a second judge on them plus 300 more (RQ5). */
export function directedRuns(p: DemoPopulation, eligible: Trajectory[], judged: Map<string, Label>): void {
  const { M, r } = p;
  const itemsOf = new Map(p.sbTasks.map((t) => [t.id, t.items]));
  const directed = r
    .shuffled(eligible)
    .slice(0, Math.min(116, eligible.length))
    .sort((a, b) => (a.trajectory_id < b.trajectory_id ? -1 : 1));
  for (const t of directed) {
    t.tags = [...(t.tags ?? []), "directed"];
    for (const run of [2, 3]) {
      for (const it of itemsOf.get(t.task_id)!) {
        const base = judged.get(key(t.trajectory_id, it.item_id)) ?? "Abstain";
        const label: Label =
          r.uniform() < M.directedRerunFlip
            ? r.pick((["Yes", "No", "Abstain"] as const).filter((l) => l !== base))
            : base;
        const evidence = label === "Abstain" ? undefined : "log excerpt (synthetic rerun)";
        p.judgments.push({ trajectory_id: t.trajectory_id, item_id: it.item_id, label, run, evidence });
      }
    }
  }
  const secondJudgeSet = directed.concat(r.shuffled(eligible).slice(0, 300)).filter((t, i, a) => a.indexOf(t) === i);
  for (const t of secondJudgeSet) {
    const opts = { judge: "claude-haiku-4.5", flip: M.secondJudgeFlip };
    p.labelTrajectory(t.trajectory_id, itemsOf.get(t.task_id)!, p.latent.get(t.trajectory_id)!, opts);
  }
}

/** Evidence replacements: 218 Yes items re-judged after replacing the decisive evidence (§4.5). */
export function evidenceReplacements(p: DemoPopulation): Rows<"evidence_replacements"> {
  const { M, r } = p;
  const yes = p.judgments.filter(
    (j) => j.label === "Yes" && !j.judge && (j.run ?? 1) === 1 && !j.trajectory_id.endsWith("-dup"),
  );
  return r
    .shuffled(yes)
    .slice(0, 218)
    .map((j) => {
      const u = r.uniform();
      const { No, Abstain } = M.replacementAfter;
      const after: Label = u < No ? "No" : u < No + Abstain ? "Abstain" : "Yes";
      return { trajectory_id: j.trajectory_id, item_id: j.item_id, before: "Yes" as Label, after };
    });
}

/** Schema audit: 357 stated requirements × 4 schemes. */
export function schemaAudit(p: DemoPopulation): Rows<"schema_audit"> {
  return Object.entries(p.M.schemaCoverage).flatMap(([scheme, share]) =>
    Array.from({ length: 357 }, (_, i) => ({
      scheme,
      requirement_id: `req-${pad(i + 1)}`,
      covered: p.r.uniform() < share,
    })),
  );
}
