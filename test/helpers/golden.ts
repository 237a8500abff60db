// Report outputs whose bytes must not change unless a figure changes on purpose (a refactor
// must leave behaviour unchanged). `npm run golden:update` rewrites test/golden/report-outputs.json (a digest
// per output) and test/golden/report-figures.json (the figures themselves, readable), and prints every
// figure that changed; a failing golden test names the figures that moved, not only the output.
import { createHash } from "node:crypto";
import { analyzeStoreAt, paperFiguresFor, reportText } from "../../cli/commands.js";
import { DEFAULT_SETTINGS } from "../../analysis/estimates/bootstrap-interval.js";
import { prettyJsonChunks } from "../../report/json-chunks.js";

export const GOLDEN_FILE = new URL("../golden/report-outputs.json", import.meta.url);
export const GOLDEN_FIGURES_FILE = new URL("../golden/report-figures.json", import.meta.url);

export const GOLDEN_RUNS: string[][] = [
  ["data/demo", "--format", "json"],
  ["data/demo", "--format", "md"],
  ["data/demo", "--format", "csv"],
  ["data/demo", "--format", "latex"],
  ["examples/jsonl-store", "--format", "json"],
  ["examples/csv-store", "--format", "json"],
  ["data/real/harbor-sample", "--format", "json"],
  ["data/real/skillsbench-registry", "--format", "json"],
];

export type Digests = Record<string, { sha256: string; bytes: number }>;
/** Per golden run, figure key → value as printed (long arrays and long text as a digest with their size). */
export type Figures = Record<string, Record<string, string>>;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * sha-256 and size of `gcpc report ARGS` for every golden run, and each run's figures. Each store is analysed
 * once, as `gcpc report` analyses it (analyzeStoreAt, default settings), and every format is rendered from
 * that analysis by the command's own renderers (prettyJsonChunks, reportText): the bytes the command prints
 * (test/cli.test.ts compares one format with a run of the command itself).
 */
export async function goldenOutputs(): Promise<{ digests: Digests; figures: Figures }> {
  const digests: Digests = {};
  const figures: Figures = {};
  const outputs = new Map<string, Map<string, string>>();
  for (const [dir, , format] of GOLDEN_RUNS) {
    if (!outputs.has(dir)) outputs.set(dir, new Map());
    outputs.get(dir)!.set(format, "");
  }
  for (const [dir, texts] of outputs) {
    const io = { out: () => {}, err: () => {}, progressTty: false };
    const { report, manifest } = await analyzeStoreAt(dir, {}, io, () => {}, DEFAULT_SETTINGS, 2);
    const paper = paperFiguresFor(manifest, {});
    for (const format of texts.keys())
      texts.set(
        format,
        format === "json"
          ? [...prettyJsonChunks(report)].join("")
          : reportText(report, format as "md" | "csv" | "latex", paper, DEFAULT_SETTINGS),
      );
  }
  for (const args of GOLDEN_RUNS) {
    const text = outputs.get(args[0])!.get(args[2])!;
    const key = `gcpc report ${args.join(" ")}`;
    digests[key] = { sha256: sha(text), bytes: Buffer.byteLength(text, "utf8") };
    figures[key] = figuresOf(args[2], text);
  }
  return { digests, figures };
}

/** The digests alone (what the byte-identity check compares). */
export async function goldenDigests(): Promise<Digests> {
  return (await goldenOutputs()).digests;
}

/** A run's figures: JSON leaves by path, tidy CSV rows by (section, quantity, group), md/latex sections. */
export function figuresOf(format: string, text: string): Record<string, string> {
  if (format === "json") {
    const out: Record<string, string> = {};
    flatten(JSON.parse(text), "", out);
    return out;
  }
  if (format === "csv") return csvFigures(text);
  // md and latex: one digest per section (a heading or a `% table` fragment), named by its first line.
  const marker = format === "md" ? /^## /m : /^% table /m;
  const out: Record<string, string> = {};
  for (const part of text.split(new RegExp(`(?=${marker.source})`, "m"))) {
    const name = part.split("\n", 1)[0].slice(0, 100);
    out[name] = `sha256:${sha(part).slice(0, 16)} (${part.length} chars)`;
  }
  return out;
}

/** Every leaf of a JSON value by path; arrays of more than 100 entries and text over 120 characters are digested. */
function flatten(v: unknown, path: string, out: Record<string, string>): void {
  if (Array.isArray(v) && v.length > 100) {
    out[`${path}[]`] = `sha256:${sha(JSON.stringify(v)).slice(0, 16)} (${v.length} entries)`;
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => {
      flatten(x, `${path}[${entryName(x, i)}]`, out);
    });
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) flatten(x, path ? `${path}.${k}` : k, out);
  } else {
    const s = JSON.stringify(v);
    out[path] = s.length > 120 ? `sha256:${sha(s).slice(0, 16)} (${s.length} chars)` : s;
  }
}

/** An array entry's name: its identifying field where it has one (method, group, variant, ...), else its index. */
function entryName(x: unknown, i: number): string {
  if (x && typeof x === "object" && !Array.isArray(x)) {
    const o = x as Record<string, unknown>;
    for (const k of ["method", "group", "variant", "benchmark", "judge", "scheme", "task_id", "from"])
      if (typeof o[k] === "string") return k === "from" ? `${o.from}→${o.to}` : String(o[k]);
  }
  return String(i);
}

/** Tidy CSV rows keyed by section | quantity | group (repeated keys numbered), valued by the rest of the row. */
function csvFigures(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.trimEnd().split("\n");
  for (const line of lines.slice(1)) {
    const cells = line.split(",");
    let key = cells.slice(0, 3).join(" | ");
    for (let n = 2; key in out; n++) key = `${cells.slice(0, 3).join(" | ")} #${n}`;
    out[key] = cells.slice(3).join(",");
  }
  return out;
}

/** The figures that differ between two runs' figure maps: added, removed or changed, as "key: old → new". */
export function changedFigures(before: Figures, after: Figures): string[] {
  const lines: string[] = [];
  for (const run of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[run] ?? {};
    const b = after[run] ?? {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (a[k] !== b[k]) lines.push(`${run} :: ${k}: ${a[k] ?? "(absent)"} → ${b[k] ?? "(absent)"}`);
  }
  return lines;
}
