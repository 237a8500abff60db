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
  // per (configuration, task) shift of what the log shows, shared by both conditions, unseen by the verifier
  logStyleSd: 0.13,
  cellItemNoiseSd: 1.96, // per (configuration × task, item) persistent offset shared by both conditions
  // how much of the skill's effect on the execution reaches the verified outcome (paper §1: skills can change
  // execution without changing the outcome)
  skillOutcomeCoupling: 0.969,
  skillEffectShare: 0.409, // share of cells where the skill matters a lot (mixture component)
  skillEffectLargeSd: 1.35,
  // Within-pair coupling (demo-populations.ts, pairCoupling): the share of the skill's log effect removed from a
  // curated trajectory, and the log shift of a pair whose outcome changed, m ~ |N(up or down, sd)|, up on
  // FAIL→PASS, down on PASS→FAIL (paper §5, Figure 5: the items move with the outcome).
  skillLogDamping: 0,
  transitionLogShiftUp: 0,
  transitionLogShiftDown: 0,
  transitionLogShiftSd: 0,
  trajectoryNoiseSd: 0.125,
  passThreshold: 0.115,
  hiddenFailureShare: 0.063,
  cellOutcomeShiftSd: 0, // per (configuration, task) shift of the outcome only, shared by both conditions
  // where the transfer benchmarks' FAIL trajectories sit relative to item difficulty
  transferBaseShift: 0.3,
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

export const HARNESSES = ["claude-code", "codex", "gemini-cli", "openhands", "terminus-2", "goose"];
export const MODELS = [
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
export const SOURCES = ["public-archive", "provider-run"];
export const CATEGORIES = ["comprehension", "acquisition", "computation", "construction", "validation"] as const;
export const VERBS = [
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
export const OBJECTS = [
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
