import { existsSync, readFileSync } from "node:fs";
import { csvParse, tsvParse } from "d3";
import { prepareStore } from "../analysis/rq/prepared.js";
import { ARM_FIELDS, type ArmField } from "../analysis/rq/arms/compare-arms.js";
import { history, orderByField, type OrderField } from "../analysis/rq/arms/history.js";

import { historyMarkdown } from "../report/history-render.js";
import { prettyJsonChunks } from "../report/json-chunks.js";
import { writeFileAtomic } from "../store/write-store.js";
import { loadValidStore, type Progress } from "./commands.js";
import { UsageError } from "./errors.js";
import { choiceOption, numberOption, type Parsed } from "./options.js";
import { settingsOf } from "./arms-command.js";
import type { Io } from "./terminal.js";

/**
 * An order file: arm → its order key. CSV or TSV with a header (the first column the arm, the second what orders
 * it: a date, a version number), or `NAME: VALUE` lines (YAML's flat mapping, as METR's release_dates.yaml; a line
 * ending in ":" opens a section and is skipped). Keys compare as text: ISO dates and zero-padded versions sort.
 */
export function orderFile(file: string): Map<string, string> {
  const text = readFileSync(file, "utf8");
  const out = new Map<string, string>();
  const first = text.split("\n").find((l) => l.trim() !== "" && !l.trim().startsWith("#")) ?? "";
  if (!first.includes(",") && !first.includes("\t")) {
    text.split("\n").forEach((line, i) => {
      const t = line.trim();
      if (t === "" || t.startsWith("#") || t.endsWith(":")) return;
      const at = t.lastIndexOf(": ");
      if (at < 1) throw new UsageError(`--order ${file}, line ${i + 1}: expected NAME: VALUE, got "${t}"`);
      const unquote = (s: string) => s.trim().replace(/^(["'])(.*)\1$/, "$2");
      out.set(unquote(t.slice(0, at)), unquote(t.slice(at + 2)));
    });
  } else {
    const rows = (first.includes("\t") ? tsvParse : csvParse)(text);
    const [arm, key] = rows.columns;
    if (!key) throw new UsageError(`--order ${file}: needs two columns (the arm, what orders it)`);
    rows.forEach((r, i) => {
      if (!r[arm] || !r[key]) throw new UsageError(`--order ${file}, row ${i + 1}: an empty ${!r[arm] ? arm : key}`);
      out.set(r[arm]!, r[key]!);
    });
  }
  if (out.size === 0) throw new UsageError(`--order ${file}: no arm in it`);
  return out;
}

/** `gcpc history STORE --by FIELD --order FILE|FIELD [...]` (issue 56.2). */
export async function historyCommand({ values, positionals }: Parsed, io: Io, progress: Progress): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("history takes exactly one store folder (try gcpc help history)");
  const by = String(values.by ?? "model") as ArmField;
  if (!ARM_FIELDS.includes(by)) throw new UsageError(`--by takes one of ${ARM_FIELDS.join(", ")}; got "${by}"`);
  if (values.order === undefined) throw new UsageError("history needs --order FILE (arm, date or version) or FIELD");
  const orderArg = String(values.order);
  const metric = choiceOption("metric", values.metric, ["pass_rate", "gcpc"] as const, "pass_rate");
  // As gcpc gate reads them: history gates each step.
  const margin = numberOption("margin", values.margin, 0, (x) => x >= 0 && x < 1, "a number in [0, 1)");
  const alpha = numberOption("alpha", values.alpha, 0.05, (x) => x > 0 && x < 0.5, "a number in (0, 0.5)");
  const format = choiceOption("format", values.format, ["md", "json"] as const, "md");
  const settings = settingsOf(values);
  const fromFile = existsSync(orderArg) ? orderFile(orderArg) : undefined;
  const { store } = await loadValidStore(positionals[0], values, io, progress);
  const p = prepareStore(store);
  let order = fromFile;
  if (!order) {
    // A field: each arm ordered by its trajectories' least value of it (e.g. started_at: its first run).
    if (!(["started_at", "completed_at", ...ARM_FIELDS] as string[]).includes(orderArg))
      throw new UsageError(
        `--order ${orderArg}: no such file, and not a field (started_at, completed_at, ${ARM_FIELDS.join(", ")})`,
      );
    order = orderByField(p, by, orderArg as OrderField);
  }
  progress(`the history of ${order.size} versions`);
  const r = history(p, { by, order, metric, margin, alpha, settings });
  if ("available" in r) throw new UsageError(`history not available: ${r.reason}`);
  const text =
    format === "json"
      ? [...prettyJsonChunks({ store: store.manifest.name, settings, ...r })].join("")
      : historyMarkdown(r, store.manifest.name, settings);
  if (typeof values.out === "string") writeFileAtomic(values.out, text);
  else io.out(text);
  return 0;
}
