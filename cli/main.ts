import { parseArgs } from "node:util";
import { readFileSync, rmSync } from "node:fs";
import { analyzeStore } from "../analysis/rq/report.js";
import { DEFAULT_SETTINGS } from "../analysis/rq/common.js";
import { readStore, issueField, issueMessage } from "./store/read-store.js";
import { decodeUtf8, parseJsonl } from "./store/parse-text.js";
import type { Problem } from "./store/problems.js";
import { TABLE_SCHEMAS } from "../analysis/schema/tables.js";
import type { Store } from "../analysis/schema/tables.js";
import { writeStore, writeFileAtomic } from "./store/write-store.js";
import { StoreValidationError } from "./store/problems.js";
import { generateDemoStore } from "./generate/demo-store.js";
import { reportSections, type PaperFigures } from "./report/sections.js";
import { renderCsv, renderLatex, renderMarkdown } from "./report/render.js";
import { isPaperDemo, loadPaperFigures } from "./report/paper.js";

class UsageError extends Error {}

const HELP: Record<string, string> = {
  main: `gcpc — GCPC workbench: validate verdict stores and reproduce the paper's analyses

Usage:
  gcpc validate STORE                 check a store against the contract
  gcpc report STORE [options]         run RQ1–RQ5 and print the paper's tables
  gcpc generate OUT --seed N          write a synthetic demo store (Parquet)
  gcpc import harbor DIR... --out STORE        import Harbor/SkillsBench trial folders
  gcpc import skillsbench-registry FILE.csv --out STORE   import registry cells
  gcpc help COMMAND                   help for one command

Exit codes: 0 ok, 1 internal error, 2 bad input or usage.`,
  validate: `gcpc validate STORE [--max-problems N]

Reads STORE (tables as .jsonl, .csv or .parquet; see docs/verdict-store.md),
validates every row, key and reference, and prints counts. Problems are listed with
file, line or row, and field (up to --max-problems, default 50). Exit 2 if invalid.`,
  report: `gcpc report STORE [--format md|json|csv|latex] [--seed N] [--resamples N]
                   [--out FILE] [--per-trajectory] [--paper | --no-paper]

Runs RQ1–RQ5 on STORE and prints every table of the paper with CIs and n.
  --format         md (default), json (stable keys, see README), csv (long), latex
  --seed           bootstrap seed (default ${DEFAULT_SETTINGS.seed})
  --resamples      bootstrap resamples per CI (default ${DEFAULT_SETTINGS.resamples})
  --out FILE       write to FILE atomically instead of stdout
  --per-trajectory include per-trajectory metrics (json)
  --paper          show the paper's reported values beside ours (default for the demo store)`,
  import: `gcpc import harbor DIR... --out STORE [--verdicts FILE.jsonl] [--checklists FILE.jsonl]
                                     [--benchmark NAME] [--format parquet|jsonl]
gcpc import skillsbench-registry FILE.csv --out STORE [--format parquet|jsonl]

harbor: walks trial folders (result.json, config.json, verifier/ctrf.json) and writes an
outcome-level store: tasks, trajectories (condition from the path, outcome PASS when
reward = 1, FAIL when 0, non-binary otherwise; exceptions as tags) and verifier_results
from CTRF. --checklists adds items rows, --verdicts adds judgment rows (JSONL, contract
fields), merged by trajectory_id. Folders that cannot be read are listed and skipped.
skillsbench-registry: one trajectory per trial of each cell (passCount of them PASS;
trial order unknown, so only cell-level analyses are meaningful).
The new store is validated before it is kept; OUT must not exist or be empty.`,
  generate: `gcpc generate OUT --seed N [--scale F] [--format parquet|jsonl]

Writes a SYNTHETIC store from the latent-progress model of data/README.md to the new
folder OUT (refuses a non-empty folder). --scale multiplies the number of tasks.`,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h") { console.log(HELP.main); return command ? 0 : 2; }
  if (command === "help") { console.log(HELP[rest[0]] ?? HELP.main); return 0; }
  if (!(command in HELP) || command === "main") throw new UsageError(`unknown command "${command}" (try gcpc --help)`);
  if (rest.includes("--help") || rest.includes("-h")) { console.log(HELP[command]); return 0; }
  const options = {
    format: { type: "string" }, seed: { type: "string" }, resamples: { type: "string" }, out: { type: "string" },
    "per-trajectory": { type: "boolean" }, verdicts: { type: "string" }, checklists: { type: "string" }, benchmark: { type: "string" }, paper: { type: "boolean" }, "no-paper": { type: "boolean" }, scale: { type: "string" }, "max-problems": { type: "string" },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (command === "import") return runImport(positionals, values as Record<string, string | undefined>);
  if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one folder argument (try gcpc help ${command})`);
  const int = (name: string, v: string | undefined, def: number, min = 0) => {
    if (v === undefined) return def;
    if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${v}"`);
    return Number(v);
  };
  const progress = (step: string) => process.stderr.write(`gcpc: ${step}\n`);

  if (command === "generate") {
    if (values.seed === undefined) throw new UsageError("generate needs --seed N");
    const scale = values.scale === undefined ? 1 : Number(values.scale);
    if (!(scale > 0 && scale <= 100)) throw new UsageError(`--scale must be a number in (0, 100], got "${values.scale}"`);
    const format = (values.format ?? "parquet") as "parquet" | "jsonl";
    if (format !== "parquet" && format !== "jsonl") throw new UsageError(`--format for generate is parquet or jsonl, got "${format}"`);
    progress(`generating synthetic store (seed ${values.seed}, scale ${scale})`);
    const store = generateDemoStore({ seed: int("seed", values.seed, 0), scale });
    await writeNewStore(positionals[0], store, format);
    console.log(`wrote ${positionals[0]}: ${store.tasks.length} tasks, ${store.items.length} items, ${store.trajectories.length} trajectories, ${store.judgments.length} judgments (SYNTHETIC)`);
    return 0;
  }

  const maxProblems = int("max-problems", values["max-problems"], 50, 1);
  progress(`reading ${positionals[0]}`);
  const { store, files, warnings, rows } = await readStore(positionals[0], { maxProblems });
  for (const w of warnings) process.stderr.write(`gcpc: warning: ${w}\n`);
  if (command === "validate") {
    console.log(`valid store "${store.manifest.name}"${store.manifest.synthetic ? " (SYNTHETIC)" : ""}`);
    for (const [table, file] of Object.entries(files)) console.log(`  ${table.padEnd(22)} ${String(rows[table] ?? 0).padStart(8)} rows  ${file}`);
    return 0;
  }
  const format = values.format ?? "md";
  if (!["md", "json", "csv", "latex"].includes(format)) throw new UsageError(`--format must be md, json, csv or latex, got "${format}"`);
  const settings = { seed: int("seed", values.seed, DEFAULT_SETTINGS.seed), resamples: int("resamples", values.resamples, DEFAULT_SETTINGS.resamples, 1), level: DEFAULT_SETTINGS.level };
  const report = analyzeStore(store, settings, { perTrajectory: values["per-trajectory"], onProgress: progress });
  const paper: PaperFigures | undefined = values.paper || (isPaperDemo(store.manifest) && !values["no-paper"]) ? loadPaperFigures() : undefined;
  let text: string;
  if (format === "json") text = JSON.stringify(report, null, 2) + "\n";
  else {
    const sections = reportSections(report, paper);
    if (format === "csv") text = renderCsv(sections);
    else if (format === "latex") text = renderLatex(sections);
    else text = renderMarkdown(sections, `# GCPC report: ${report.store.name}${report.store.synthetic ? "\n\n**SYNTHETIC DATA** — generated demo store, not real evaluation results." : ""}\n\nSeed ${settings.seed}, ${settings.resamples} resamples per CI.${paper ? " The \"paper\" column holds the values printed in the GCPC paper, for comparison." : ""}`);
  }
  if (values.out) {
    writeFileAtomic(values.out, text);
    progress(`wrote ${values.out}`);
  } else process.stdout.write(text);
  return 0;
}

/** Writes a new store; an existing non-empty folder is the user's data, refused as a usage error (exit 2). */
async function writeNewStore(out: string, store: Store, format: "parquet" | "jsonl"): Promise<void> {
  try {
    await writeStore(out, store, format);
  } catch (e) {
    if (/refusing to overwrite/.test((e as Error).message)) throw new UsageError((e as Error).message);
    throw e;
  }
}

async function runImport(positionals: string[], values: Record<string, string | undefined>): Promise<number> {
  const [kind, ...inputs] = positionals;
  if (!values.out) throw new UsageError("import needs --out STORE");
  if (inputs.length === 0) throw new UsageError(`import ${kind ?? "KIND"} needs at least one input (try gcpc help import)`);
  const format = (values.format ?? "parquet") as "parquet" | "jsonl";
  if (format !== "parquet" && format !== "jsonl") throw new UsageError(`--format for import is parquet or jsonl, got "${format}"`);
  let store: Store;
  if (kind === "harbor") {
    const { importHarbor } = await import("./import/harbor.js");
    const result = importHarbor(inputs, { benchmark: values.benchmark });
    for (const s of result.skipped) process.stderr.write(`gcpc: skipped ${s.folder}: ${s.reason}\n`);
    store = result.store;
    // User checklists / verdicts: JSONL rows of the contract, validated here so problems name the user's file and line.
    const merge = (file: string, table: "items" | "judgments") => {
      const problems: Problem[] = [];
      const text = decodeUtf8(readFileSync(file), file);
      if (typeof text !== "string") throw new StoreValidationError(file, [text]);
      const known = new Set(store.trajectories.map((t) => t.trajectory_id));
      const rows: unknown[] = [];
      for (const rec of parseJsonl(text, file, (p) => problems.push(p))) {
        const parsed = TABLE_SCHEMAS[table].safeParse(rec.values);
        if (!parsed.success) for (const issue of parsed.error.issues) problems.push({ file, line: rec.line, field: issueField(issue), message: issueMessage(issue, rec.values) });
        else if (table === "judgments" && !known.has((parsed.data as { trajectory_id: string }).trajectory_id)) problems.push({ file, line: rec.line, field: "trajectory_id", message: `unknown trajectory ${JSON.stringify((parsed.data as { trajectory_id: string }).trajectory_id)} (not among the imported trials)` });
        else rows.push(parsed.data);
      }
      if (problems.length) throw new StoreValidationError(file, problems.slice(0, 50), Math.max(0, problems.length - 50));
      (store as unknown as Record<string, unknown[]>)[table] = [...(((store as unknown as Record<string, unknown[]>)[table]) ?? []), ...rows];
    };
    if (values.checklists) merge(values.checklists, "items");
    if (values.verdicts) merge(values.verdicts, "judgments");
    console.log(`imported ${store.trajectories.length} trials of ${store.tasks.length} tasks (${result.skipped.length} folder problems listed on stderr; ${result.jobLevel.length} job-level result.json ignored)`);
  } else if (kind === "skillsbench-registry") {
    if (inputs.length !== 1) throw new UsageError("import skillsbench-registry takes one CSV file");
    const { importRegistry } = await import("./import/registry.js");
    const { store: s, problems } = importRegistry(readFileSync(inputs[0], "utf8"), inputs[0], { benchmark: values.benchmark });
    if (problems.length) throw new StoreValidationError(inputs[0], problems.slice(0, 50), Math.max(0, problems.length - 50));
    store = s;
    console.log(`imported ${store.trajectories.length} trials in ${new Set(store.trajectories.map((t) => JSON.stringify([t.task_id, t.harness, t.model, t.condition]))).size} cells of ${store.tasks.length} tasks`);
  } else throw new UsageError(`unknown import kind "${kind}" (harbor or skillsbench-registry)`);
  await writeNewStore(values.out, store, format);
  // Validate what was written; a store that fails the contract is not kept.
  try {
    await readStore(values.out);
  } catch (e) {
    rmSync(values.out, { recursive: true, force: true });
    throw e;
  }
  console.log(`wrote ${values.out}`);
  return 0;
}

// A closed pipe (`gcpc report … | head`) is not an error: stop quietly.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => {
    if (e instanceof UsageError) { process.stderr.write(`gcpc: ${e.message}\n`); process.exitCode = 2; }
    else if (e instanceof StoreValidationError) { process.stderr.write(`gcpc: ${e.message}\n`); process.exitCode = 2; }
    else { process.stderr.write(`gcpc: internal error: ${(e as Error).stack ?? e}\n`); process.exitCode = 1; }
  },
);
