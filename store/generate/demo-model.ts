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
  taskDifficultySd: 0.596,
  modelAbilitySd: 0.5,
  skillEffectMean: 0.195, // curated skill shift of z, per task mean
  skillEffectTaskSd: 0.35,
  skillEffectCellSd: 0.073,
  // per (configuration, task) shift of what the log shows, shared by both conditions, unseen by the verifier
  logStyleSd: 0.491,
  cellItemNoiseSd: 1.848, // per (configuration × task, item) persistent offset shared by both conditions
  // how much of the skill's effect on the execution reaches the verified outcome (paper §1: skills can change
  // execution without changing the outcome)
  skillOutcomeCoupling: 1,
  skillEffectShare: 0.458, // share of cells where the skill matters a lot (mixture component)
  skillEffectLargeSd: 0.8,
  // Within-pair coupling (demo-populations.ts, pairCoupling): the share of the skill's log effect removed from a
  // curated trajectory, and the log shift of a pair whose outcome changed, m ~ |N(up or down, sd)|, up on
  // FAIL→PASS, down on PASS→FAIL (paper §5, Figure 5: the items move with the outcome).
  skillLogDamping: 0.277,
  transitionLogShiftUp: 3.971,
  transitionLogShiftDown: 0.567,
  transitionLogShiftSd: 0.513,
  // Verifier coupling (demo-populations.ts, labelTrajectory and runCell): on a run whose verifier tests pass, the
  // share of an assertion-route item's decided labels that follow the test (Yes) instead of the latent progress:
  // the log shows the test passing (paper §3.3, PASS propagation adds little because judges mostly said Yes).
  passAssertionYes: 0.727,
  trajectoryNoiseSd: 0.191,
  passThreshold: -0.369,
  hiddenFailureShare: 0, // per run: the tests pass, the artifact fails, the log does not show it
  hiddenFailureCellShare: 0.331, // per (configuration, task) cell: every condition's run fails whatever its log shows
  cellOutcomeShiftSd: 0.793, // per (configuration, task) shift of the outcome only, shared by both conditions
  // where the transfer benchmarks' FAIL trajectories sit relative to item difficulty
  transferBaseShift: 0.3,
  /** Outcome noise: the verifier sees the artifact, the log does not reveal all of it. */
  outcomeNoiseSd: 0.412,
  itemDifficultySd: 0.344,
  itemDifficultyMean: -1.78,
  itemNoiseSd: 0.087,
  itemTaskOffsetSd: 0.606, // per-task shift of all item difficulties (checklist easiness, unrelated to passing)
  evidenceHighShare: 0.747, // share of items whose evidence is usually visible in the log
  evidenceHigh: 0.95,
  evidenceLow: 0.039,
  evidenceBeta: [3, 2] as [number, number], // per-trajectory evidence share, used only when evidenceHighShare = 0
  judgeFlip: 0.013,
  holisticNoiseSd: 0.989,
  baselineTaskBiasSd: 1.181, // per-(task, method) bias of the log-only baselines: a judge's task-specific leniency
  baselineNoiseSd: { generic: 1.736, tick: 1.355, tick_adapted: 2.11 } as Record<string, number>,
  baselineCoverage: { holistic: 0.93, generic: 0.82, tick: 0.7, tick_adapted: 0.7 } as Record<string, number>,
  nonBinaryShare: 0.03,
  duplicateShare: 0.03,
  zeroEvidenceShare: 0.015,
  humanRatingNoiseSd: 1.027,
  humanSharedNoiseSd: 0.902, // what the log shows all annotators alike
  directedRerunFlip: 0.037,
  secondJudgeFlip: 0.108,
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
