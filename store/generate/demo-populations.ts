import type { Item, Judgment, Label, Task, Trajectory } from "../../analysis/schema/tables.js";
import type { Store } from "../../analysis/schema/store.js";
import { type DemoRandom, pad } from "./demo-random.js";
import { CATEGORIES, HARNESSES, MODELS, OBJECTS, SOURCES, VERBS, type DemoModel } from "./demo-model.js";

export interface SbTask {
  id: string;
  items: Item[];
  difficulty: number;
  skill: number;
  domain: string;
}

interface LabelOptions {
  judge?: string;
  run?: number;
  flip?: number;
  evidence?: number;
  allAbstain?: boolean;
  allNo?: boolean;
  /** The verifier's tests passed on the artifact (the official PASS, or a hidden failure): the log shows them. */
  testsPass?: boolean;
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

/** The archive a configuration's runs come from: public or provider-run, 26 configurations per batch. */
const sourceOf = (c: number) => {
  const archive = SOURCES[Math.floor(c / (HARNESSES.length * MODELS.length)) % SOURCES.length];
  return `${archive}-${1 + Math.floor(c / 26)}`;
};

/**
 * The rows of the synthetic store and the latent state behind them (data/README.md): tasks with
 * frozen checklists, trajectories with a latent progress z, and their item labels. Each stage of
 * the generator is one method; they run in a fixed order because they share one random stream.
 */
export class DemoPopulation {
  readonly tasks: Task[] = [];
  readonly items: Item[] = [];
  readonly trajectories: Trajectory[] = [];
  readonly judgments: Judgment[] = [];
  /** trajectory → z as the execution log shows it (judges, baselines and humans read this). */
  readonly latent = new Map<string, number>();
  readonly sbTasks: SbTask[] = [];
  private readonly itemDifficulty = new Map<string, number>();
  private readonly itemVisibility = new Map<string, number>();
  private readonly cellItemOffset = new Map<string, number>();
  private readonly cellOf = new Map<string, string>();

  constructor(
    readonly M: DemoModel,
    readonly r: DemoRandom,
    /** The within-pair coupling's own stream (runCell): its draws do not move the main stream's. */
    readonly coupling: DemoRandom = r,
    /** The verifier coupling's own stream (runCell, labelTrajectory): its draws leave the main stream's alone. */
    readonly verifier: DemoRandom = r,
  ) {}

  /** A task with its frozen checklist; item difficulty and evidence visibility are drawn per item. */
  makeTask(benchmark: string, taskId: string, domain: string, nItems: number, gateFailure: number): Item[] {
    const { M, r } = this;
    const sentences: string[] = [];
    const tests: string[] = [];
    const taskOffset = r.normal() * M.itemTaskOffsetSd;
    const taskItems: Item[] = [];
    for (let k = 1; k <= nItems; k++) {
      const sentence = `Step ${k}: ${r.pick(VERBS)} ${r.pick(OBJECTS)} (${taskId}/${k}).`;
      sentences.push(sentence);
      const u = r.uniform();
      const route = u < 0.823 ? "assertion" : u < 0.972 ? "generated" : "judge";
      const test = `test_${k}_${r.pick(VERBS)}`;
      if (route === "assertion") tests.push(test);
      const badQuote = r.uniform() < gateFailure;
      taskItems.push({
        task_id: taskId,
        item_id: `c${pad(k, 2)}`,
        text: `The agent must ${sentence.slice(sentence.indexOf(":") + 2, -1)}`,
        quote: badQuote ? sentence.replace("Step", "Stage") : sentence,
        route,
        assertion_ref: route === "assertion" ? test : undefined,
        category: CATEGORIES[Math.floor(r.uniform() * 5)],
      });
      const itemKey = key(taskId, `c${pad(k, 2)}`);
      this.itemDifficulty.set(itemKey, M.itemDifficultyMean + taskOffset + r.normal() * M.itemDifficultySd);
      this.itemVisibility.set(itemKey, r.uniform() < M.evidenceHighShare ? M.evidenceHigh : M.evidenceLow);
    }
    const instruction = `Task ${taskId}. ${sentences.join(" ")}`;
    this.tasks.push({ task_id: taskId, benchmark, domain, instruction, verifier_tests: tests });
    this.items.push(...taskItems);
    return taskItems;
  }

  /** The SkillsBench-like tasks: difficulty and the curated skill's effect per task. */
  makeSkillsbenchTasks(scale: number): void {
    const { M, r } = this;
    const nSb = Math.round(M.skillsbenchTasks * scale);
    for (let t = 0; t < nSb; t++) {
      const id = `sb-${pad(t + 1, 4)}`;
      const domain = M.domains[t % M.domains.length];
      const n = 4 + Math.min(11, Math.max(0, Math.round(3.7 + r.normal() * 2.2)));
      const items = this.makeTask("skillsbench-1.1", id, domain, n, 0);
      const difficulty = r.normal() * M.taskDifficultySd;
      this.sbTasks.push({ id, items, difficulty, skill: M.skillEffectMean + r.normal() * M.skillEffectTaskSd, domain });
    }
  }

  /**
   * Per (configuration × task) cell and item: a persistent offset of how that configuration's logs show
   * the item, shared by both skill conditions (cellItemNoiseSd).
   */
  private offsetOf(cell: string | undefined, item: string): number {
    if (!cell || this.M.cellItemNoiseSd === 0) return 0;
    const k = key(cell, item);
    if (!this.cellItemOffset.has(k)) this.cellItemOffset.set(k, this.r.normal() * this.M.cellItemNoiseSd);
    return this.cellItemOffset.get(k)!;
  }

  /** Item labels of one trajectory from its latent z: Abstain when the evidence is not visible. */
  labelTrajectory(id: string, taskItems: Item[], z: number, opts: LabelOptions = {}): void {
    const { M, r } = this;
    const perItem = M.evidenceHighShare > 0;
    const ev = opts.evidence ?? (perItem ? 1 : r.beta(...M.evidenceBeta));
    for (const it of taskItems) {
      const itemKey = key(it.task_id, it.item_id);
      let label: Label;
      if (opts.allAbstain) label = "Abstain";
      else if (opts.allNo) label = "No";
      else if (r.uniform() > ev * (perItem ? this.itemVisibility.get(itemKey)! : 1)) label = "Abstain";
      else {
        const offset = this.offsetOf(this.cellOf.get(id), it.item_id);
        let satisfied = z + offset + r.normal() * M.itemNoiseSd > this.itemDifficulty.get(itemKey)!;
        if (opts.testsPass && it.route === "assertion" && this.verifier.uniform() < M.passAssertionYes)
          satisfied = true; // the log shows the test that the verifier ran on the artifact passing
        label = satisfied ? "Yes" : "No";
        if (r.uniform() < (opts.flip ?? M.judgeFlip)) label = label === "Yes" ? "No" : "Yes";
      }
      const evidence =
        label === "Abstain"
          ? undefined
          : `log: ${it.item_id} ${label === "Yes" ? "output matches" : "check failed"} (synthetic)`;
      this.judgments.push({
        trajectory_id: id,
        item_id: it.item_id,
        label,
        run: opts.run ?? 1,
        judge: opts.judge,
        evidence,
      });
    }
  }

  /** The SkillsBench-like population: configurations × tasks × conditions; returns the trajectory ids. */
  runConfigurations(scale: number): string[] {
    const { M, r } = this;
    const combos = Array.from({ length: M.combos }, (_, c) => ({
      harness: HARNESSES[c % HARNESSES.length],
      model: MODELS[c % MODELS.length],
      source: sourceOf(c),
      ability: r.normal() * M.modelAbilitySd,
    }));
    const tasksPerCombo = Math.min(this.sbTasks.length, Math.round(M.tasksPerCombo * scale));
    const ids: string[] = [];
    for (const [c, combo] of combos.entries()) {
      const order = r
        .shuffled(this.sbTasks.map((_, i) => i))
        .slice(0, tasksPerCombo)
        .sort((a, b) => a - b);
      for (const [k, ti] of order.entries()) ids.push(...this.runCell(combo, c, this.sbTasks[ti], k));
    }
    return ids;
  }

  /** One (configuration, task) cell: the conditions it ran, one trajectory each. */
  private runCell(
    combo: { harness: string; model: string; source: string; ability: number },
    c: number,
    task: SbTask,
    k: number,
  ) {
    const { M, r } = this;
    const conditions: Trajectory["condition"][] = [];
    const missing = r.uniform() < M.missingSideShare;
    if (!missing || r.uniform() < 0.5) conditions.push("none");
    if (!missing || conditions.length === 0) conditions.push("curated");
    // Every configuration runs the self-generated condition on at least its first task (234 configurations).
    if (r.uniform() < M.selfGeneratedShare || k === 0) conditions.push("self_generated");
    const style = r.normal() * M.logStyleSd;
    const verifierShift = r.normal() * M.cellOutcomeShiftSd; // the environment on this task, as the verifier sees it
    // An artifact problem of this configuration on this task that fails every condition's run, whatever its log
    // shows (drawn from the verifier coupling's stream, so the main stream's draws stay those without it).
    const cellHiddenFailure = M.hiddenFailureCellShare > 0 && this.verifier.uniform() < M.hiddenFailureCellShare;
    const cellSkill =
      task.skill + r.normal() * (r.uniform() < M.skillEffectShare ? M.skillEffectLargeSd : M.skillEffectCellSd);
    const ids: string[] = [];
    let without: "PASS" | "FAIL" | undefined; // the `none` trajectory's outcome, when binary
    for (const condition of conditions) {
      const id = `${task.id}-k${pad(c + 1)}-${condition === "none" ? "n" : condition === "curated" ? "c" : "s"}1`;
      const skill = condition === "curated" ? cellSkill : condition === "self_generated" ? cellSkill * 0.2 : 0;
      const noise = r.normal() * M.trajectoryNoiseSd;
      const z = -task.difficulty + combo.ability + skill * M.skillOutcomeCoupling + noise; // what the verifier judges
      let zLog = -task.difficulty + combo.ability + skill + noise + style; // what the execution log shows
      const nonBinary = r.uniform() < M.nonBinaryShare;
      // The verifier's tests pass on the artifact; a hidden failure (an artifact problem the log does not show)
      // still fails the run. The draws are those of the one expression this was (the && skips the second).
      const testsPass = z + verifierShift + r.normal() * M.outcomeNoiseSd > M.passThreshold;
      const pass = testsPass && !(r.uniform() < M.hiddenFailureShare) && !cellHiddenFailure;
      if (condition === "none" && !nonBinary) without = pass ? "PASS" : "FAIL";
      if (condition === "curated" && !nonBinary && without) zLog += this.pairCoupling(without, pass, skill);
      this.latent.set(id, zLog);
      this.trajectories.push({
        trajectory_id: id,
        task_id: task.id,
        harness: combo.harness,
        model: combo.model,
        source: combo.source,
        condition,
        trial: 1,
        outcome: nonBinary ? undefined : pass ? "PASS" : "FAIL",
        reward: nonBinary ? Math.round(r.uniform() * 80 + 10) / 100 : pass ? 1 : 0,
        log_hash: `h-${id}`,
        tags: [],
      });
      this.cellOf.set(id, key(task.id, String(c)));
      this.labelTrajectory(id, task.items, zLog, {
        allAbstain: r.uniform() < M.zeroEvidenceShare,
        testsPass: !nonBinary && testsPass,
      });
      ids.push(id);
    }
    return ids;
  }

  /**
   * Within-pair coupling of the log to the outcome (data/README.md): the curated trajectory's log latent keeps
   * (1 − skillLogDamping) of the skill's effect, and when adding the skill turned FAIL into PASS it rises by
   * m ~ |N(transitionLogShiftUp, transitionLogShiftSd)|, when it turned PASS into FAIL it falls by
   * m ~ |N(transitionLogShiftDown, transitionLogShiftSd)|, drawn from the coupling's own stream (the runs'
   * other draws, and so the outcomes and the labels without the skill, are those the uncoupled model draws).
   */
  private pairCoupling(without: "PASS" | "FAIL", pass: boolean, skill: number): number {
    const M = this.M;
    const damped = -M.skillLogDamping * skill;
    if ((without === "FAIL") === !pass) return damped; // the outcome did not change
    const mean = pass ? M.transitionLogShiftUp : M.transitionLogShiftDown;
    const m = Math.abs(mean + this.coupling.normal() * M.transitionLogShiftSd);
    return damped + (pass ? m : -m);
  }

  /** Duplicates: a second id for the same execution log (same hash, same labels). */
  addDuplicates(ids: string[]): void {
    const dupSources = ids.filter(() => this.r.uniform() < this.M.duplicateShare);
    const labelsById = new Map<string, Judgment[]>();
    for (const j of this.judgments) {
      const list = labelsById.get(j.trajectory_id) ?? [];
      if (list.length === 0) labelsById.set(j.trajectory_id, list);
      list.push(j);
    }
    const byId = new Map(this.trajectories.map((t) => [t.trajectory_id, t]));
    for (const src of dupSources) {
      const id = `${src}-dup`;
      this.trajectories.push({ ...byId.get(src)!, trajectory_id: id, trial: 2 });
      for (const j of labelsById.get(src)!) this.judgments.push({ ...j, trajectory_id: id });
    }
  }

  /** Idle agents: no substantive execution, every item No (the §3.4 falsification floor). */
  addIdleAgents(): void {
    for (let k = 0; k < 4; k++) {
      const task = this.sbTasks[(k * 7) % this.sbTasks.length];
      const id = `${task.id}-idle${k + 1}`;
      this.trajectories.push({
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
      this.labelTrajectory(id, task.items, -5, { allNo: true });
    }
  }

  /** Binary, non-duplicate, non-idle trajectories with at least one decided item. */
  eligible(): Trajectory[] {
    const usable = this.trajectories.filter(
      (t) => t.outcome && !t.trajectory_id.endsWith("-dup") && !t.tags?.includes("idle") && this.judgments.length > 0,
    );
    const decidedIds = new Set<string>();
    for (const j of this.judgments) if (j.label !== "Abstain") decidedIds.add(j.trajectory_id);
    return usable.filter((t) => decidedIds.has(t.trajectory_id));
  }

  /** Transfer benchmarks: one PASS and one FAIL trajectory per task. */
  addTransferBenchmark(b: {
    benchmark: string;
    prefix: string;
    tasks: number;
    meanItems: number;
    gateFailure: number;
    evidence: number;
    gap: number;
  }): void {
    const { M, r } = this;
    for (let t = 0; t < b.tasks; t++) {
      const id = `${b.prefix}-${pad(t + 1)}`;
      const n = Math.max(2, Math.round(b.meanItems + r.normal() * 1.2));
      const taskItems = this.makeTask(b.benchmark, id, b.benchmark, n, b.gateFailure);
      const base = M.itemDifficultyMean + M.transferBaseShift + r.normal() * 0.8; // FAIL side vs the item difficulties
      for (const outcome of ["PASS", "FAIL"] as const) {
        const tid = `${id}-${outcome === "PASS" ? "p" : "f"}`;
        const z = base + (outcome === "PASS" ? b.gap : 0) + r.normal() * 0.4;
        this.trajectories.push({
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
        this.labelTrajectory(tid, taskItems, z, { evidence: b.evidence, allAbstain: r.uniform() < 0.1 });
      }
    }
  }

  /** Primary judge, first run: (trajectory, item) → label. */
  judgedLabels(): Map<string, Label> {
    const out = new Map<string, Label>();
    for (const j of this.judgments)
      if ((j.run ?? 1) === 1 && !j.judge) out.set(key(j.trajectory_id, j.item_id), j.label as Label);
    return out;
  }
}

export type DemoRows = Pick<Store, "tasks" | "items" | "trajectories" | "judgments">;
