import { IMPORTERS } from "../store/import/importers.js";
import { parseArgs } from "node:util";
import { UsageError } from "./errors.js";

type Spec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

/** The flags each command accepts: anything else is a usage error, never silently ignored. */
export const COMMAND_OPTIONS: Record<string, Spec> = {
  validate: { "max-problems": { type: "string" } },
  report: {
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "per-trajectory": { type: "boolean" },
    paper: { type: "boolean" },
    "no-paper": { type: "boolean" },
    "max-problems": { type: "string" },
    benchmark: { type: "string" },
    interval: { type: "string" },
    threads: { type: "string" },
  },
  site: {
    order: { type: "string" },
    out: { type: "string" },
    preview: { type: "boolean" },
    port: { type: "string" },
    seed: { type: "string" },
    interval: { type: "string" },
    cache: { type: "string" },
    "max-problems": { type: "string" },
  },
  generate: { seed: { type: "string" }, scale: { type: "string" }, format: { type: "string" } },
  power: {
    tasks: { type: "string" },
    "per-task": { type: "string" },
    a: { type: "string" },
    b: { type: "string" },
    where: { type: "string" },
    attempts: { type: "string" },
    effects: { type: "string" },
    method: { type: "string" },
    simulations: { type: "string" },
    seed: { type: "string" },
    format: { type: "string" },
    "judge-corrected": { type: "boolean" },
    arm: { type: "string" },
    labelled: { type: "string" },
  },
  compare: {
    a: { type: "string" },
    b: { type: "string" },
    where: { type: "string" },
    pair: { type: "string" },
    method: { type: "string" },
    metric: { type: "string" },
    k: { type: "string" },
    judge: { type: "string" },
    "judge-corrected": { type: "boolean" },
    "reference-tasks": { type: "string" },
    lambda: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  leaderboard: {
    by: { type: "string" },
    metric: { type: "string" },
    k: { type: "string" },
    judge: { type: "string" },
    top: { type: "string" },
    "judge-corrected": { type: "boolean" },
    "reference-tasks": { type: "string" },
    lambda: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  copy: { cluster: { type: "string" }, into: { type: "boolean" }, "max-problems": { type: "string" } },
  gate: {
    sequential: { type: "boolean" },
    goal: { type: "string" },
    guard: { type: "string", multiple: true },
    baseline: { type: "string" },
    candidate: { type: "string" },
    metric: { type: "string" },
    k: { type: "string" },
    margin: { type: "string" },
    alpha: { type: "string" },
    regression: { type: "string" },
    "on-inconclusive": { type: "string" },
    by: { type: "string" },
    where: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  history: {
    by: { type: "string" },
    order: { type: "string" },
    metric: { type: "string" },
    margin: { type: "string" },
    alpha: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  judges: {
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  items: {
    by: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    shuffles: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  consensus: {
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  points: {
    by: { type: "string" },
    format: { type: "string" },
    seed: { type: "string" },
    resamples: { type: "string" },
    out: { type: "string" },
    "max-problems": { type: "string" },
  },
  // --out / --into / --format, and every importer's own flags (store/import/importers.ts): an importer
  // refuses another's flags when it runs (cli/commands.ts, importCommand).
  import: {
    out: { type: "string" },
    into: { type: "string" },
    format: { type: "string" },
    ...Object.fromEntries(
      IMPORTERS.flatMap((i) =>
        Object.entries(i.options).map(([flag, o]) => [
          flag,
          o.boolean
            ? { type: "boolean" as const }
            : o.multiple
              ? { type: "string" as const, multiple: true }
              : { type: "string" as const },
        ]),
      ),
    ),
  },
};

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** The commands that read a store, which may be a ClickHouse database: they take --timeout SECONDS. */
const READS_STORE = [
  "validate",
  "report",
  "site",
  "power",
  "compare",
  "leaderboard",
  "judges",
  "items",
  "points",
  "consensus",
  "gate",
  "history",
  "copy",
];

export function parseCommand(command: string, args: string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: READS_STORE.includes(command)
        ? { ...COMMAND_OPTIONS[command], timeout: { type: "string" } }
        : COMMAND_OPTIONS[command],
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (e) {
    throw new UsageError(`${parseErrorText(e as Error & { code?: string }, args)} (try gcpc help ${command})`);
  }
}

/** A number option checked by `ok` (what it must be, in words: `want`); `fallback` when it is not given. */
export function numberOption(
  flag: string,
  raw: unknown,
  fallback: number,
  ok: (x: number) => boolean,
  want: string,
): number {
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(x) || !ok(x))
    throw new UsageError(`--${flag} must be ${want}, got "${String(raw)}"`);
  return x;
}

export function intOption(name: string, v: unknown, def: number, min = 0): number {
  if (v === undefined) return def;
  if (typeof v !== "string" || !/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v)))
    throw new UsageError(`--${name} must be an integer >= ${min}, got "${v}"`);
  return Number(v);
}

export function choiceOption<T extends string>(name: string, v: unknown, choices: readonly T[], def: T): T {
  if (v === undefined) return def;
  if (!choices.includes(v as T)) throw new UsageError(`--${name} must be ${choices.join(", ")}; got "${v}"`);
  return v as T;
}

/** node:util parseArgs errors in the CLI's own words (its texts talk about positionals and '--'). */
function parseErrorText(e: Error & { code?: string }, args: string[]): string {
  const option = /'(-[^']*)'/.exec(e.message)?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option ?? ""}`.trim();
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    const at = args.indexOf(option);
    const next = at >= 0 ? args[at + 1] : undefined;
    if (next?.startsWith("-")) return `${option} needs a value, got "${next}" (a value may not start with "-")`;
    return `${option} needs a value`;
  }
  return e.message.split("\n")[0];
}
