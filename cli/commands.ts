import { runnerAhead, settleRunner, type WorkerJobRunner } from "./job-worker.js";
import { prettyJsonBytes, prettyJsonChunks } from "../report/json-chunks.js";
import { existsSync, renameSync, rmSync } from "node:fs";
import { analyzeStore, type AnalysisReport } from "../analysis/rq/report.js";
import {
  DEFAULT_SETTINGS,
  headlineRule,
  INTERVAL_METHODS,
  type BootstrapSettings,
} from "../analysis/estimates/bootstrap-interval.js";
import type { Store, StoreFrame } from "../analysis/schema/store.js";
import { benchmarkSubset, benchmarksOf } from "../analysis/schema/subset.js";
import { readStore } from "../store/read-store.js";
import { openStore } from "../store/open-store.js";
import { isClickhouseLocation } from "../store/clickhouse/location.js";
import { writeStore, writeFileAtomic, writeChunksAtomic } from "../store/write-store.js";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { reportSections } from "../report/sections.js";
import { escapeMarkdownCell, renderMarkdown, renderTidyCsv } from "../report/render.js";
import { renderLatex } from "../report/latex.js";
import { tidyFigures } from "../report/tidy.js";
import { isPaperDemo, loadPaperFigures, type PaperFigures } from "../report/paper.js";
import { UsageError } from "./errors.js";
import { checkWriteTarget } from "./write-guard.js";
import { choiceOption, intOption, type Parsed } from "./options.js";
import { stripControl } from "../report/strip-control.js";
import type { Io } from "./terminal.js";
import { writeShardedStore } from "../store/generate/sharded-store.js";
import { IMPORTERS, importerOf } from "../store/import/importers.js";
import { mergeStores, storeRows } from "../store/import/merge-store.js";
import { importSummary } from "../store/import/summary.js";
import { watchReads } from "../store/import/walk.js";
import { trajectoryFrame, type FrameTables } from "../analysis/rq/trajectory-frame.js";
import { frameWatch } from "./early-frame.js";
import { startEarlyOutcomes, startEarlyStored, type EarlyJobs } from "../analysis/rq/early-jobs.js";

export type Progress = (step: string) => void;

/** Inputs must exist: a clear "no such file or directory" naming the path. */
function requireExisting(paths: string[]): void {
  for (const p of paths) if (!existsSync(p)) throw new UsageError(`${p}: no such file or directory`);
}

export function oneStore(cmd: string, positionals: string[]): string {
  if (positionals.length !== 1)
    throw new UsageError(`${cmd} takes exactly one store (a folder or clickhouse://…; try gcpc help ${cmd})`);
  if (!isClickhouseLocation(positionals[0])) requireExisting(positionals);
  return positionals[0];
}

export async function loadValidStore(
  dir: string,
  values: Parsed["values"],
  io: Io,
  progress: Progress,
  options: {
    evidence?: boolean;
    /** `frame`, then `methodScores`, as cli/early-frame.ts's `frameWatch` calls them. */
    onFrameTables?: { frame: (tables: FrameTables) => void; methodScores: (tables: FrameTables) => void };
  } = {},
) {
  progress(`reading ${dir}`);
  const result = await openStore(dir, {
    maxProblems: intOption("max-problems", values["max-problems"], 50, 1),
    onProgress: progress,
    evidence: options.evidence,
    onTableRead: options.onFrameTables && frameWatch(options.onFrameTables.frame, options.onFrameTables.methodScores),
  });
  for (const w of result.warnings) io.err(`gcpc: warning: ${w}\n`);
  progress(
    `read ${Object.values(result.rows).reduce((a, b) => a + b, 0)} rows in ${Object.keys(result.rows).length} tables`,
  );
  return result;
}

export async function validateCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  const dir = oneStore("validate", positionals);
  const { store, files, rows } = await loadValidStore(dir, values, io, progress);
  io.out(`valid store "${stripControl(store.manifest.name)}"${store.manifest.synthetic ? " (SYNTHETIC)" : ""}\n`);
  for (const [table, file] of Object.entries(files))
    io.out(`  ${table.padEnd(22)} ${String(rows[table] ?? 0).padStart(8)} rows  ${file}\n`);
  return 0;
}

const REPORT_FORMATS = ["md", "json", "csv", "latex"] as const;

export async function reportCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  const dir = oneStore("report", positionals);
  const format = choiceOption("format", values.format, REPORT_FORMATS, "md");
  if (values["per-trajectory"] && format !== "json")
    throw new UsageError(`--per-trajectory applies to --format json only (got ${format})`);
  if (values.paper && values["no-paper"]) throw new UsageError("--paper and --no-paper contradict each other");
  if ((values.paper || values["no-paper"]) && format === "json")
    throw new UsageError("--paper / --no-paper apply to md, csv and latex (json never holds the paper's values)");
  const settings = {
    seed: intOption("seed", values.seed, DEFAULT_SETTINGS.seed),
    resamples: intOption("resamples", values.resamples, DEFAULT_SETTINGS.resamples, 1),
    // An explicit --resamples applies to every interval, the headline ones included.
    headline_resamples: intOption("resamples", values.resamples, DEFAULT_SETTINGS.headline_resamples, 1),
    level: DEFAULT_SETTINGS.level,
    interval: choiceOption("interval", values.interval, INTERVAL_METHODS, "percentile"),
  };
  const threads = intOption("threads", values.threads, 2, 1);
  if (threads > 2) throw new UsageError(`--threads must be 1 or 2 (one worker thread at most), got "${threads}"`);
  const out = values.out as string | undefined;
  if (out) checkWriteTarget(out, { kind: "file", inputs: [dir] });
  // The store is not held past this call: writing a large report then reuses its memory.
  const { report, manifest } = await analyzeStoreAt(dir, values, io, progress, settings, threads);
  const paper = paperFiguresFor(manifest, values);
  if (format === "json") {
    // In chunks: at 100× the paper the indented report is longer than a JavaScript string can be.
    if (out) {
      progress(`writing ${out}`);
      // Bytes encoded piece by piece into one buffer, each chunk written before the next is made.
      writeChunksAtomic(out, prettyJsonBytes(report));
      progress(`wrote ${out}`);
    } else for (const chunk of prettyJsonChunks(report)) io.out(chunk);
    return 0;
  }
  const text = reportText(report, format, paper, settings);
  if (out) {
    writeFileAtomic(out, text);
    progress(`wrote ${out}`);
  } else io.out(text);
  return 0;
}

/** The paper's figures a report shows beside its own: with --paper, or for the paper demo unless --no-paper. */
export function paperFiguresFor(
  manifest: Parameters<typeof isPaperDemo>[0],
  values: { paper?: unknown; "no-paper"?: unknown },
): PaperFigures | undefined {
  return values.paper || (isPaperDemo(manifest) && !values["no-paper"]) ? loadPaperFigures() : undefined;
}

/** What `gcpc report --format md|csv|latex` prints for an analysis (the golden test renders every format of one). */
export function reportText(
  report: AnalysisReport,
  format: "md" | "csv" | "latex",
  paper: PaperFigures | undefined,
  settings: { seed: number; resamples: number; headline_resamples: number },
): string {
  if (format === "csv") return renderTidyCsv(tidyFigures(report, paper));
  if (format === "latex") return renderLatex(reportSections(report, paper));
  const name = escapeMarkdownCell(report.store.name);
  const synthetic = report.store.synthetic
    ? "\n\n**SYNTHETIC DATA**: generated or hand-made store, not real evaluation results."
    : "";
  const paperNote = paper
    ? ' The "paper" column holds the values printed in the GCPC paper, for comparison: a value marked "demo input" ' +
      'is an input of the demo generator (agrees by construction), "calibrated" one its parameters were searched ' +
      'to approach and that lands within its stated tolerance, "calibration target missed" one searched for and ' +
      'not reached, "other population" one the paper computed on SkillsBench alone beside our figure pooled over ' +
      `${report.store.benchmarks.length} benchmark(s) (\`--benchmark skillsbench-1.1\` compares like with like); ` +
      '"differs from the paper" one that is none of these and lies beyond its tolerance (±0.03 for RQ1, ±0.04 ' +
      "shares, ±0.05 medians, ablations and reliability α, ±0.10 otherwise, 5% of a count); an unmarked value " +
      "is reproduced " +
      "within it."
    : "";
  return renderMarkdown(
    reportSections(report, paper),
    `# GCPC report: ${name}${synthetic}\n\n` +
      `Seed ${settings.seed}; RQ1 AUC and ΔAUC intervals: ${headlineRule(settings)}; ` +
      `${settings.resamples} per other interval.${paperNote}`,
  );
}

/** Above scale 100 the store is generated in shards (store/generate/sharded-store.ts); 1000 is ≈ 5 M trajectories. */
const MAX_SCALE = 1000;

/** Reads, validates and analyses a store; only the report and the manifest outlive the call. */
export async function analyzeStoreAt(
  dir: string,
  values: Parsed["values"],
  io: Io,
  progress: Progress,
  settings: BootstrapSettings,
  threads: number,
) {
  // With two threads, the intervals that read no judgment start on the worker as soon as their tables are
  // read, while this thread reads the judgments (analysis/rq/early-jobs.ts; the same report either way).
  // Not with --benchmark: the analysis then reads a subset of the store.
  // A ClickHouse store's read has no table-by-table stages to start from.
  const early = threads === 2 && values.benchmark === undefined && !isClickhouseLocation(dir);
  const started: { runner?: WorkerJobRunner; early?: EarlyJobs } = { runner: early ? runnerAhead(dir) : undefined };
  const onFrameTables = early
    ? {
        frame: (tables: FrameTables) => startEarly(tables, settings, started, progress),
        methodScores: (tables: FrameTables) => startEarlyMethodScores(tables, started, progress),
      }
    : undefined;
  try {
    const { store: whole } = await loadValidStore(dir, values, io, progress, { onFrameTables });
    const store = values.benchmark === undefined ? whole : onlyBenchmark(whole, String(values.benchmark));
    started.runner = threads === 2 ? settleRunner(started.runner, store.trajectories.length) : undefined;
    const report = analyzeStore(store, settings, {
      perTrajectory: Boolean(values["per-trajectory"]),
      onProgress: progress,
      runner: started.runner,
      // Only a frame the method scores completed stands for the store (else its plans compute everything).
      early: started.early?.rq1Stored ? started.early : undefined,
    });
    return { report, manifest: store.manifest };
  } finally {
    await started.runner?.close();
  }
}

/** Starts the uplift rows on a worker, when the store is large enough to use one (analysis/rq/early-jobs.ts). */
function startEarly(
  tables: FrameTables,
  settings: BootstrapSettings,
  started: { runner?: WorkerJobRunner; early?: EarlyJobs },
  progress: Progress,
): void {
  started.runner = settleRunner(started.runner, tables.trajectories.length);
  if (!started.runner) return;
  try {
    started.early = startEarlyOutcomes(trajectoryFrame(tables), settings, started.runner);
  } catch {
    // Tables the read goes on to reject (e.g. repeated ids): the read reports them; nothing is started.
    return;
  }
  const { outcomes } = started.early;
  progress(`started ${"available" in outcomes.plan ? 0 : outcomes.plan.jobs.length} uplift intervals on the worker`);
}

/** Then, once the method scores are read, the stored methods' AUC intervals. */
function startEarlyMethodScores(
  tables: FrameTables,
  started: { runner?: WorkerJobRunner; early?: EarlyJobs },
  progress: Progress,
): void {
  if (!started.early) return;
  try {
    startEarlyStored(started.early, tables, started.runner);
  } catch {
    // As above: the read reports what was wrong; the report's plans then compute these intervals.
    started.early.rq1Stored = undefined;
    return;
  }
  progress(`started ${started.early.rq1Stored?.jobs.length ?? 0} stored methods' AUC intervals on the worker`);
}

export async function generateCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError("generate takes exactly one output folder (try gcpc help generate)");
  if (values.seed === undefined) throw new UsageError("generate needs --seed N");
  const seed = intOption("seed", values.seed, 0);
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (!(scale > 0 && scale <= MAX_SCALE))
    throw new UsageError(`--scale must be a number in (0, ${MAX_SCALE}], got "${values.scale}"`);
  const format = choiceOption("format", values.format, ["parquet", "jsonl"] as const, "parquet");
  const out = positionals[0];
  checkWriteTarget(out, { kind: "new-folder", inputs: [] });
  if (scale > 100) {
    const c = await writeShardedStore(out, {
      seed,
      scale,
      format,
      onShard: (k, n) => progress(`generating shard ${k + 1} of ${n} (scale ${scale / n} each)`),
    });
    io.out(
      `wrote ${out}: ${c.tasks} tasks, ${c.items} items, ${c.trajectories} trajectories, ` +
        `${c.judgments} judgments in ${c.shards} shards (SYNTHETIC)\n`,
    );
    return 0;
  }
  progress(`generating synthetic store (seed ${seed}, scale ${scale})`);
  const store = generateDemoStore({ seed, scale });
  progress(`writing ${store.judgments.length} judgments of ${store.trajectories.length} trajectories`);
  await writeStore(out, store, format);
  io.out(
    `wrote ${out}: ${store.tasks.length} tasks, ${store.items.length} items, ` +
      `${store.trajectories.length} trajectories, ${store.judgments.length} judgments (SYNTHETIC)\n`,
  );
  return 0;
}

/** An import prints a progress line per this many input files read. */
const READS_PER_LINE = 500;

export async function importCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  const [kind, ...inputs] = positionals;
  const importer = importerOf(kind ?? "");
  const kinds = IMPORTERS.map((i) => i.kind).join(", ");
  if (!importer) throw new UsageError(`unknown import kind "${kind ?? ""}" (${kinds}; try gcpc help import)`);
  const out = values.out as string | undefined;
  const into = values.into as string | undefined;
  if (!out === !into) throw new UsageError("import needs --out STORE (a new store) or --into STORE (an existing one)");
  if (inputs.length === 0) throw new UsageError(`import ${kind} needs at least one input (try gcpc help import)`);
  if (into && values.format !== undefined) throw new UsageError("--format applies to --out (--into keeps the store's)");
  const format = choiceOption("format", values.format, ["parquet", "jsonl"] as const, "parquet");
  // Each importer accepts only its own flags: one of another importer's is a usage error naming which it is.
  const own: Record<string, string | string[] | undefined> = {};
  for (const [flag, v] of Object.entries(values)) {
    if (v === undefined || ["out", "into", "format", "max-problems"].includes(flag)) continue;
    if (!(flag in importer.options)) {
      const owners = IMPORTERS.filter((i) => flag in i.options).map((i) => `import ${i.kind}`);
      throw new UsageError(`--${flag} applies to ${owners.join(", ") || "no importer"}, not import ${kind}`);
    }
    own[flag] = v === true ? "true" : (v as string | string[]);
  }
  const files = Object.entries(own)
    .filter(([flag]) => importer.options[flag].file)
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v as string]));
  requireExisting([...inputs, ...files]);
  const target = (out ?? into)!;
  if (out) checkWriteTarget(out, { kind: "new-folder", inputs: [...inputs, ...files] });
  else checkWriteTarget(into!, { kind: "store", inputs: [...inputs, ...files] });
  progress(`reading ${inputs.length} input(s)`);
  let read = 0;
  const stopWatching = watchReads(() => {
    if (++read % READS_PER_LINE === 0) progress(`read ${read} files`);
  });
  const result = await importer.read(inputs, own).finally(stopWatching);
  for (const x of result.skipped) io.err(`gcpc: skipped ${stripControl(x.folder)}: ${stripControl(x.reason)}\n`);
  if (result.store.trajectories.length === 0)
    throw new UsageError(`import ${kind}: nothing imported (${result.skipped.length} input problem(s) listed above)`);
  const m = result.store.manifest;
  if (out && m.reference_judge !== undefined && m.reference_judge === (m.primary_judge ?? "primary"))
    throw new UsageError(
      `import ${kind}: the reference judge ${JSON.stringify(m.reference_judge)} is the only judge of the input, and ` +
        "the reference is never the scoring judge; add its labels --into a store that has the judge to check, or " +
        "import without --reference-judge",
    );
  if (out) {
    for (const line of importSummary(kind, result)) io.out(`${stripControl(line)}\n`);
    await writeValidated(out, result.store, format);
    io.out(`wrote ${out}\n`);
    return 0;
  }
  // --into: the merge is checked before anything is printed, so a refusal (and its fix) is all the user sees,
  // with no summary of an import that did not happen above it (issue 45.4).
  const existing = await storeRows(target);
  const { store, counts } = mergeStores(existing.store, result.store);
  for (const line of importSummary(kind, result)) io.out(`${stripControl(line)}\n`);
  await writeValidated(`${target}.gcpc-into-${process.pid}`, store, existing.format, target);
  const added = Object.entries(counts.added).filter(([, n]) => n > 0);
  const dups = Object.entries(counts.duplicates).filter(([, n]) => n > 0);
  const list = (xs: [string, number][]) => xs.map(([t, n]) => `${n} ${t}`).join(", ");
  io.out(
    `added to ${target}: ${list(added) || "nothing new"}` +
      `${dups.length ? `; already there (identical, kept once): ${list(dups)}` : ""}\n`,
  );
  return 0;
}

/**
 * The store written to `dir` and read back through the contract's validation; a store that fails is removed.
 * With `replace`, `dir` is a staging folder beside it: the validated store then takes the place of `replace`
 * (the old one renamed aside and removed only after), so an interrupted or failed run leaves it as it was.
 */
async function writeValidated(dir: string, store: Store, format: "parquet" | "jsonl", replace?: string) {
  rmSync(dir, { recursive: true, force: true });
  try {
    await writeStore(dir, store, format);
    await readStore(dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  if (!replace) return;
  const aside = `${replace}.gcpc-old-${process.pid}`;
  renameSync(replace, aside);
  renameSync(dir, replace);
  rmSync(aside, { recursive: true, force: true });
}

/** `--benchmark NAME`: the analysis on that benchmark's tasks alone (a name the store does not hold is an error). */
function onlyBenchmark(store: StoreFrame, benchmark: string): StoreFrame {
  const known = benchmarksOf(store);
  if (!known.includes(benchmark))
    throw new UsageError(`--benchmark ${JSON.stringify(benchmark)}: the store's benchmarks are ${known.join(", ")}`);
  return benchmarkSubset(store, benchmark);
}
