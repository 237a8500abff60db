import { prepareStore } from "../analysis/rq/prepared.js";
import { ARM_FIELDS, type ArmField } from "../analysis/rq/arms/compare-arms.js";
import { gate, type GateGuard, type GateMetric } from "../analysis/rq/arms/gate.js";
import { sequentialGate } from "../analysis/rq/arms/sequential-gate.js";

import { gateJunit, gateMarkdown, sequentialMarkdown } from "../report/gate-render.js";
import { selectorText } from "../report/arms-render.js";
import { prettyJsonChunks } from "../report/json-chunks.js";
import { writeFileAtomic } from "../store/write-store.js";
import { loadValidStore, type Progress } from "./commands.js";
import { parseSelector, settingsOf } from "./arms-command.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, numberOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";

/** gate's exit codes (docs/statistics.md): pass, regression, inconclusive or insufficient data. Bad input is 2. */
export const GATE_EXIT = { pass: 0, regression: 1, inconclusive: 3 } as const;

const METRICS: GateMetric[] = ["pass_rate", "gcpc", "pass^k", "pass@k"];

const GUARD_FIELDS: Record<string, GateGuard["field"]> = { cost: "cost_usd", tokens: "tokens", duration: "duration_s" };

/** `--guard cost:+10%` (repeatable, or comma-separated): NAME:+P% with NAME cost, tokens or duration. */
export function parseGuards(raw: unknown): GateGuard[] {
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((x) => String(x).split(","));
  return list.map((g) => {
    const m = /^\s*(cost|tokens|duration)\s*:\s*\+?(\d+(?:\.\d+)?)\s*%\s*$/.exec(g);
    if (!m)
      throw new UsageError(`--guard takes NAME:+P% with NAME cost, tokens or duration (e.g. cost:+10%), got "${g}"`);
    return { field: GUARD_FIELDS[m[1]], name: m[1], limit: Number(m[2]) / 100 };
  });
}

/** gate's options, checked before the store is read. */
function gateOptions(values: Parsed["values"]) {
  const baseline = parseSelector("baseline", values.baseline);
  const candidate = parseSelector("candidate", values.candidate);
  if (!Object.keys(baseline).length || !Object.keys(candidate).length)
    throw new UsageError("gate needs --baseline FIELD=VALUE and --candidate FIELD=VALUE");
  const metrics = String(values.metric ?? "pass_rate")
    .split(",")
    .map((m) => m.trim()) as GateMetric[];
  for (const m of metrics)
    if (!METRICS.includes(m))
      throw new UsageError(`--metric takes ${METRICS.join(", ")} (comma-separated), got "${m}"`);
  const needsK = metrics.some((m) => m === "pass^k" || m === "pass@k");
  if (needsK && values.k === undefined) throw new UsageError("--metric pass^k / pass@k needs --k K");
  const by = values.by === undefined ? undefined : (String(values.by) as ArmField);
  if (by !== undefined && !ARM_FIELDS.includes(by))
    throw new UsageError(`--by takes one of ${ARM_FIELDS.join(", ")}; got "${by}"`);
  const o = {
    baseline,
    candidate,
    metrics,
    k: needsK ? intOption("k", values.k, 1, 1) : undefined,
    margin: numberOption("margin", values.margin, 0, (x) => x >= 0 && x < 1, "a number in [0, 1)"),
    alpha: numberOption("alpha", values.alpha, 0.05, (x) => x > 0 && x < 0.5, "a number in (0, 0.5)"),
    regression: choiceOption("regression", values.regression, ["zero", "margin"] as const, "zero"),
    onInconclusive: choiceOption("on-inconclusive", values["on-inconclusive"], ["pass", "fail"] as const, "fail"),
    goal: choiceOption("goal", values.goal, ["any", "better"] as const, "any"),
    format: choiceOption("format", values.format, ["md", "json", "junit"] as const, "md"),
    by,
    where: parseSelector("where", values.where),
    guards: parseGuards(values.guard),
    settings: settingsOf(values),
  };
  if (values.sequential) {
    if (metrics.length !== 1 || !(metrics[0] === "pass_rate" || metrics[0] === "gcpc"))
      throw new UsageError("--sequential gates one metric, pass_rate or gcpc");
    if (by !== undefined) throw new UsageError("--sequential gates the whole comparison: drop --by");
    if (values.guard !== undefined) throw new UsageError("--guard applies to the fixed-sample gate, not --sequential");
    if (o.format === "junit") throw new UsageError("--sequential prints md or json");
  } else if (values.goal !== undefined) throw new UsageError("--goal applies to --sequential");
  return o;
}

type GateOptionsParsed = ReturnType<typeof gateOptions>;

/** The exit code of a verdict (GATE_EXIT; --on-inconclusive chooses for inconclusive and undecided). */
function exitOf(verdict: string, onInconclusive: "pass" | "fail"): number {
  if (verdict === "worse") return GATE_EXIT.regression;
  if (verdict === "inconclusive" || verdict === "insufficient data" || verdict === "continue")
    return onInconclusive === "pass" ? GATE_EXIT.pass : GATE_EXIT.inconclusive;
  return GATE_EXIT.pass;
}

/** `--sequential`: the confidence sequence over the tasks in completion order (issue 56.3). */
function sequentialText(p: ReturnType<typeof prepareStore>, name: string, o: GateOptionsParsed) {
  const metric = o.metrics[0] as "pass_rate" | "gcpc";
  const r = sequentialGate(p, { ...o, metric });
  if ("available" in r) throw new UsageError(`gate --sequential not available: ${r.reason}`);
  const names = { baseline: selectorText(o.baseline), candidate: selectorText(o.candidate) };
  const text =
    o.format === "json"
      ? [...prettyJsonChunks({ store: name, baseline: o.baseline, candidate: o.candidate, ...r })].join("")
      : sequentialMarkdown(r, name, names);
  return { text, verdict: r.decision };
}

/** The fixed-sample gate's text and verdict. */
function gateText(p: ReturnType<typeof prepareStore>, name: string, o: GateOptionsParsed) {
  const r = gate(p, o);
  if ("available" in r) throw new UsageError(`gate not available: ${r.reason}`);
  const names = { baseline: selectorText(o.baseline), candidate: selectorText(o.candidate) };
  const text =
    o.format === "json"
      ? [
          ...prettyJsonChunks({
            store: name,
            settings: o.settings,
            baseline: o.baseline,
            candidate: o.candidate,
            ...r,
          }),
        ].join("")
      : o.format === "junit"
        ? gateJunit(r, name)
        : gateMarkdown(r, name, names);
  return { text, verdict: r.verdict };
}

/** `gcpc gate STORE --baseline SEL --candidate SEL [...]`: a verdict a CI job can act on (issue 56.1). */
export async function gateCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("gate takes exactly one store folder (try gcpc help gate)");
  const o = gateOptions(values);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress("gating the candidate against the baseline");
  const p = prepareStore(store);
  const { text, verdict } = values.sequential
    ? sequentialText(p, store.manifest.name, o)
    : gateText(p, store.manifest.name, o);
  if (typeof values.out === "string") writeFileAtomic(values.out, text);
  else io.out(text);
  return exitOf(verdict, o.onInconclusive);
}
