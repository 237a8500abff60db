import { armPower, type ArmPowerResult, type ArmPowerRow } from "../analysis/rq/arms/arm-power.js";
import { armTable } from "../analysis/rq/arms/compare-arms.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { escapeMarkdownCell } from "../report/render.js";
import { parseSelector, selectorText } from "./arms-command.js";
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

function armPowerMarkdown(r: ArmPowerResult, name: string): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const effect = (x: ArmPowerRow) =>
    x.effect === "store"
      ? `store's own (${x.metric === "pass_rate" ? pct(x.realized_effect) : x.realized_effect.toFixed(3)})`
      : x.metric === "pass_rate"
        ? `${pct(x.effect)} (realized ${pct(x.realized_effect)})`
        : x.effect.toFixed(3);
  const table = (metric: ArmPowerRow["metric"]) => {
    const rows = r.rows.filter((x) => x.metric === metric);
    if (rows.length === 0)
      return [`No ${metric === "score" ? r.store_effect.method : "pass-rate"} rows: too few tasks.`];
    return [
      "| tasks | attempts per arm | effect (b − a) | power ± MC SE |",
      "|---|---|---|---|",
      ...rows.map((x) => `| ${x.tasks} | ${x.attempts} | ${effect(x)} | ${pct(x.power)} ± ${pct(x.mc_se)} |`),
    ];
  };
  return [
    `# Power of ${escapeMarkdownCell(selectorText(r.b))} vs ${escapeMarkdownCell(selectorText(r.a))}: ` +
      escapeMarkdownCell(name),
    "",
    `${r.matched_tasks} matched tasks; the store's own Δ (b − a): pass rate ${pct(r.store_effect.pass_rate)}, ` +
      `${escapeMarkdownCell(r.store_effect.method)} ` +
      `${r.store_effect.score === null ? "n/a" : r.store_effect.score.toFixed(3)}. ` +
      `${r.simulations} simulated studies per row, seed ${r.seed}, two-sided α = ${r.alpha}. Design: ${r.design}. ` +
      `Tests: ${r.tests}. Effects: ${r.effects_rule}.`,
    "",
    "## Pass rate",
    "",
    ...table("pass_rate"),
    "",
    `## ${escapeMarkdownCell(r.store_effect.method)}`,
    "",
    ...table("score"),
    "",
  ].join("\n");
}
