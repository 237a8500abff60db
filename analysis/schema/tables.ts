import { z } from "zod";

/**
 * Row schemas of the verdict-store contract (docs/verdict-store.md).
 * Field order follows the contract; `.nullish()` marks the contract's `?`
 * fields (absent or null). Rows are strict: an unknown column is reported, so
 * a misspelt optional field is not silently dropped.
 */
export const SCHEMA_VERSION = 2;

/** The contract versions this reader reads: version 1 stores are read as they always were. */
export const READABLE_SCHEMA_VERSIONS: readonly number[] = [1, 2];

/** The judge of a judgment that names none, when the manifest names no primary judge (contract rule 13). */
export const DEFAULT_JUDGE = "primary";

const id = z.string().min(1, "must be a non-empty string");
const unitScore = z
  .number()
  .refine(Number.isFinite, "must be a finite number")
  .refine((x) => x >= 0 && x <= 1, "must be in [0, 1]");

export const Label = z.enum(["Yes", "No", "Abstain"]);
export type Label = z.infer<typeof Label>;
/**
 * What a judgment's `label` may say (schema_version 2 adds NotApplicable: the item leaves this trajectory's
 * checklist; unlike Abstain, which keeps it and means the judge could not decide).
 */
export const JudgedLabel = z.enum(["Yes", "No", "Abstain", "NotApplicable"]);
export type JudgedLabel = z.infer<typeof JudgedLabel>;
export const Route = z.enum(["assertion", "generated", "judge"]);
export const Category = z.enum(["comprehension", "acquisition", "computation", "construction", "validation"]);
export const Condition = z.enum(["none", "curated", "self_generated"]);
export const Outcome = z.enum(["PASS", "FAIL"]);

export const Manifest = z.strictObject({
  name: z.string(),
  description: z.string().nullish(),
  primary_judge: z.string().nullish(),
  seed: z.number().int().nullish(),
  synthetic: z.boolean().nullish(),
  /** Extension (documented in README): items and judgments may be absent (outcome-only imports, e.g.
   * Harbor trials, registry cells). */
  judgments_optional: z.boolean().nullish(),
  schema_version: z.number().int().nullish(),
  /**
   * schema_version 2: the judge whose labels the others are compared against item by item (a human
   * consensus, e.g. DevAI's human_as_a_judge): analysis/rq/judges-vs-reference.ts.
   */
  reference_judge: z.string().nullish(),
  /** schema_version 2: how the original grades were mapped to [0, 1] (free text, e.g. "1–4 ordinal, (x − 1) / 3"). */
  grade_scale: z.string().nullish(),
});
export type Manifest = z.infer<typeof Manifest>;

export const TaskRow = z.strictObject({
  task_id: id,
  benchmark: id,
  domain: z.string().nullish(),
  instruction: z.string().nullish(),
  verifier_tests: z.array(z.string()).nullish(),
});
export const ItemRow = z.strictObject({
  task_id: id,
  item_id: id,
  text: z.string(),
  quote: z.string().nullish(),
  route: Route,
  assertion_ref: z.string().nullish(),
  category: Category.nullish(),
  /**
   * The item's verdict enters the official outcome (a verifier test; a τ² check of a kind in the reward
   * basis). Default false. A score built from such items is not outcome-free.
   */
  determines_outcome: z.boolean().nullish(),
  /** schema_version 2: the item's weight in weighted GCPC (Σ w·grade / Σ w over applicable items); default 1. */
  weight: z
    .number()
    .refine(Number.isFinite, "must be a finite number")
    .refine((x) => x > 0, "must be > 0")
    .nullish(),
  /**
   * schema_version 2: the item's signed points in a points rubric (HealthBench's criteria: −10 … +10); a task's
   * items carry points on every item or on none, and a task with points gives no weights (contract rule 20).
   */
  points: z
    .number()
    .refine(Number.isFinite, "must be a finite number")
    .refine((x) => x !== 0, "must not be 0")
    .nullish(),
  /** schema_version 2: item ids of the same task that must hold for this item to count in gated credit. */
  prerequisites: z.array(z.string()).nullish(),
  /** schema_version 2: a free-text group of items (DevAI's requirement category), for per-group views. */
  group: z.string().nullish(),
});
/** A finite number ≥ 0 (a duration, a cost, a token count). */
const nonNegative = z
  .number()
  .refine(Number.isFinite, "must be a finite number")
  .refine((x) => x >= 0, "must be ≥ 0");
export const TrajectoryRow = z.strictObject({
  trajectory_id: id,
  task_id: id,
  harness: z.string(),
  model: z.string(),
  source: z.string().nullish(),
  condition: Condition,
  trial: z.number().int().nullish(),
  outcome: Outcome.nullish(),
  reward: z.number().refine(Number.isFinite, "must be a finite number").nullish(),
  log_hash: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  /** When the run started and finished (ISO 8601): the order tasks complete in, for sequential looks. */
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  /** Wall-clock seconds, cost in US dollars and tokens of the run: what `gcpc gate --guard` can gate. */
  duration_s: nonNegative.nullish(),
  cost_usd: nonNegative.nullish(),
  tokens: nonNegative.nullish(),
});
/** A grade in [0, 1] (schema_version 2): the original answer mapped linearly; Yes and No are 1 and 0. */
const grade = unitScore.nullish();

/**
 * A judged label says Yes, No, Abstain or NotApplicable, or carries a grade; a grade beside a label must be
 * the label's (Yes 1, No 0). Shared by judgments and human_item_labels.
 */
function checkGradedLabel(
  v: { label?: JudgedLabel | null; grade?: number | null },
  ctx: z.RefinementCtx<{ label?: JudgedLabel | null; grade?: number | null }>,
): void {
  if (v.label == null && v.grade == null)
    ctx.addIssue({ code: "custom", path: ["label"], message: "a label or a grade is required" });
  else if (
    v.label != null &&
    v.grade != null &&
    !(v.label === "Yes" ? v.grade === 1 : v.label === "No" && v.grade === 0)
  )
    ctx.addIssue({
      code: "custom",
      path: ["grade"],
      message:
        `grade ${v.grade} contradicts label ${v.label} ` +
        "(Yes is grade 1, No is grade 0; Abstain and NotApplicable carry no grade)",
    });
}

export const JudgmentRow = z
  .strictObject({
    trajectory_id: id,
    item_id: id,
    label: JudgedLabel.nullish(),
    run: z.number().int().min(1, "must be an integer >= 1").nullish(),
    judge: z.string().nullish(),
    evidence: z.string().nullish(),
    grade,
    /** The answer on its original scale ("3" of 1–4), kept for display. */
    raw: z.string().nullish(),
  })
  .superRefine(checkGradedLabel);
export const MethodScoreRow = z.strictObject({ trajectory_id: id, method: id, score: unitScore });
export const HumanRatingRow = z.strictObject({
  annotator: id,
  trajectory_id: id,
  rating: z
    .number()
    .refine(Number.isFinite, "must be a finite number")
    .refine((x) => x >= 0 && x <= 10, "must be in [0, 10]"),
});
export const HumanPreferenceRow = z.strictObject({
  annotator: id,
  trajectory_a: id,
  trajectory_b: id,
  preference: z.enum(["a", "b", "tie"]),
});
export const HumanItemLabelRow = z
  .strictObject({
    annotator: id,
    trajectory_id: id,
    item_id: id,
    label: JudgedLabel.nullish(),
    grade,
    raw: z.string().nullish(),
  })
  .superRefine(checkGradedLabel);
export const EvidenceReplacementRow = z.strictObject({ trajectory_id: id, item_id: id, before: Label, after: Label });
export const SchemaAuditRow = z.strictObject({ scheme: id, requirement_id: id, covered: z.boolean() });
export const VerifierResultRow = z.strictObject({
  trajectory_id: id,
  test_id: id,
  status: z.enum(["passed", "failed", "skipped", "other"]),
});

export const TABLE_SCHEMAS = {
  tasks: TaskRow,
  items: ItemRow,
  trajectories: TrajectoryRow,
  judgments: JudgmentRow,
  method_scores: MethodScoreRow,
  human_ratings: HumanRatingRow,
  human_preferences: HumanPreferenceRow,
  human_item_labels: HumanItemLabelRow,
  evidence_replacements: EvidenceReplacementRow,
  schema_audit: SchemaAuditRow,
  verifier_results: VerifierResultRow,
} as const;

export type TableName = keyof typeof TABLE_SCHEMAS;
export const TABLE_NAMES = Object.keys(TABLE_SCHEMAS) as TableName[];
export const REQUIRED_TABLES: readonly TableName[] = ["tasks", "items", "trajectories", "judgments"];

export type Task = z.infer<typeof TaskRow>;
export type Item = z.infer<typeof ItemRow>;
export type Trajectory = z.infer<typeof TrajectoryRow>;
export type Judgment = z.infer<typeof JudgmentRow>;
export type MethodScore = z.infer<typeof MethodScoreRow>;
export type HumanRating = z.infer<typeof HumanRatingRow>;
export type HumanPreference = z.infer<typeof HumanPreferenceRow>;
export type HumanItemLabel = z.infer<typeof HumanItemLabelRow>;
export type EvidenceReplacement = z.infer<typeof EvidenceReplacementRow>;
export type SchemaAudit = z.infer<typeof SchemaAuditRow>;
export type VerifierResult = z.infer<typeof VerifierResultRow>;
