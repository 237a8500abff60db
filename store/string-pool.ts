/**
 * One copy of each repeated string value of a field, shared by every row that holds it.
 *
 * Each row arrives as its own JSON text (or CSV/JSONL line), so every cell is a fresh string: at
 * 100× the paper the 6.3 M method score rows each carried their own copy of a trajectory id and a
 * method name, and 2.1 M trajectory rows their own harness, model and source. A pool per
 * field name, shared across tables, keeps the first copy: the ids of a JSONL or CSV trajectories table
 * then serve the method scores, ratings and verifier results that name them (a Parquet table naming a
 * trajectory reads its position instead, store/parquet-rows.ts, so Parquet trajectory ids are not
 * pooled). Free text (item text, quotes, evidence, instructions) and values unique by nature (log
 * hashes) are not pooled; a pool stops growing at `maxEntries` (it keeps answering for the values it
 * holds).
 */
export class StringPool {
  private readonly pools = new Map<string, Map<string, string>>();

  constructor(
    private readonly maxEntries = 1 << 22,
    private readonly skip: ReadonlySet<string> = UNPOOLED_FIELDS,
  ) {}

  /** Replaces, in place, each pooled string field of a validated row by its shared copy. */
  internRow(row: Record<string, unknown>): void {
    for (const field in row) {
      const value = row[field];
      if (typeof value === "string" && !this.skip.has(field)) row[field] = this.intern(field, value);
    }
  }

  /** Whether a field's values are pooled (free text and unique values are not). */
  isPooled(field: string): boolean {
    return !this.skip.has(field);
  }

  /** The shared copy of a field's value (the value itself the first time, or once the pool is full). */
  intern(field: string, value: string): string {
    let pool = this.pools.get(field);
    if (!pool) this.pools.set(field, (pool = new Map()));
    const shared = pool.get(value);
    if (shared !== undefined) return shared;
    if (pool.size < (SMALL_POOLS[field] ?? this.maxEntries)) pool.set(value, value);
    return value;
  }
}

/**
 * Fields whose pool stays small: a run's label string is one of few patterns on short checklists
 * (3⁸ on 8 items), but unique on long ones, where a large pool would only cost memory.
 */
const SMALL_POOLS: Record<string, number> = { labels: 1 << 16 };

const UNPOOLED_FIELDS: ReadonlySet<string> = new Set(["text", "quote", "evidence", "instruction", "log_hash"]);
