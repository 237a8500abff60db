import { prepareStore } from "../analysis/rq/prepared.js";
import { pairedDeltaPower, type DesignPower, type PowerResult } from "../analysis/rq/power.js";
import { armPowerCommand } from "./arm-power-command.js";
import { labellingDesignCommand } from "./labelling-design-command.js";
import { loadValidStore, type Progress } from "./commands.js";
import { escapeMarkdownCell } from "../report/render.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";

/** A comma-separated list of positive integers (`--tasks 30,87,150`). */
function intList(name: string, raw: unknown, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const xs = String(raw)
    .split(",")
    .map((s) => Number(s.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x < 2))
    throw new UsageError(`--${name} must be a comma-separated list of integers >= 2, got "${raw}"`);
  return xs;
}

/** `gcpc power STORE`: power of the paired ΔAUC comparison for other designs (analysis/rq/power.ts). */
export async function powerCommand(parsed: Parsed, io: Io, progress: Progress): Promise<number> {
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError("power takes exactly one store folder (try gcpc help power)");
  if (values["judge-corrected"]) return labellingDesignCommand(parsed, io, progress);
  for (const flag of ["arm", "labelled"])
    if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to power --judge-corrected`);
  if (values.a !== undefined || values.b !== undefined) return armPowerCommand(parsed, io, progress);
  for (const flag of ["attempts", "effects", "where", "method"])
    if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to the two-arm design (--a and --b)`);
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const simulations = intOption("simulations", values.simulations, 400, 20);
  const seed = intOption("seed", values.seed, 20260101);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  const p = prepareStore(store);
  const taskList = intList("tasks", values.tasks, [12, 30, 87, 150, 300]);
  const perTask = intList("per-task", values["per-task"], [10, 20, 50]);
  const designs = taskList.flatMap((tasks) => perTask.map((per_task) => ({ tasks, per_task })));
  const r = pairedDeltaPower(p, designs, { simulations, seed });
  if ("available" in r) throw new UsageError(`power not available: ${r.reason}`);
  io.out(format === "json" ? `${JSON.stringify(r, null, 2)}\n` : powerMarkdown(r, store.manifest.name));
  return 0;
}

function powerMarkdown(r: PowerResult, name: string): string {
  const f = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
  const powerCell = (d: DesignPower) =>
    d.warning
      ? `${f(100 * d.power, 1)}% (unreliable: ${d.tasks} tasks)`
      : (d.power_bound ?? `${f(100 * d.power, 1)}% ± ${f(100 * d.mc_se, 1)}`);
  const perTask = (d: DesignPower) =>
    d.per_task === null
      ? `all (${f(d.per_task_simulated, 1)} on average)`
      : d.capped_share > 0
        ? `${d.per_task} (${f(d.per_task_simulated, 1)} simulated: ${f(100 * d.capped_share, 0)}% of tasks hold fewer)`
        : String(d.per_task);
  const line = (d: DesignPower) =>
    `| ${d.tasks} | ${perTask(d)} | ${powerCell(d)} | ${f(d.delta_sd)} | ${f(d.min_detectable_delta)} |`;
  const enough = r.designs.filter((d) => !d.warning && d.power - 2 * d.mc_se >= 0.8);
  const warned = r.designs.filter((d) => d.warning);
  return [
    `# Power of the paired ΔAUC (${r.methods.join(" − ")}): ${escapeMarkdownCell(name)}`,
    "",
    `Observed ΔAUC ${f(r.observed_delta)} on ${r.store_tasks} tasks (${f(r.store_per_task, 1)} shared trajectories ` +
      `per task; clustered SE ${f(r.store_se, 4)}). ${r.simulations} simulated studies per design, seed ${r.seed}. ` +
      `Method: ${r.method}. Power of a two-sided test at the 5% level, ± its Monte Carlo SE; minimum detectable ` +
      "Δ = 2.80 × SD of ΔAUC at that design (80% power, two-sided 5%). The first row is the store's own design: " +
      "its SD of ΔAUC should equal the clustered SE above within Monte Carlo error.",
    "",
    "| tasks | trajectories per task | power (CI excludes 0) | SD of ΔAUC | minimum detectable Δ |",
    "|---|---|---|---|---|",
    line(r.own_design),
    ...r.designs.map(line),
    "",
    enough.length
      ? `Smallest designs with power ≥ 80% (by 2 MC SE): ${enough.map(designName).join(", ")}.`
      : "No design in the grid reaches 80% power for the observed ΔAUC.",
    ...(warned.length
      ? [
          "",
          `Warning: ${warned.map(designName).join(", ")} rest on fewer than 10 tasks; their power is not to be ` +
            "trusted (the clustered SE is unstable with so few tasks).",
        ]
      : []),
    "",
  ].join("\n");
}

const designName = (d: { tasks: number; per_task: number | null }) => `${d.tasks} × ${d.per_task ?? "all"}`;
