import { armPower } from "../analysis/rq/arms/arm-power.js";
import { armTable } from "../analysis/rq/arms/compare-arms.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { parseSelector } from "./arms-command.js";
import { armPowerMarkdown } from "../report/arms-render.js";
import { loadValidStore, type Progress } from "./commands.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";

/** A comma-separated list of integers ≥ `min`. */
function intList(name: string, raw: unknown, fallback: number[], min: number): number[] {
  if (raw === undefined) return fallback;
  const xs = String(raw)
    .split(",")
    .map((s) => Number(s.trim()));
  if (xs.some((x) => !Number.isInteger(x) || x < min))
    throw new UsageError(`--${name} must be a comma-separated list of integers >= ${min}, got "${raw}"`);
  return xs;
}

/** A comma-separated list of effects in [−1, 1] (pass-rate points as fractions: 0.05 = 5 points). */
function effectList(raw: unknown): number[] {
  if (raw === undefined) return [0, 0.05, 0.1];
  const xs = String(raw)
    .split(",")
    .map((s) => Number(s.trim()));
  if (xs.some((x) => !Number.isFinite(x) || Math.abs(x) > 1))
    throw new UsageError(`--effects must be a comma-separated list of numbers in [-1, 1], got "${raw}"`);
  return xs;
}

/** `gcpc power STORE --a SEL --b SEL`: power of the two-arm comparison for other tasks × attempts. */
export async function armPowerCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (values["per-task"] !== undefined)
    throw new UsageError("--per-task is the ΔAUC design's; with --a and --b use --attempts");
  const a = parseSelector("a", values.a);
  const b = parseSelector("b", values.b);
  if (Object.keys(a).length === 0 || Object.keys(b).length === 0) throw new UsageError("power needs both --a and --b");
  const where = parseSelector("where", values.where);
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const simulations = intOption("simulations", values.simulations, 1000, 20);
  const seed = intOption("seed", values.seed, 20260101);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  const table = armTable(prepareStore(store), typeof values.method === "string" ? values.method : "gcpc");
  if ("available" in table) throw new UsageError(`power not available: ${table.reason}`);
  const r = armPower(table, {
    a,
    b,
    where,
    tasks: intList("tasks", values.tasks, [20, 40, 80, 160], 2),
    attempts: intList("attempts", values.attempts, [1, 3, 5], 1),
    effects: effectList(values.effects),
    simulations,
    seed: String(seed),
  });
  if ("available" in r) throw new UsageError(`power not available: ${r.reason}`);
  io.out(
    format === "json"
      ? `${JSON.stringify({ store: store.manifest.name, ...r }, null, 2)}\n`
      : armPowerMarkdown(r, store.manifest.name),
  );
  return 0;
}
