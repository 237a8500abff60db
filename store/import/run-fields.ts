// The contract's run fields (started_at, completed_at, duration_s, cost_usd, tokens) as the importers read them:
// one rule for a time and one for an amount, whatever harness wrote them.

/**
 * A time as the contract writes it (ISO 8601, UTC, `Z`), or undefined when it is not a parsable time string. A time
 * written without a zone (τ²'s `2025-08-01T15:53:27.541447`) is read as UTC, not as the reading machine's local
 * time, so the same file gives the same store anywhere.
 */
export function isoTime(x: unknown): string | undefined {
  if (typeof x !== "string" || x.trim() === "") return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(x) ? x : `${x}Z`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** An amount (seconds, dollars, tokens): a finite number ≥ 0, else undefined. */
export const amount = (x: unknown): number | undefined =>
  typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : undefined;
