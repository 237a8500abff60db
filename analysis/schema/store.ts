import type { LabelVectors } from "./label-vectors.js";
import type { MethodScoreColumns } from "./method-score-columns.js";
import type { TrajectoryOrder } from "./trajectory-order.js";
import type {
  EvidenceReplacement,
  HumanItemLabel,
  HumanPreference,
  HumanRating,
  Item,
  Judgment,
  Manifest,
  MethodScore,
  SchemaAudit,
  Task,
  Trajectory,
  VerifierResult,
} from "./tables.js";

/**
 * A validated store in memory: the input of every analysis. Optional tables are absent, not empty.
 * A store read from disk carries its judgments as `labels` (label vectors built in DuckDB)
 * and an empty `judgments` list; a store built in memory (generator, importers, tests) carries rows.
 */
export interface Store {
  manifest: Manifest;
  tasks: Task[];
  items: Item[];
  trajectories: Trajectory[];
  judgments: Judgment[];
  labels?: LabelVectors;
  method_scores?: MethodScore[];
  /** A store read from disk may carry its method scores as columns instead (and no `method_scores`). */
  method_score_columns?: MethodScoreColumns;
  /** A store read from disk may carry its trajectories' id order and log_hash deduplication. */
  trajectory_order?: TrajectoryOrder;
  human_ratings?: HumanRating[];
  human_preferences?: HumanPreference[];
  human_item_labels?: HumanItemLabel[];
  evidence_replacements?: EvidenceReplacement[];
  schema_audit?: SchemaAudit[];
  verifier_results?: VerifierResult[];
}
