import type { z } from "zod";
import { TABLE_SCHEMAS, type TableName } from "./tables.js";

/**
 * Column descriptions derived from the zod row schemas, so the schema has one source:
 * the CSV cell conversion, the required-column check and the Parquet column types all
 * read these instead of keeping their own lists.
 */
export type ColumnKind = "string" | "int" | "number" | "boolean" | "list";

export interface Column {
  name: string;
  kind: ColumnKind;
  /** False for the contract's `?` fields (`.nullish()` in zod). */
  required: boolean;
}

export type TableSchemas = Record<TableName, z.ZodObject>;

/** The columns of one row schema, in schema (= contract) order. */
export function columnsOfSchema(schema: z.ZodObject): Column[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    let inner = field as z.ZodType;
    let required = true;
    // `.nullish()` is optional(nullable(x)): unwrap both to reach the value type.
    while (inner._zod.def.type === "optional" || inner._zod.def.type === "nullable") {
      required = false;
      inner = (inner._zod.def as unknown as { innerType: z.ZodType }).innerType;
    }
    return { name, kind: kindOf(inner, name), required };
  });
}

function kindOf(field: z.ZodType, name: string): ColumnKind {
  const type = field._zod.def.type;
  if (type === "string" || type === "enum") return "string";
  if (type === "boolean") return "boolean";
  if (type === "array") return "list";
  if (type === "number") {
    const format = (field as unknown as { format?: string | null }).format;
    return format === "safeint" || format === "int32" ? "int" : "number";
  }
  throw new Error(`column ${name}: zod type "${type}" has no column kind (add it to analysis/schema/columns.ts)`);
}

/** Every table's columns, from the given schemas (the contract's by default). */
export function tableColumns(schemas: TableSchemas = TABLE_SCHEMAS): Record<TableName, Column[]> {
  return Object.fromEntries(
    Object.entries(schemas).map(([table, schema]) => [table, columnsOfSchema(schema)]),
  ) as Record<TableName, Column[]>;
}
