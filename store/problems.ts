/** One validation problem, located as precisely as the format allows. */
export interface Problem {
  file: string;
  /** JSONL: 1-based line; CSV: 1-based line of the row (header = line 1); Parquet: 1-based row. */
  line?: number;
  row?: number;
  field?: string;
  message: string;
}

export function formatProblem(p: Problem): string {
  const where = [
    p.file,
    p.line !== undefined ? `line ${p.line}` : undefined,
    p.row !== undefined ? `row ${p.row}` : undefined,
    p.field !== undefined ? `field "${p.field}"` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  return `${where}: ${p.message}`;
}

/** Collects problems up to a cap, counting the ones it drops. */
export class ProblemList {
  readonly items: Problem[] = [];
  dropped = 0;
  constructor(readonly cap = 50) {}
  add(p: Problem): void {
    if (this.items.length < this.cap) this.items.push(p);
    else this.dropped++;
  }
  get count(): number {
    return this.items.length + this.dropped;
  }
}

/** Bad input: carries every problem found (up to the cap). Exit code 2. */
export class StoreValidationError extends Error {
  constructor(
    readonly store: string,
    readonly problems: Problem[],
    readonly dropped = 0,
    /** What was read ("store", or "input table" for an importer's table) and a line of likely cause and fix. */
    readonly about: { what?: string; hint?: string } = {},
  ) {
    super(
      `invalid ${about.what ?? "store"} ${store}: ${problems.length + dropped} problem(s)\n` +
        (about.hint ? `  ${about.hint}\n` : "") +
        problems.map((p) => `  ${formatProblem(p)}`).join("\n") +
        (dropped ? `\n  ... and ${dropped} more (raise --max-problems to see them)` : ""),
    );
    this.name = "StoreValidationError";
  }
}

/** An input the user can fix that no row-level problem describes (e.g. an option naming a scorer no log has). */
export class InputError extends Error {}
