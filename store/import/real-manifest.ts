import type { Manifest } from "../../analysis/schema/tables.js";

/**
 * The manifest of a store imported from a real run (τ², Terminal-Bench, Inspect): never synthetic, schema
 * version 1, and an outcome-only store (no judgment anywhere) says so with `judgments_optional`.
 */
export function realRunManifest(
  m: { name: string; description: string; primary_judge: string },
  judgmentCount: number,
): Manifest {
  return {
    ...m,
    synthetic: false,
    schema_version: 1,
    ...(judgmentCount === 0 ? { judgments_optional: true } : {}),
  };
}
