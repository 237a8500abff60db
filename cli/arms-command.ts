import { prepareStore } from "../analysis/rq/prepared.js";
import { ARM_FIELDS, compareArms, type ArmField, type Selector } from "../analysis/rq/arms/compare-arms.js";
import { leaderboard, PAIRWISE_TOP } from "../analysis/rq/arms/leaderboard.js";
import type { CorrectionOptions } from "../analysis/rq/arms/judge-corrected.js";
import { existsSync, readFileSync } from "node:fs";
import { DEFAULT_SETTINGS, type BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import { compareCsv, compareMarkdown, leaderboardCsv, leaderboardMarkdown } from "../report/arms-render.js";
import { unpairedCsv, unpairedMarkdown } from "../report/unpaired-render.js";
import { judgesReport } from "../analysis/rq/judges.js";
import { pointsReport } from "../analysis/rq/points-rubric.js";
import {
  CONSENSUS_JUDGE,
  CONSENSUS_RESAMPLES,
  consensusReport,
  preparedWithConsensus,
} from "../analysis/rq/judge-consensus.js";
import { consensusMarkdown } from "../report/consensus-render.js";
import { pointsCsv, pointsMarkdown } from "../report/points-render.js";
import { itemDiagnostics } from "../analysis/rq/item-diagnostics.js";
import { itemsCsv, itemsMarkdown } from "../report/items-render.js";
import { judgesMarkdown } from "../report/judges-render.js";
import { prettyJsonChunks } from "../report/json-chunks.js";
import { writeFileAtomic } from "../store/write-store.js";
import { loadValidStore, type Progress } from "./commands.js";
import { jobRunnerFor } from "./job-worker.js";
import { UsageError } from "./errors.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import type { Io } from "./terminal.js";

/** `FIELD=VALUE[,FIELD=VALUE...]`, each FIELD a descriptive field (ARM_FIELDS). */
export function parseSelector(flag: string, raw: unknown): Selector {
  if (raw === undefined) return {};
  const out: Selector = {};
  for (const part of String(raw).split(",")) {
    const at = part.indexOf("=");
    const field = part.slice(0, at).trim() as ArmField;
    if (at < 1 || !ARM_FIELDS.includes(field))
      throw new UsageError(
        `--${flag} needs FIELD=VALUE[,FIELD=VALUE...] with FIELD one of ${ARM_FIELDS.join(", ")}; got "${part}"`,
      );
    if (field in out) throw new UsageError(`--${flag} names ${field} twice`);
    out[field] = part.slice(at + 1);
  }
  return out;
}

/** --seed and --resamples (every interval, the headline ones included) over the default settings. */
export function settingsOf(values: Parsed["values"]): BootstrapSettings {
  const resamples = intOption("resamples", values.resamples, DEFAULT_SETTINGS.resamples, 1);
  return {
    ...DEFAULT_SETTINGS,
    seed: intOption("seed", values.seed, DEFAULT_SETTINGS.seed),
    resamples,
    headline_resamples: resamples,
  };
}

function emit(text: string, values: Parsed["values"], io: Io): void {
  if (typeof values.out === "string") writeFileAtomic(values.out, text);
  else io.out(text);
}

/** `gcpc compare STORE --a SEL --b SEL [--where SEL] [--pair trial|task] [--method NAME]`. */
export async function compareCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("compare takes exactly one store folder (try gcpc help compare)");
  const a = parseSelector("a", values.a);
  const b = parseSelector("b", values.b);
  if (Object.keys(a).length === 0 || Object.keys(b).length === 0) throw new UsageError("compare needs --a and --b");
  const where = parseSelector("where", values.where);
  const format = choiceOption("format", values.format, ["md", "json", "csv"] as const, "md");
  const pair =
    values.pair === undefined ? undefined : choiceOption("pair", values.pair, ["trial", "task"] as const, "trial");
  const settings = settingsOf(values);
  const method = typeof values.method === "string" ? values.method : undefined;
  const corrected = correctionOptions(values, method ?? "gcpc");
  const judge = values.judge === undefined ? undefined : String(values.judge);
  const attempts = attemptOptions(values);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  const prepared = judge === CONSENSUS_JUDGE ? consensusPrepared(store, corrected) : prepareStore(store);
  const r = compareArms(prepared, { a, b, where, pair, method, judge, settings, corrected, attempts });
  if ("available" in r) throw new UsageError(`compare not available: ${r.reason}`);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : "unpaired" in r
        ? format === "csv"
          ? unpairedCsv(r)
          : unpairedMarkdown(r, store.manifest.name, settings)
        : format === "csv"
          ? compareCsv(r)
          : compareMarkdown(r, store.manifest.name, settings);
  emit(text, values, io);
  return 0;
}

/**
 * `--judge consensus`: the store with the Dawid–Skene consensus as a judge (analysis/rq/judge-consensus.ts), or a
 * usage error saying what the consensus needs. Under `--judge-corrected` the consensus is the prediction and is fitted
 * without the reference judge's labels (the labels the correction uses), so it needs two judges besides it.
 */
function consensusPrepared(store: Parameters<typeof preparedWithConsensus>[0], corrected?: CorrectionOptions) {
  const p = preparedWithConsensus(store, corrected === undefined);
  if (!p.counts.judges.includes(CONSENSUS_JUDGE))
    throw new UsageError(
      corrected
        ? "--judge consensus --judge-corrected needs two judges besides the reference judge (the consensus it " +
            "corrects is fitted without the reference's labels); " +
            `this store's judges: ${p.counts.judges.join(", ") || "none"}`
        : "--judge consensus needs two judges, or one and a reference judge with labels (store.json " +
            `reference_judge); this store's judges: ${p.counts.judges.join(", ") || "none"}`,
    );
  return p;
}

/** compare's `--metric pass^k|pass@k --k K` (the pass rate is always there: --metric names the extra figure). */
function attemptOptions(values: Parsed["values"]): { metric: "pass^k" | "pass@k"; k: number } | undefined {
  if (values.metric === undefined) {
    if (values.k !== undefined) throw new UsageError("--k applies to --metric pass^k and pass@k");
    return undefined;
  }
  const metric = choiceOption("metric", values.metric, ["pass^k", "pass@k"] as const, "pass^k");
  if (values.k === undefined) throw new UsageError(`--metric ${metric} needs --k K (attempts per task)`);
  return { metric, k: intOption("k", values.k, 1, 1) };
}

/** `--judge-corrected [--reference-tasks FILE] [--lambda X]`, checked before the store is read. */
function correctionOptions(values: Parsed["values"], metric: string): CorrectionOptions | undefined {
  if (!values["judge-corrected"]) {
    for (const flag of ["reference-tasks", "lambda"])
      if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to --judge-corrected`);
    return undefined;
  }
  if (metric !== "gcpc")
    throw new UsageError("--judge-corrected applies to GCPC (--metric gcpc; compare's default method)");
  if (values.judge !== undefined && values.judge !== CONSENSUS_JUDGE)
    throw new UsageError("--judge-corrected corrects the scoring judge: drop --judge (or score by --judge consensus)");
  const out: { referenceTasks?: Set<string>; lambda?: number | "classic" } = {};
  if (values.lambda === "classic") out.lambda = "classic";
  else if (values.lambda !== undefined) {
    const x = Number(values.lambda);
    if (!(typeof values.lambda === "string" && /^\d*\.?\d+$/.test(values.lambda) && x >= 0 && x <= 1))
      throw new UsageError(`--lambda must be a number in [0, 1] or "classic", got "${values.lambda}"`);
    out.lambda = x;
  }
  if (values["reference-tasks"] !== undefined) {
    const file = String(values["reference-tasks"]);
    if (!existsSync(file)) throw new UsageError(`--reference-tasks ${file}: no such file`);
    // One task id a line; blank lines and lines starting with # are left out.
    const ids = readFileSync(file, "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    if (ids.length === 0) throw new UsageError(`--reference-tasks ${file}: no task id in it`);
    out.referenceTasks = new Set(ids);
  }
  return out;
}

/** `gcpc leaderboard STORE --by harness,model [--metric pass_rate|gcpc|pass^k|pass@k --k K] [--top N]`. */
export async function leaderboardCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError("leaderboard takes exactly one store folder (try gcpc help leaderboard)");
  const by = String(values.by ?? "harness,model")
    .split(",")
    .map((s) => s.trim()) as ArmField[];
  for (const f of by)
    if (!ARM_FIELDS.includes(f)) throw new UsageError(`--by takes fields among ${ARM_FIELDS.join(", ")}; got "${f}"`);
  let metric = choiceOption("metric", values.metric, ["pass_rate", "gcpc", "pass^k", "pass@k"] as const, "pass_rate");
  const attempts = metric === "pass^k" || metric === "pass@k";
  if (attempts && values.k === undefined) throw new UsageError(`--metric ${metric} needs --k K (attempts per task)`);
  if (!attempts && values.k !== undefined) throw new UsageError("--k applies to --metric pass^k and pass@k");
  const k = attempts ? intOption("k", values.k, 1, 1) : undefined;
  const judge = values.judge === undefined ? undefined : String(values.judge);
  if (judge !== undefined && metric !== "gcpc") throw new UsageError("--judge applies to --metric gcpc");
  const top = intOption("top", values.top, PAIRWISE_TOP, 2);
  const corrected = correctionOptions(values, metric);
  const format = choiceOption("format", values.format, ["md", "json", "csv"] as const, "md");
  const settings = settingsOf(values);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  // A store with no PASS/FAIL (a rubric table imported without --outcome) ranks by its score when no metric is
  // named, and says so, rather than stopping with no hint that --metric gcpc exists (issue 55.3).
  if (values.metric === undefined && !store.trajectories.some((t) => t.outcome === "PASS" || t.outcome === "FAIL")) {
    metric = "gcpc";
    io.err("gcpc: the store has no PASS/FAIL outcome, so the leaderboard ranks by GCPC (--metric gcpc)\n");
  }
  progress("grouping the trajectories into arms");
  const prepared = judge === CONSENSUS_JUDGE ? consensusPrepared(store, corrected) : prepareStore(store);
  // The pairwise tests on a second thread for a large store (cli/job-worker.ts); the same rows without it.
  const runner = jobRunnerFor(store.trajectories.length);
  let r: ReturnType<typeof leaderboard>;
  try {
    r = leaderboard(prepared, { by, metric, k, judge, settings, top, stage: progress, corrected, runner });
  } finally {
    await runner?.close();
  }
  if ("available" in r) throw new UsageError(`leaderboard not available: ${r.reason}`);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : format === "csv"
        ? leaderboardCsv(r)
        : leaderboardMarkdown(r, store.manifest.name, settings);
  emit(text, values, io);
  return 0;
}

/** `gcpc items STORE [--format md|json|csv] [--seed N] [--shuffles N] [--resamples N] [--out FILE]`: the items. */
export async function itemsCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("items takes exactly one store (try gcpc help items)");
  const format = choiceOption("format", values.format, ["md", "json", "csv"] as const, "md");
  const settings = settingsOf(values);
  // At least 19: below that no shuffle p can fall under 0.05 ((1 + 0) / (1 + 19) = 0.05).
  const shuffles = intOption("shuffles", values.shuffles, 1000, 19);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress("each checklist item's difficulty, discrimination, redundancy and judge quality");
  const by = values.by === undefined ? undefined : choiceOption("by", values.by, ARM_FIELDS, ARM_FIELDS[0] as ArmField);
  const r = itemDiagnostics(prepareStore(store), settings, shuffles, by);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : format === "csv"
        ? itemsCsv(r)
        : itemsMarkdown(r, store.manifest.name, store.manifest.synthetic === true);
  emit(text, values, io);
  return 0;
}

/**
 * `gcpc points STORE [--by FIELD] [--format md|json|csv] [--seed N] [--resamples N] [--out FILE]`: a points rubric's
 * scores per arm (issue 58.3).
 */
export async function pointsCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("points takes exactly one store (try gcpc help points)");
  const format = choiceOption("format", values.format, ["md", "json", "csv"] as const, "md");
  const settings = settingsOf(values);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress("the points rubric's scores per arm, and its penalty items");
  const by = values.by === undefined ? undefined : choiceOption("by", values.by, ARM_FIELDS, ARM_FIELDS[0] as ArmField);
  const r = pointsReport(prepareStore(store), settings, by);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : format === "csv"
        ? pointsCsv(r)
        : pointsMarkdown(r, store.manifest.name, store.manifest.synthetic === true, settings);
  emit(text, values, io);
  return 0;
}

/**
 * `gcpc consensus STORE [--format md|json] [--seed N] [--resamples N] [--out FILE]`: Dawid–Skene error rates of
 * the store's judges and their consensus (issue 58.2). 200 resamples by default: each refits the model.
 */
export async function consensusCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("consensus takes exactly one store (try gcpc help consensus)");
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const settings = settingsOf({ ...values, resamples: values.resamples ?? String(CONSENSUS_RESAMPLES) });
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress(`each judge's error rates (Dawid–Skene) and the consensus, ${settings.resamples} refits`);
  const r = consensusReport(prepareStore(store), settings);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, consensus: r })].join("")
      : consensusMarkdown(r, store.manifest.name, store.manifest.synthetic === true, settings);
  emit(text, values, io);
  return 0;
}

/** `gcpc judges STORE [--format md|json] [--seed N] [--resamples N] [--out FILE]`: one store's judges. */
export async function judgesCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("judges takes exactly one store folder (try gcpc help judges)");
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const settings = settingsOf(values);
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  progress("judges against the reference judge, and the judge-corrected means");
  const r = judgesReport(prepareStore(store), settings);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : judgesMarkdown(r, store.manifest.name, settings, store.manifest.synthetic === true);
  emit(text, values, io);
  return 0;
}
