import type { TableName } from "../../analysis/schema/tables.js";

/** Non-string fields of each table: how a CSV cell is converted before validation. */
export type FieldKind = "int" | "number" | "boolean" | "list";
export const FIELD_KINDS: Record<TableName, Record<string, FieldKind>> = {
  tasks: { verifier_tests: "list" },
  items: {},
  trajectories: { trial: "int", reward: "number", tags: "list" },
  judgments: { run: "int" },
  method_scores: { score: "number" },
  human_ratings: { rating: "number" },
  human_preferences: {},
  human_item_labels: {},
  evidence_replacements: {},
  schema_audit: { covered: "boolean" },
  verifier_results: {},
};

/** DuckDB column types, used to write Parquet with a stable schema. */
export const DUCKDB_COLUMNS: Record<TableName, [string, string][]> = {
  tasks: [["task_id", "VARCHAR"], ["benchmark", "VARCHAR"], ["domain", "VARCHAR"], ["instruction", "VARCHAR"], ["verifier_tests", "VARCHAR[]"]],
  items: [["task_id", "VARCHAR"], ["item_id", "VARCHAR"], ["text", "VARCHAR"], ["quote", "VARCHAR"], ["route", "VARCHAR"], ["assertion_ref", "VARCHAR"], ["category", "VARCHAR"]],
  trajectories: [["trajectory_id", "VARCHAR"], ["task_id", "VARCHAR"], ["harness", "VARCHAR"], ["model", "VARCHAR"], ["source", "VARCHAR"], ["condition", "VARCHAR"], ["trial", "BIGINT"], ["outcome", "VARCHAR"], ["reward", "DOUBLE"], ["log_hash", "VARCHAR"], ["tags", "VARCHAR[]"]],
  judgments: [["trajectory_id", "VARCHAR"], ["item_id", "VARCHAR"], ["label", "VARCHAR"], ["run", "BIGINT"], ["judge", "VARCHAR"], ["evidence", "VARCHAR"]],
  method_scores: [["trajectory_id", "VARCHAR"], ["method", "VARCHAR"], ["score", "DOUBLE"]],
  human_ratings: [["annotator", "VARCHAR"], ["trajectory_id", "VARCHAR"], ["rating", "DOUBLE"]],
  human_preferences: [["annotator", "VARCHAR"], ["trajectory_a", "VARCHAR"], ["trajectory_b", "VARCHAR"], ["preference", "VARCHAR"]],
  human_item_labels: [["annotator", "VARCHAR"], ["trajectory_id", "VARCHAR"], ["item_id", "VARCHAR"], ["label", "VARCHAR"]],
  evidence_replacements: [["trajectory_id", "VARCHAR"], ["item_id", "VARCHAR"], ["before", "VARCHAR"], ["after", "VARCHAR"]],
  schema_audit: [["scheme", "VARCHAR"], ["requirement_id", "VARCHAR"], ["covered", "BOOLEAN"]],
  verifier_results: [["trajectory_id", "VARCHAR"], ["test_id", "VARCHAR"], ["status", "VARCHAR"]],
};

/** Required (non-optional) fields per table, from the contract. */
export const REQUIRED_FIELDS: Record<TableName, string[]> = {
  tasks: ["task_id", "benchmark"],
  items: ["task_id", "item_id", "text", "route"],
  trajectories: ["trajectory_id", "task_id", "harness", "model", "condition"],
  judgments: ["trajectory_id", "item_id", "label"],
  method_scores: ["trajectory_id", "method", "score"],
  human_ratings: ["annotator", "trajectory_id", "rating"],
  human_preferences: ["annotator", "trajectory_a", "trajectory_b", "preference"],
  human_item_labels: ["annotator", "trajectory_id", "item_id", "label"],
  evidence_replacements: ["trajectory_id", "item_id", "before", "after"],
  schema_audit: ["scheme", "requirement_id", "covered"],
  verifier_results: ["trajectory_id", "test_id", "status"],
};
