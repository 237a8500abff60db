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

/** The tables every store shape holds as rows. Optional tables are absent, not empty. */
interface StoreTables {
  manifest: Manifest;
  tasks: Task[];
  items: Item[];
  trajectories: Trajectory[];
  human_ratings?: HumanRating[];
  human_preferences?: HumanPreference[];
  human_item_labels?: HumanItemLabel[];
  evidence_replacements?: EvidenceReplacement[];
  schema_audit?: SchemaAudit[];
  verifier_results?: VerifierResult[];
}

/**
 * A store as rows, the contract's tables one row per record: what the generator, the importers and tests
 * build and what store/write-store.ts writes.
 */
export interface Store extends StoreTables {
  judgments: Judgment[];
  method_scores?: MethodScore[];
}

/**
 * A store as store/read-store.ts returns it: the judgments as label vectors (built in DuckDB, never held as
 * rows), the method scores as rows or as typed columns, and the trajectories' id order and log_hash
 * deduplication when the read computed them. `prepareStore` accepts either shape and analyses this one.
 */
export interface StoreFrame extends StoreTables {
  labels: LabelVectors;
  method_scores?: MethodScore[];
  method_score_columns?: MethodScoreColumns;
  trajectory_order?: TrajectoryOrder;
}
