import seedrandom from "seedrandom";
import { shuffler } from "d3";
import type { Item, Judgment, Label, Store, Task, Trajectory } from "../../analysis/schema/tables.js";

/**
 * Seeded generator of a synthetic verdict store at the paper's scale
 * (documented in data/README.md). A latent progress logit z per trajectory
 * drives its item labels, official outcome, baseline scores and human
 * ratings, each through its own noise. The analysis figures are computed by
 * the pipeline from these rows; nothing here writes a result.
 */
export interface GenerateOptions {
  seed: number;
  /** Multiplies the number of SkillsBench-like tasks (and so trajectories). */
  scale?: number;
  /** Parameter overrides, for calibration experiments (scripts/calibrate-demo.ts). */
  model?: Partial<DemoModel>;
}

/** Model parameters, in one place so data/README.md can cite them. */
export const MODEL = {
  domains: [
    "data-analysis",
    "scientific-computing",
    "software-engineering",
    "security",
    "media-processing",
    "finance",
    "systems",
    "documents",
  ],
  skillsbenchTasks: 87,
  combos: 78, // harness × model × source configurations (× 3 conditions = 234)
  tasksPerCombo: 29,
  missingSideShare: 0.04, // cells where one condition was not run
  selfGeneratedShare: 0.12,
  taskDifficultySd: 0.624,
  modelAbilitySd: 0.5,
  skillEffectMean: 0.195, // curated skill shift of z, per task mean
  skillEffectTaskSd: 0.35,
  skillEffectCellSd: 0.041,
  logStyleSd: 0.13, // per (configuration, task) shift of what the log shows, shared by both conditions, unseen by the verifier
  cellItemNoiseSd: 1.96, // per (configuration × task, item) persistent offset shared by both conditions
  skillOutcomeCoupling: 0.969, // how much of the skill's effect on the execution reaches the verified outcome (paper §1: skills can change execution without changing the outcome)
  skillEffectShare: 0.409, // share of cells where the skill matters a lot (mixture component)
  skillEffectLargeSd: 1.35,
  trajectoryNoiseSd: 0.125,
  passThreshold: 0.115,
  hiddenFailureShare: 0.063,
  cellOutcomeShiftSd: 0, // per (configuration, task) shift of the outcome only, shared by both conditions
  transferBaseShift: 0.3, // where the transfer benchmarks' FAIL trajectories sit relative to item difficulty // trajectories that reach the threshold but fail on an artifact the log does not show
  /** Outcome noise: the verifier sees the artifact, the log does not reveal all of it. */
  outcomeNoiseSd: 0.2,
  itemDifficultySd: 0.476,
  itemDifficultyMean: -1.5,
  itemNoiseSd: 0.053,
  itemTaskOffsetSd: 0.18, // per-task shift of all item difficulties (checklist easiness, unrelated to passing)
  evidenceHighShare: 0.625, // share of items whose evidence is usually visible in the log
  evidenceHigh: 0.945,
  evidenceLow: 0.033,
  evidenceBeta: [3, 2] as [number, number], // per-trajectory evidence share, used only when evidenceHighShare = 0
  judgeFlip: 0.018,
  holisticNoiseSd: 1.288,
  baselineTaskBiasSd: 1.392, // per-(task, method) bias of the log-only baselines: a judge's task-specific leniency
  baselineNoiseSd: { generic: 1.95, tick: 2.2, tick_adapted: 2.0 } as Record<string, number>,
  baselineCoverage: { holistic: 0.93, generic: 0.82, tick: 0.7, tick_adapted: 0.7 } as Record<string, number>,
  nonBinaryShare: 0.03,
  duplicateShare: 0.03,
  zeroEvidenceShare: 0.015,
  humanRatingNoiseSd: 0.8,
  humanSharedNoiseSd: 1.036, // what the log shows all annotators alike
  directedRerunFlip: 0.043,
  secondJudgeFlip: 0.156,
  replacementAfter: { No: 0.735, Abstain: 0.046, Yes: 0.219 },
  schemaCoverage: { real: 0.994, reduced: 0.796, irrelevant: 0, permuted: 0.987 } as Record<string, number>,
};

const HARNESSES = ["claude-code", "codex", "gemini-cli", "openhands", "terminus-2", "goose"];
const MODELS = [
  "opus-4.5",
  "sonnet-4.5",
  "haiku-4.5",
  "gpt-5.2",
  "gpt-5-mini",
  "gemini-3-pro",
  "gemini-3-flash",
  "kimi-k2",
  "glm-4.7",
  "minimax-m2.1",
  "deepseek-v3.2",
  "grok-4",
  "qwen3-coder",
];
const SOURCES = ["public-archive", "provider-run"];
const CATEGORIES = ["comprehension", "acquisition", "computation", "construction", "validation"] as const;
const VERBS = [
  "read",
  "parse",
  "compute",
  "write",
  "validate",
  "report",
  "load",
  "convert",
  "plot",
  "summarise",
  "check",
  "save",
];
const OBJECTS = [
  "the input CSV",
  "the config file",
  "the totals table",
  "the output JSON",
  "the unit tests",
  "the log summary",
  "the pivot table",
  "the index",
  "the figure",
  "the schema",
];

export type DemoModel = typeof MODEL;

export function generateDemoStore(options: GenerateOptions): Store {
  const M: DemoModel = { ...MODEL, ...options.model };
  const rng = seedrandom(`gcpc-demo:${options.seed}`);
  const scale = options.scale ?? 1;
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
  // Fisher–Yates with our generator (d3.shuffler): a comparator that returns random signs is biased
  // and depends on the engine's sort algorithm, which would break seed reproducibility across engines.
  const shuffle = shuffler(rng);
  const shuffled = <T>(xs: readonly T[]): T[] => shuffle(xs.slice());
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  const beta = (a: number, b: number) => {
    // via order statistics of uniforms for integer a, b
    const u = Array.from({ length: a + b - 1 }, rng).sort((x, y) => x - y);
    return u[a - 1];
  };
  const pad = (n: number, w = 3) => String(n).padStart(w, "0");

  const tasks: Task[] = [],
    items: Item[] = [],
    trajectories: Trajectory[] = [],
    judgments: Judgment[] = [];
  const itemDifficulty = new Map<string, number>();
  const latent = new Map<string, number>(); // trajectory → z

  // ---------- tasks and frozen checklists ----------
  const itemVisibility = new Map<string, number>();
  const makeTask = (benchmark: string, taskId: string, domain: string, nItems: number, gateFailure: number) => {
    const sentences: string[] = [],
      tests: string[] = [];
    const taskOffset = normal() * M.itemTaskOffsetSd;
    const taskItems: Item[] = [];
    for (let k = 1; k <= nItems; k++) {
      const sentence = `Step ${k}: ${pick(VERBS)} ${pick(OBJECTS)} (${taskId}/${k}).`;
      sentences.push(sentence);
      const u = rng();
      const route = u < 0.823 ? "assertion" : u < 0.972 ? "generated" : "judge";
      const test = `test_${k}_${pick(VERBS)}`;
      if (route === "assertion") tests.push(test);
      const badQuote = rng() < gateFailure;
      taskItems.push({
        task_id: taskId,
        item_id: `c${pad(k, 2)}`,
        text: `The agent must ${sentence.slice(sentence.indexOf(":") + 2, -1)}`,
        quote: badQuote ? sentence.replace("Step", "Stage") : sentence,
        route,
        assertion_ref: route === "assertion" ? test : undefined,
        category: CATEGORIES[Math.floor(rng() * 5)],
      });
      itemDifficulty.set(
        `${taskId}\u0000c${pad(k, 2)}`,
        M.itemDifficultyMean + taskOffset + normal() * M.itemDifficultySd,
      );
      itemVisibility.set(`${taskId}\u0000c${pad(k, 2)}`, rng() < M.evidenceHighShare ? M.evidenceHigh : M.evidenceLow);
    }
    tasks.push({
      task_id: taskId,
      benchmark,
      domain,
      instruction: `Task ${taskId}. ${sentences.join(" ")}`,
      verifier_tests: tests,
    });
    items.push(...taskItems);
    return taskItems;
  };

  const nSb = Math.round(M.skillsbenchTasks * scale);
  const sbTasks: { id: string; items: Item[]; difficulty: number; skill: number; domain: string }[] = [];
  for (let t = 0; t < nSb; t++) {
    const id = `sb-${pad(t + 1, 4)}`;
    const domain = M.domains[t % M.domains.length];
    const n = 4 + Math.min(11, Math.max(0, Math.round(3.7 + normal() * 2.2)));
    sbTasks.push({
      id,
      items: makeTask("skillsbench-1.1", id, domain, n, 0),
      difficulty: normal() * M.taskDifficultySd,
      skill: M.skillEffectMean + normal() * M.skillEffectTaskSd,
      domain,
    });
  }

  // ---------- labels from latent progress ----------
  // Per (configuration × task) cell and item: a persistent offset of how that configuration's logs show the item,
  // shared by both skill conditions (cellItemNoiseSd). Trajectories remember their cell for later re-labelling.
  const cellItemOffset = new Map<string, number>();
  const cellOf = new Map<string, string>();
  const offsetOf = (cell: string | undefined, item: string) => {
    if (!cell || M.cellItemNoiseSd === 0) return 0;
    const k = `${cell}\u0000${item}`;
    if (!cellItemOffset.has(k)) cellItemOffset.set(k, normal() * M.cellItemNoiseSd);
    return cellItemOffset.get(k)!;
  };
  const labelTrajectory = (
    id: string,
    taskItems: Item[],
    z: number,
    opts: {
      judge?: string;
      run?: number;
      flip?: number;
      evidence?: number;
      allAbstain?: boolean;
      allNo?: boolean;
    } = {},
  ) => {
    const perItem = M.evidenceHighShare > 0;
    const ev = opts.evidence ?? (perItem ? 1 : beta(...M.evidenceBeta));
    for (const it of taskItems) {
      let label: Label;
      if (opts.allAbstain) label = "Abstain";
      else if (opts.allNo) label = "No";
      else if (rng() > ev * (perItem ? itemVisibility.get(`${it.task_id}\u0000${it.item_id}`)! : 1)) label = "Abstain";
      else {
        const satisfied =
          z + offsetOf(cellOf.get(id), it.item_id) + normal() * M.itemNoiseSd >
          itemDifficulty.get(`${it.task_id}\u0000${it.item_id}`)!;
        label = satisfied ? "Yes" : "No";
        if (rng() < (opts.flip ?? M.judgeFlip)) label = label === "Yes" ? "No" : "Yes";
      }
      judgments.push({
        trajectory_id: id,
        item_id: it.item_id,
        label,
        run: opts.run ?? 1,
        judge: opts.judge,
        evidence:
          label === "Abstain"
            ? undefined
            : `log: ${it.item_id} ${label === "Yes" ? "output matches" : "check failed"} (synthetic)`,
      });
    }
  };

  // ---------- SkillsBench-like population ----------
  const combos = Array.from({ length: M.combos }, (_, c) => ({
    harness: HARNESSES[c % HARNESSES.length],
    model: MODELS[c % MODELS.length],
    source: `${SOURCES[Math.floor(c / (HARNESSES.length * MODELS.length)) % SOURCES.length]}-${1 + Math.floor(c / 26)}`,
    ability: normal() * M.modelAbilitySd,
  }));
  const tasksPerCombo = Math.min(nSb, Math.round(M.tasksPerCombo * scale));
  const sbIds: string[] = [];
  combos.forEach((combo, c) => {
    const order = shuffled(sbTasks.map((_, i) => i))
      .slice(0, tasksPerCombo)
      .sort((a, b) => a - b);
    order.forEach((ti, k) => {
      const task = sbTasks[ti];
      const conditions: Trajectory["condition"][] = [];
      const missing = rng() < M.missingSideShare;
      if (!missing || rng() < 0.5) conditions.push("none");
      if (!missing || conditions.length === 0) conditions.push("curated");
      // Every configuration runs the self-generated condition on at least its first task (234 configurations).
      if (rng() < M.selfGeneratedShare || k === 0) conditions.push("self_generated");
      const style = normal() * M.logStyleSd;
      const verifierShift = normal() * M.cellOutcomeShiftSd; // this configuration's environment on this task, as the verifier sees it
      const cellSkill =
        task.skill + normal() * (rng() < M.skillEffectShare ? M.skillEffectLargeSd : M.skillEffectCellSd);
      for (const condition of conditions) {
        const id = `${task.id}-k${pad(c + 1)}-${condition === "none" ? "n" : condition === "curated" ? "c" : "s"}1`;
        const skill = condition === "curated" ? cellSkill : condition === "self_generated" ? cellSkill * 0.2 : 0;
        const noise = normal() * M.trajectoryNoiseSd;
        const z = -task.difficulty + combo.ability + skill * M.skillOutcomeCoupling + noise; // what the verifier judges
        const zLog = -task.difficulty + combo.ability + skill + noise + style; // what the execution log shows (judges, baselines, humans read this)
        latent.set(id, zLog);
        const nonBinary = rng() < M.nonBinaryShare;
        const pass =
          z + verifierShift + normal() * M.outcomeNoiseSd > M.passThreshold && !(rng() < M.hiddenFailureShare);
        trajectories.push({
          trajectory_id: id,
          task_id: task.id,
          harness: combo.harness,
          model: combo.model,
          source: combo.source,
          condition,
          trial: 1,
          outcome: nonBinary ? undefined : pass ? "PASS" : "FAIL",
          reward: nonBinary ? Math.round(rng() * 80 + 10) / 100 : pass ? 1 : 0,
          log_hash: `h-${id}`,
          tags: [],
        });
        cellOf.set(id, `${task.id}\u0000${c}`);
        labelTrajectory(id, task.items, zLog, { allAbstain: rng() < M.zeroEvidenceShare });
        sbIds.push(id);
      }
    });
  });
  // Duplicates: a second id for the same execution log (same hash, same labels).
  const dupSources = sbIds.filter(() => rng() < M.duplicateShare);
  const labelsById = new Map<string, Judgment[]>();
  for (const j of judgments) {
    let l = labelsById.get(j.trajectory_id);
    if (!l) labelsById.set(j.trajectory_id, (l = []));
    l.push(j);
  }
  const byId = new Map(trajectories.map((t) => [t.trajectory_id, t]));
  for (const src of dupSources) {
    const t = byId.get(src)!;
    const id = `${src}-dup`;
    trajectories.push({ ...t, trajectory_id: id, trial: 2 });
    for (const j of labelsById.get(src)!) judgments.push({ ...j, trajectory_id: id });
  }
  // Idle agents: no substantive execution, every item No.
  for (let k = 0; k < 4; k++) {
    const task = sbTasks[(k * 7) % nSb];
    const id = `${task.id}-idle${k + 1}`;
    trajectories.push({
      trajectory_id: id,
      task_id: task.id,
      harness: "idle-agent",
      model: "none",
      source: "falsification",
      condition: "none",
      trial: 1,
      outcome: "FAIL",
      reward: 0,
      log_hash: `h-${id}`,
      tags: ["idle"],
    });
    labelTrajectory(id, task.items, -5, { allNo: true });
  }

  const usable = trajectories.filter(
    (t) => t.outcome && !t.trajectory_id.endsWith("-dup") && !t.tags?.includes("idle") && judgments.length > 0,
  );
  const taskItemsOf = new Map(sbTasks.map((t) => [t.id, t.items]));
  const decidedIds = new Set<string>();
  for (const j of judgments) if (j.label !== "Abstain") decidedIds.add(j.trajectory_id);
  const eligible = usable.filter((t) => decidedIds.has(t.trajectory_id));

  // ---------- baseline scorers (log-only, [0, 1]) ----------
  const method_scores: Store["method_scores"] = [];
  const baselineBias = new Map<string, number>();
  const biasOf = (task: string, method: string) => {
    const k = `${task}\u0000${method}`;
    if (!baselineBias.has(k)) baselineBias.set(k, normal() * M.baselineTaskBiasSd);
    return baselineBias.get(k)!;
  };
  for (const t of eligible.concat(trajectories.filter((t) => !t.outcome && latent.has(t.trajectory_id)))) {
    const z = latent.get(t.trajectory_id)!;
    for (const method of ["holistic", "generic", "tick", "tick_adapted"]) {
      if (rng() > M.baselineCoverage[method]) continue;
      const noise = method === "holistic" ? M.holisticNoiseSd : M.baselineNoiseSd[method];
      const raw = sigmoid(0.7 * z + 1.4 + biasOf(t.task_id, method) + normal() * noise);
      const score = method === "holistic" ? Math.round(raw * 10) / 10 : Math.round(raw * 5) / 5; // 0–10 rescaled; five-question checklists
      method_scores.push({ trajectory_id: t.trajectory_id, method, score });
    }
  }

  // ---------- human evaluation: 12 tasks × 8 trajectories, 5 annotators ----------
  const human_ratings: NonNullable<Store["human_ratings"]> = [],
    human_preferences: NonNullable<Store["human_preferences"]> = [],
    human_item_labels: NonNullable<Store["human_item_labels"]> = [];
  const annotators = ["ann-1", "ann-2", "ann-3", "ann-4", "ann-5"];
  const annotatorBias = annotators.map(() => normal() * 0.35);
  const heTasks = M.domains.flatMap((d) => sbTasks.filter((t) => t.domain === d).slice(0, 2)).slice(0, 12);
  const judgedLabel = new Map<string, Label>();
  for (const j of judgments)
    if ((j.run ?? 1) === 1 && !j.judge) judgedLabel.set(`${j.trajectory_id}\u0000${j.item_id}`, j.label);
  heTasks.forEach((task, ti) => {
    const pool = eligible.filter((t) => t.task_id === task.id);
    const shared = new Map(pool.map((t) => [t.trajectory_id, normal() * M.humanSharedNoiseSd]));
    const chosen = shuffled(pool)
      .slice(0, 8)
      .sort((a, b) => (a.trajectory_id < b.trajectory_id ? -1 : 1));
    for (const t of chosen) t.tags = [...(t.tags ?? []), "human-eval"];
    const assigned = [annotators[ti % 5], annotators[(ti + 2) % 5]].concat(ti === 0 ? [annotators[(ti + 4) % 5]] : []);
    for (const a of assigned) {
      const bias = annotatorBias[annotators.indexOf(a)];
      const perceived = new Map(
        chosen.map((t) => [
          t.trajectory_id,
          latent.get(t.trajectory_id)! + shared.get(t.trajectory_id)! + normal() * M.humanRatingNoiseSd,
        ]),
      );
      for (const t of chosen) {
        human_ratings.push({
          annotator: a,
          trajectory_id: t.trajectory_id,
          rating: Math.max(
            0,
            Math.min(10, Math.round(10 * sigmoid(0.6 * perceived.get(t.trajectory_id)! + 1.9 + bias))),
          ),
        });
      }
      for (let k = 0; k < 4; k++) {
        const [x, y] = shuffled(chosen).slice(0, 2);
        if (!x || !y) continue;
        const d = perceived.get(x.trajectory_id)! - perceived.get(y.trajectory_id)! + normal() * 0.3;
        human_preferences.push({
          annotator: a,
          trajectory_a: x.trajectory_id,
          trajectory_b: y.trajectory_id,
          preference: Math.abs(d) < 0.15 ? "tie" : d > 0 ? "a" : "b",
        });
      }
    }
    for (const t of chosen.slice(0, 5)) {
      for (const it of taskItemsOf.get(task.id)!) {
        const judged = judgedLabel.get(`${t.trajectory_id}\u0000${it.item_id}`) ?? "Abstain";
        for (const a of assigned.slice(0, 2))
          human_item_labels.push({
            annotator: a,
            trajectory_id: t.trajectory_id,
            item_id: it.item_id,
            label: rng() < 0.97 ? judged : pick(["Yes", "No", "Abstain"] as const),
          });
      }
    }
  });

  // ---------- directed set: 116 trajectories × 3 scoring runs; a second judge ----------
  const directed = shuffled(eligible)
    .slice(0, Math.min(116, eligible.length))
    .sort((a, b) => (a.trajectory_id < b.trajectory_id ? -1 : 1));
  for (const t of directed) {
    t.tags = [...(t.tags ?? []), "directed"];
    for (const run of [2, 3]) {
      for (const it of taskItemsOf.get(t.task_id)!) {
        const base = judgedLabel.get(`${t.trajectory_id}\u0000${it.item_id}`) ?? "Abstain";
        const label: Label =
          rng() < M.directedRerunFlip ? pick((["Yes", "No", "Abstain"] as const).filter((l) => l !== base)) : base;
        judgments.push({
          trajectory_id: t.trajectory_id,
          item_id: it.item_id,
          label,
          run,
          evidence: label === "Abstain" ? undefined : "log excerpt (synthetic rerun)",
        });
      }
    }
  }
  const secondJudgeSet = directed.concat(shuffled(eligible).slice(0, 300)).filter((t, i, a) => a.indexOf(t) === i);
  for (const t of secondJudgeSet)
    labelTrajectory(t.trajectory_id, taskItemsOf.get(t.task_id)!, latent.get(t.trajectory_id)!, {
      judge: "claude-haiku-4.5",
      flip: M.secondJudgeFlip,
    });

  // ---------- evidence replacements (218 Yes items re-judged after replacing decisive evidence) ----------
  const yesJudgments = judgments.filter(
    (j) => j.label === "Yes" && !j.judge && (j.run ?? 1) === 1 && !j.trajectory_id.endsWith("-dup"),
  );
  const evidence_replacements = shuffled(yesJudgments)
    .slice(0, 218)
    .map((j) => {
      const u = rng();
      const after: Label =
        u < M.replacementAfter.No ? "No" : u < M.replacementAfter.No + M.replacementAfter.Abstain ? "Abstain" : "Yes";
      return { trajectory_id: j.trajectory_id, item_id: j.item_id, before: "Yes" as Label, after };
    });

  // ---------- schema audit: 357 stated requirements × 4 schemes ----------
  const schema_audit = Object.entries(M.schemaCoverage).flatMap(([scheme, p]) =>
    Array.from({ length: 357 }, (_, r) => ({ scheme, requirement_id: `req-${pad(r + 1)}`, covered: rng() < p })),
  );

  // ---------- transfer benchmarks: one PASS and one FAIL trajectory per task ----------
  const transferBench = (
    benchmark: string,
    prefix: string,
    nTasks: number,
    meanItems: number,
    gateFailure: number,
    evidence: number,
    gap: number,
  ) => {
    for (let t = 0; t < nTasks; t++) {
      const id = `${prefix}-${pad(t + 1)}`;
      const n = Math.max(2, Math.round(meanItems + normal() * 1.2));
      const taskItems = makeTask(benchmark, id, benchmark, n, gateFailure);
      const base = M.itemDifficultyMean + M.transferBaseShift + normal() * 0.8; // FAIL side relative to the item difficulties
      for (const outcome of ["PASS", "FAIL"] as const) {
        const tid = `${id}-${outcome === "PASS" ? "p" : "f"}`;
        const z = base + (outcome === "PASS" ? gap : 0) + normal() * 0.4;
        trajectories.push({
          trajectory_id: tid,
          task_id: id,
          harness: "terminus-2",
          model: "opus-4.5",
          source: "transfer",
          condition: "none",
          trial: 1,
          outcome,
          reward: outcome === "PASS" ? 1 : 0,
          log_hash: `h-${tid}`,
          tags: ["transfer"],
        });
        labelTrajectory(tid, taskItems, z, { evidence, allAbstain: rng() < 0.1 });
      }
    }
  };
  transferBench("terminal-bench-2.0", "tb", 86, 6.8, 0.012, 0.8, 1.6);
  transferBench("swe-bench-verified", "swe", 100, 3.4, 0.051, 0.8, 0.5);

  return {
    manifest: {
      name: `gcpc-demo (synthetic, seed ${options.seed}${scale !== 1 ? `, scale ${scale}` : ""})`,
      description:
        "SYNTHETIC demo store generated by `gcpc generate` from a latent-progress model (data/README.md). Not real evaluation data.",
      primary_judge: "gpt-5.4-mini",
      seed: options.seed,
      synthetic: true,
    },
    tasks,
    items,
    trajectories,
    judgments,
    method_scores,
    human_ratings,
    human_preferences,
    human_item_labels,
    evidence_replacements,
    schema_audit,
  };
}
