export function issueField(issue: { path: PropertyKey[]; code?: string; keys?: string[] }): string | undefined {
  if (issue.code === "unrecognized_keys" && issue.keys) return issue.keys.join(", ");
  return issue.path.length ? issue.path.map(String).join(".") : undefined;
}

export function issueMessage(
  issue: { message: string; code?: string; path: PropertyKey[]; keys?: string[] },
  values?: Record<string, unknown>,
): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field(s) ${issue.keys?.map((k) => JSON.stringify(k)).join(", ")} (not in the contract)`;
  const field = issue.path[0];
  const value = values && field !== undefined ? values[String(field)] : undefined;
  if (value === undefined && issue.code === "invalid_type") return "missing required field";
  const shown = typeof value === "number" && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return `${issue.message} (got ${shown})`;
}
