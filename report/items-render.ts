// How `gcpc items` prints (issue 58.1): the checklist's summary, the items to fix, ranked, and every item's
// figures; Markdown for a reader, CSV (one row per item, formula-guarded) and JSON for a machine.
import type { ItemDiagnostic, ItemDiagnostics } from "../analysis/rq/item-diagnostics.js";
import { csvCell, csvValue, escapeMarkdownCell } from "./render.js";
import { ci, f3, pct, pv } from "./format.js";

const md = escapeMarkdownCell;

export function itemsMarkdown(r: ItemDiagnostics, name: string, synthetic: boolean): string {
  const chance = Math.round(0.025 * r.tested_outcome);
  const out = [
    `# Checklist items: ${md(name)}`,
    "",
    `Verdicts of the primary judge ${md(r.judge)}, first run.` +
      (synthetic ? " SYNTHETIC DATA (generated, not real results)." : ""),
    "",
    `- ${r.items} items; **${r.constant} constant** (${pct(r.constant_share)} of the checklist): every trajectory ` +
      "got the same verdict, so they cannot separate anything.",
    `- **${r.undecided} never decided**: no trajectory got a Yes, No or grade on them.`,
    ...(r.single
      ? [
          `- **${r.single} decided on one trajectory only**: one verdict has no spread, ` +
            "so neither constancy nor discrimination is measured on them.",
        ]
      : []),
    ...(r.by
      ? [
          `- **${r.arm_constant} with the same Yes rate in every ${md(r.by)}** ` +
            `(${pct((r.arm_constant ?? 0) / (r.items || 1))} of the checklist): they cannot separate the arms of ` +
            `${md(r.by)}.`,
        ]
      : []),
    `- **${r.wrong_sign} with the wrong sign**: Yes more often on failing runs, the 95% interval of the difference ` +
      `below 0. A screen, not adjusted for the number of items: of ${r.tested_outcome} items tested against the ` +
      `outcome, about ${chance} with no real effect would fall below 0 by chance.`,
    `- **${r.informative} of ${r.tested} informative** against the negative control (p < 0.05, ` +
      `${r.control.shuffles} shuffles per item, seed ${md(r.control.seed)}); the others do not separate better than ` +
      "shuffled outcomes at this size.",
    `- **${r.redundant_pairs.length} redundant pairs** (agreement ≥ 98% on at least 10 shared trajectories).`,
    r.reference_judge === null
      ? "- Judge quality per item: not available (store.json names no reference judge with labels)."
      : `- **${r.judge_unreliable} items where the judge is unreliable** (Cohen's κ below 0.4 against ` +
        `${md(r.reference_judge)} on at least 10 units).`,
    "",
    "## Items to fix",
    "",
    "_Ranked: the wrong way first, then a judge not to trust on it, then no information (constant, never decided), " +
      "then a repeat of another item._",
    "",
  ];
  if (r.to_fix.length === 0)
    out.push("None: no item is constant, never decided, of the wrong sign, redundant or judged unreliably.", "");
  else {
    out.push("| task | item | text | why |", "|---|---|---|---|");
    for (const f of r.to_fix) out.push(`| ${md(f.task_id)} | ${md(f.item_id)} | ${md(f.text)} | ${md(f.why)} |`);
    out.push("");
  }
  if (r.by_category.length) out.push(...perCategory(r));
  out.push(...everyItem(r));
  out.push("");
  return out.join("\n");
}

/** Per category: the items pooled, task-clustered intervals (CategoryDiagnostic). */
function perCategory(r: ItemDiagnostics): string[] {
  const boot = r.by_category.find((c) => c.bootstrap)?.bootstrap;
  // Each category's stream is the run's seed and the category: named once, with CATEGORY standing for it.
  const draws = boot
    ? `${boot.resamples} resamples, seed ${md(boot.seed.replace(/:[^:]*$/, ":CATEGORY"))}`
    : "no draws";
  const out = [
    "## Per category",
    "",
    `_Pooled over the category's items: Yes rate and PASS − FAIL difference; 95% intervals from a bootstrap ` +
      `resampling the tasks (${draws}, percentile)._`,
    "",
    "| category | items | tasks | constant | wrong sign | informative | Yes rate [95% CI] | PASS − FAIL [95% CI] |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const c of r.by_category)
    out.push(
      `| ${md(c.category)} | ${c.items} | ${c.tasks} | ${c.constant} | ${c.wrong_sign} | ${c.informative} | ` +
        `${f3(c.difficulty)} ${ci(c.difficulty_ci)} | ${f3(c.difference)} ${ci(c.difference_ci)} |`,
    );
  out.push("");
  return out;
}

/** The table of every item, with the estimators named above it. */
function everyItem(r: ItemDiagnostics): string[] {
  const out: string[] = [];
  const e = r.estimators;
  out.push(
    "## Every item",
    "",
    `_Difficulty: ${md(e.difficulty)}. Discrimination: ${md(e.discrimination)}. Control: ${md(e.control)}._`,
    "",
    "| task | item | decided | Yes rate [95% CI] | against | PASS − FAIL [95% CI] | AUC | r | control p | flags |",
    "|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const d of r.by_item) {
    const difference = d.difference === null ? "n/a" : `${f3(d.difference)} ${ci(d.difference_ci)}`;
    const rValue = f3(d.against === "rest" ? d.item_rest : d.point_biserial);
    const p = d.control_p === null ? "n/a" : pv(d.control_p);
    out.push(
      `| ${md(d.task_id)} | ${md(d.item_id)} | ${d.decided} | ${f3(d.difficulty)} ${ci(d.difficulty_ci)} | ` +
        `${d.against ?? "n/a"} | ${difference} | ${f3(d.auc)} | ${rValue} | ${p} | ${md(flags(d))} |`,
    );
  }
  return out;
}

function flags(d: ItemDiagnostic): string {
  return [
    d.constant ? "constant" : "",
    d.arm_constant ? "same in every arm" : "",
    d.wrong_sign ? "wrong sign" : "",
    d.informative ? "informative" : "",
    d.redundant_with.length ? `repeats ${d.redundant_with.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

const ITEM_COLUMNS = [
  "task_id",
  "item_id",
  "category",
  "decided",
  "difficulty",
  "difficulty_lo",
  "difficulty_hi",
  "constant",
  "against",
  "pass_n",
  "fail_n",
  "difference",
  "difference_lo",
  "difference_hi",
  "auc",
  "point_biserial",
  "item_rest",
  "control_p",
  "informative",
  "wrong_sign",
  "redundant_with",
  "judge_units",
  "judge_kappa",
  "judge_sensitivity",
  "judge_specificity",
  "text",
] as const;

/** One CSV row per item; text cells formula-guarded (store text is untrusted). */
export function itemsCsv(r: ItemDiagnostics): string {
  const rows = r.by_item.map((d) => {
    const v: Record<(typeof ITEM_COLUMNS)[number], string | number | null> = {
      task_id: d.task_id,
      item_id: d.item_id,
      category: d.category,
      decided: d.decided,
      difficulty: d.difficulty,
      difficulty_lo: d.difficulty_ci?.[0] ?? null,
      difficulty_hi: d.difficulty_ci?.[1] ?? null,
      constant: d.constant ? 1 : 0,
      against: d.against,
      pass_n: d.pass_n,
      fail_n: d.fail_n,
      difference: d.difference,
      difference_lo: d.difference_ci?.[0] ?? null,
      difference_hi: d.difference_ci?.[1] ?? null,
      auc: d.auc,
      point_biserial: d.point_biserial,
      item_rest: d.item_rest,
      control_p: d.control_p,
      informative: d.informative ? 1 : 0,
      wrong_sign: d.wrong_sign ? 1 : 0,
      redundant_with: d.redundant_with.join(" "),
      judge_units: d.judge?.units ?? null,
      judge_kappa: d.judge?.kappa ?? null,
      judge_sensitivity: d.judge?.sensitivity ?? null,
      judge_specificity: d.judge?.specificity ?? null,
      text: d.text,
    };
    return ITEM_COLUMNS.map((c) => csvValue(v[c])).join(",");
  });
  return `${[ITEM_COLUMNS.map(csvCell).join(","), ...rows].join("\n")}\n`;
}
