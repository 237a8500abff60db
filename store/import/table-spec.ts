// gcpc import table's options read into a spec: the columns, the labels' scale, the outcome rule.
import { InputError } from "../problems.js";
import { listOption, textOption, type ImporterValues } from "./importer.js";

/** The options, parsed. */
export interface TableSpec {
  task: string;
  item?: string;
  label?: string;
  items?: string[];
  model?: string;
  harness?: string;
  condition?: string;
  trial?: string;
  trajectory?: string;
  judge?: string;
  judgeColumn?: string;
  scale?: [number, number];
  notApplicable: string[];
  abstain: string[];
  skipItems: string[];
  /** --determines-outcome: the items the official outcome is computed from ("all", or item ids). */
  determines?: string[] | "all";
  outcome?: string;
  pass?: string;
  threshold?: number;
  benchmark: string;
  name?: string;
  referenceJudge?: string;
  /** --primary-judge: of several judges in --judge-column, the one that scores. */
  primaryJudge?: string;
  /** Long tables: the column of the judge's rationale (judgments.evidence). */
  evidence?: string;
  /** Long tables: the column of the item's text (items.text; default the item id). */
  itemText?: string;
  /** Long tables: the column of the item's prerequisites (items.prerequisites: ids, comma-separated or JSON). */
  prerequisites?: string;
  /** Long tables: the column of the item's signed points (items.points, a points rubric; --points COL). */
  points?: string;
  /** --strict: refuse --outcomes rows that match no trajectory, instead of listing them. */
  strict: boolean;
}

/** The options of `gcpc import table`, checked; usage problems are InputErrors. */
export function tableSpec(values: ImporterValues): TableSpec {
  const need = (name: string) => {
    const v = textOption(values, name);
    if (!v) throw new InputError(`import table needs --${name}`);
    return v;
  };
  const list = (name: string) =>
    listOption(values, name)
      .flatMap((v) => v.split(","))
      .map((x) => x.trim())
      .filter(Boolean);
  const determines = list("determines-outcome");
  const long = textOption(values, "item") !== undefined || textOption(values, "label") !== undefined;
  const wide = list("items");
  if (long === wide.length > 0)
    throw new InputError("import table needs --item COL --label COL (long) or --items COL,COL,... (wide)");
  if (textOption(values, "judge") && textOption(values, "judge-column"))
    throw new InputError("give --judge NAME or --judge-column COL, not both");
  const spec: TableSpec = {
    task: need("task"),
    ...(long ? { item: need("item"), label: need("label") } : { items: wide }),
    model: textOption(values, "model"),
    harness: textOption(values, "harness"),
    condition: textOption(values, "condition"),
    trial: textOption(values, "trial"),
    trajectory: textOption(values, "trajectory"),
    judge: textOption(values, "judge"),
    judgeColumn: textOption(values, "judge-column"),
    notApplicable: list("not-applicable"),
    abstain: list("abstain"),
    skipItems: list("skip-items"),
    determines: determines.length === 0 ? undefined : determines.join(",") === "all" ? "all" : determines,
    benchmark: textOption(values, "benchmark") ?? "imported-table",
    name: textOption(values, "name"),
    referenceJudge: textOption(values, "reference-judge"),
    primaryJudge: textOption(values, "primary-judge"),
    evidence: textOption(values, "evidence"),
    itemText: textOption(values, "item-text"),
    prerequisites: textOption(values, "prerequisites"),
    strict: textOption(values, "strict") === "true",
  };
  for (const flag of ["evidence", "item-text", "prerequisites"])
    if (!long && textOption(values, flag) !== undefined)
      throw new InputError(
        `--${flag} COL reads one column per row, so it applies to a long table (--item, --label); a wide table's ` +
          "item texts and prerequisites come from --checklist FILE (columns item, text, prerequisites)",
      );
  if (spec.primaryJudge !== undefined && !spec.judgeColumn)
    throw new InputError("--primary-judge chooses among the judges of --judge-column COL");
  return withOutcomeAndScale(spec, values);
}

export function withOutcomeAndScale(spec: TableSpec, values: ImporterValues): TableSpec {
  const scale = textOption(values, "scale");
  if (scale !== undefined) {
    const m = /^\s*(-?[\d.]+)\s*:\s*(-?[\d.]+)\s*$/.exec(scale);
    const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo))
      throw new InputError(`--scale must be MIN:MAX with MIN < MAX, got "${scale}"`);
    spec.scale = [lo, hi];
  }
  spec.outcome = textOption(values, "outcome");
  spec.pass = textOption(values, "pass");
  const threshold = textOption(values, "threshold");
  if (spec.outcome && (spec.pass === undefined) === (threshold === undefined))
    throw new InputError("--outcome needs --pass VALUE or --threshold X (one of them)");
  if (!spec.outcome && (spec.pass !== undefined || threshold !== undefined))
    throw new InputError("--pass and --threshold apply to --outcome COL");
  if (threshold !== undefined) {
    spec.threshold = Number(threshold);
    if (!Number.isFinite(spec.threshold)) throw new InputError(`--threshold must be a number, got "${threshold}"`);
  }
  return spec;
}

export const option = (help: string, file?: true) => ({ help, ...(file ? { file } : {}) });
export const switchOption = (help: string) => ({ help, boolean: true as const });

export const outcomeRule = (spec: TableSpec) =>
  !spec.outcome ? "none" : `${spec.outcome} ${spec.pass !== undefined ? `= ${spec.pass}` : `≥ ${spec.threshold}`}`;
