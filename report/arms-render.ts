import type { BootstrapSettings } from "../analysis/estimates/bootstrap-interval.js";
import type { CompareResult, Selector } from "../analysis/rq/arms/compare-arms.js";
import type { Leaderboard } from "../analysis/rq/arms/leaderboard.js";
import type { ArmPowerResult, ArmPowerRow } from "../analysis/rq/arms/arm-power.js";
import { ci, ciPct, estimateCell, f3, isDegenerate, pct, pv, rankInterval, shareCell, signedPct } from "./format.js";
import { csvValue, escapeMarkdownCell } from "./render.js";
import { correctedCsvRows, correctedDeltaLines, correctedMarkdown } from "./judge-corrected-render.js";

// How `gcpc compare` and `gcpc leaderboard` print (Markdown and tidy CSV; JSON is the result itself): on the
// report's floor, beside report/render.ts, so every printed table of the workbench is found in report/.

/** One arm's row of compare's table: its selector, trajectories, tasks and pass rate (paired or unpaired). */
export const armLine = (name: string, a: CompareResult["a"]) =>
  `| ${name} | ${escapeMarkdownCell(selectorText(a.selector))} | ${a.trajectories} | ${a.tasks} | ` +
  `${pct(a.pass_rate)} |`;

export const selectorText = (s: Selector) =>
  Object.entries(s)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ") || "(all)";

export function compareMarkdown(r: CompareResult, name: string, s: BootstrapSettings): string {
  const d = r.pass_rate_delta;
  const lines = [
    `# Compare: ${escapeMarkdownCell(selectorText(r.b.selector))} vs ${escapeMarkdownCell(selectorText(r.a.selector))}`,
    "",
    `Store ${escapeMarkdownCell(name)}; where ${escapeMarkdownCell(selectorText(r.where))}; matched on task and ` +
      `${escapeMarkdownCell(r.matched_on.join(", ") || "nothing else")}. Pairing: **${r.pairing.mode}** ` +
      `(${r.pairing.chosen}: ${escapeMarkdownCell(r.pairing.reason)}). ${s.resamples} task-clustered bootstrap ` +
      `resamples, percentile 95% CI (type-7), seed ${s.seed}. Δ = b − a.`,
    "",
    "| arm | selector | trajectories | tasks | pass rate (all its runs, matched or not) |",
    "|---|---|---|---|---|",
    armLine("a", r.a),
    armLine("b", r.b),
    "",
    `Matched: ${r.matched.pairs} ${r.pairing.mode === "trial" ? "pairs" : "cells"} in ${r.matched.tasks} tasks ` +
      `(unmatched: ${r.matched.unmatched_a} of a, ${r.matched.unmatched_b} of b; ` +
      `${r.matched.no_trial} without a trial index).`,
    "",
    ...r.caveats.map((c) => `**Caveat:** ${escapeMarkdownCell(c)}.`),
    ...(r.caveats.length ? [""] : []),
    // The interval may be empty (one task): the bold span must not end in a space ("**Δ -100.0 pp **").
    d.reason
      ? `Pass-rate Δ: not available (${escapeMarkdownCell(d.reason)}).`
      : `Over the matched units: pass rate a ${pct(d.rate_a)}, b ${pct(d.rate_b)}. ` +
        `**${bold(`Pass-rate Δ ${signedPct(d.estimate)}`, ciPct(d.ci, true, isDegenerate(d.bootstrap)))}**; ` +
        `${escapeMarkdownCell(d.test)}: p = ${pv(d.p)}.`,
    "",
    scoreDeltaLine(r.score_delta),
    "",
    ...correctedDeltaLines(r),
    ...attemptDeltaLines(r),
    `Noise floor: the ${r.noise_floor.name} ${f3(r.noise_floor.value)} ` +
      `(${r.noise_floor.source}, n ${r.noise_floor.n}: ` +
      `${escapeMarkdownCell(r.noise_floor.definition)}); "improved" / "regressed" = Δ of the ` +
      `${escapeMarkdownCell(r.method)} ` +
      "score beyond it.",
    "",
  ];
  lines.push(...transitionLines(r), "", ...itemLines(r));
  return `${lines.join("\n")}\n`;
}

/** The four transitions' table (trial pairing), and the pairs left out for want of a score. */
function transitionLines(r: CompareResult): string[] {
  if ("available" in r.transitions)
    return [`Transitions: not available (${escapeMarkdownCell(r.transitions.reason)}).`];
  const lines = [
    "| transition | n | tasks | Δ quartiles | median Δ [CI] | improved [CI] | regressed [CI] | clustered sign p |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const [cell, t] of Object.entries(r.transitions))
    lines.push(
      `| ${cell} | ${t.n} | ${t.tasks} | ${f3(t.delta.q25)} / ${f3(t.delta.median)} / ${f3(t.delta.q75)} | ` +
        `${estimateCell(t.delta.median, t.median_delta_ci, isDegenerate(t.bootstrap, "median"))} | ` +
        `${shareCell(t.improved_share, t.improved_share_ci, isDegenerate(t.bootstrap, "improved"))} | ` +
        `${shareCell(t.regressed_share, t.regressed_share_ci, isDegenerate(t.bootstrap, "regressed"))} | ` +
        `${pv(t.clustered_sign_test_p)} |`,
    );
  const unscored = Object.entries(r.transitions).filter(([, t]) => t.unscored > 0);
  if (unscored.length)
    lines.push(
      "",
      `Left out of every figure of their group, the per-item tests included (a side has no ${r.method} score, ` +
        `e.g. a run that stopped before evaluation): ${unscored.map(([c, t]) => `${t.unscored} ${c}`).join(", ")}.`,
    );
  return lines;
}

/**
 * The per-item McNemar tests on the FAIL→FAIL pairs (15 smallest p); on a store with no outcome, where there is
 * no FAIL→FAIL pair, the items whose verdicts moved between the arms over every matched pair (issue 55.3).
 */
function itemLines(r: CompareResult): string[] {
  if ("available" in r.items) return [`Per-item changes: not available (${escapeMarkdownCell(r.items.reason)}).`];
  if (r.pass_rate_delta.reason) {
    const moved = r.items.by_item.filter((x) => x.improved + x.regressed > 0);
    if (moved.length === 0) return ["Per-item changes: no item's verdict differs between the arms' matched pairs."];
    const tests = [...new Set(moved.map((x) => x.test.replace(/ \(\d+ discordant pairs, one per task\)/, "")))];
    return [
      `Items whose verdicts differ between the arms (${moved.length} of ${r.items.by_item.length}; every matched ` +
        "pair, an item being its id across tasks; improved = not satisfied in a, satisfied (Yes) in b; " +
        `BH q over the items; 15 smallest p). Tests: ${escapeMarkdownCell(tests.join("; "))}.`,
      "",
      "| item | tasks | pairs | improved | regressed | p | q |",
      "|---|---|---|---|---|---|---|",
      ...moved
        .slice(0, 15)
        .map(
          (it) =>
            `| ${escapeMarkdownCell(it.item_id)} | ${it.tasks} | ${it.pairs} | ${it.improved} | ${it.regressed} | ` +
            `${pv(it.p)} | ${pv(it.q)} |`,
        ),
    ];
  }
  return [
    "Per-item changes on the FAIL→FAIL pairs (exact McNemar, BH q over the items; 15 smallest p):",
    "",
    "| task | item | pairs | improved | regressed | p | q |",
    "|---|---|---|---|---|---|---|",
    ...r.items.fail_fail
      .slice(0, 15)
      .map(
        (it) =>
          `| ${escapeMarkdownCell(it.task_id)} | ${escapeMarkdownCell(it.item_id)} | ${it.pairs} | ${it.improved} | ` +
          `${it.regressed} | ${pv(it.mcnemar_p)} | ${pv(it.bh_q)} |`,
      ),
  ];
}

/** An estimate and its interval (which may be empty) inside a bold span: no space before the closing "**". */
const bold = (estimate: string, interval: string) => (interval ? `${estimate} ${interval}` : estimate);

/** The partial-credit Δ paired like the pass rate: estimate, CI, its test and p (with the MC SE when drawn). */
function scoreDeltaLine(x: CompareResult["score_delta"]): string {
  if (x.estimate === null) return `${escapeMarkdownCell(x.method)} Δ: not available (${x.test}).`;
  const mc = x.test_mc_se ? ` (MC SE ${pv(x.test_mc_se)})` : "";
  return (
    `**${bold(`${escapeMarkdownCell(x.method)} Δ ${f3(x.estimate)}`, ci(x.ci, x.degenerate))}** ` +
    `over ${x.units} matched units ` +
    `in ${x.tasks} tasks (each unit's mean score per arm); ${escapeMarkdownCell(x.test)}: p = ${pv(x.p)}${mc}.`
  );
}

/** Per transition cell: its median Δ, and the shares that improved and regressed beyond the noise floor. */
function transitionCsvRows(r: CompareResult): (string | number | null)[][] {
  if ("available" in r.transitions) return [];
  return Object.entries(r.transitions).flatMap(([cell, t]) => [
    [
      "median_delta",
      cell,
      t.delta.median,
      t.median_delta_ci?.[0] ?? null,
      t.median_delta_ci?.[1] ?? null,
      t.n,
      t.tasks,
      t.clustered_sign_test_p,
    ],
    [
      "improved_share",
      cell,
      t.improved_share,
      t.improved_share_ci?.[0] ?? null,
      t.improved_share_ci?.[1] ?? null,
      t.n,
      t.tasks,
      null,
    ],
    [
      "regressed_share",
      cell,
      t.regressed_share,
      t.regressed_share_ci?.[0] ?? null,
      t.regressed_share_ci?.[1] ?? null,
      t.n,
      t.tasks,
      null,
    ],
  ]);
}

export function compareCsv(r: CompareResult): string {
  const rows: (string | number | null)[][] = [
    ["quantity", "group", "estimate", "ci_low", "ci_high", "n", "tasks", "p"],
  ];
  const d = r.pass_rate_delta;
  // No pass-rate rows in a store with no binary outcome (d.reason says why; the Markdown prints it).
  if (!d.reason) {
    rows.push([
      "pass_rate_delta",
      "b - a",
      d.estimate,
      d.ci?.[0] ?? null,
      d.ci?.[1] ?? null,
      r.matched.pairs,
      r.matched.tasks,
      d.p,
    ]);
    // The two rates the Δ is the difference of (the matched units'), with no interval of their own here.
    rows.push(["pass_rate_matched", "a", d.rate_a, null, null, r.matched.pairs, r.matched.tasks, null]);
    rows.push(["pass_rate_matched", "b", d.rate_b, null, null, r.matched.pairs, r.matched.tasks, null]);
  }
  const g = r.score_delta;
  rows.push([
    "score_delta",
    `${g.method}: b - a`,
    g.estimate,
    g.ci?.[0] ?? null,
    g.ci?.[1] ?? null,
    g.units,
    g.tasks,
    g.p,
  ]);
  rows.push(...transitionCsvRows(r));
  // Per item id across tasks (every matched pair): estimate = improved − regressed pairs, n = pairs, p its test's.
  if (!("available" in r.items))
    for (const it of r.items.by_item)
      rows.push(["item_change", it.item_id, it.improved - it.regressed, null, null, it.pairs, it.tasks, it.p]);
  return `${rows.map((r) => r.map(csvValue).join(",")).join("\n")}\n`;
}

/** compare's pass^k / pass@k line (none when not asked for). */
function attemptDeltaLines(r: CompareResult): string[] {
  const x = r.attempt_delta;
  if (x === undefined) return [];
  if ("available" in x) return [`pass^k / pass@k Δ: not available (${escapeMarkdownCell(x.reason)}).`, ""];
  return [
    `**${x.metric} Δ (k = ${x.k}) ${f3(x.estimate)} ${ci(x.ci, x.degenerate)}** (a ${f3(x.value_a)}, b ` +
      `${f3(x.value_b)}) over ${x.units} matched cells in ${x.tasks} tasks (${x.left_out} with fewer than ${x.k} ` +
      `attempts of an arm left out); ${escapeMarkdownCell(x.test)}: p = ${pv(x.p)}. ` +
      `${escapeMarkdownCell(x.estimator)}.`,
    "",
  ];
}

/** What the two rank columns hold, and how the joint sets were computed. */
const rankNote = (r: Leaderboard) =>
  `"rank [95% CI]" holds for one arm at a time (percentile of its bootstrap ranks); the joint rank set holds for ` +
  `every arm at once: ${
    r.rank_joint
      ? `${r.rank_joint.method} (c = ${f3(r.rank_joint.critical)}, ` +
        `${r.rank_joint.resamples} resamples, seed ${r.rank_joint.seed})`
      : "not defined (fewer than 2 tasks)"
  }.`;

export function leaderboardMarkdown(r: Leaderboard, name: string, s: BootstrapSettings): string {
  const value = r.metric === "pass_rate" ? pct : f3;
  const interval = (c: [number, number] | null, degenerate?: boolean) =>
    r.metric === "pass_rate" ? ciPct(c, false, degenerate) : ci(c, degenerate);
  // A pass-rate Δ in percentage points, beside rates in %: not a fraction.
  const delta = r.metric === "pass_rate" ? signedPct : f3;
  const deltaCi = (c: [number, number] | null, degenerate?: boolean) =>
    r.metric === "pass_rate" ? ciPct(c, true, degenerate) : ci(c, degenerate);
  // Every arm with one run at most: the public leaderboards' "mean ± SE over runs" column would say nothing.
  const oneRun = r.rows.every((x) => x.runs.k <= 1);
  // pass^k and pass@k are per-task figures over attempts: the runs column does not apply, whatever the trials.
  const attempts = r.metric === "pass^k" || r.metric === "pass@k";
  const lines = [
    `# Leaderboard: ${escapeMarkdownCell(name)}`,
    "",
    `Arms by ${r.by.join(", ")}; ${escapeMarkdownCell(r.estimator)}; ${s.resamples} resamples, seed ${s.seed}. ` +
      (attempts
        ? `No "runs" column: ${r.metric} is computed per task from its attempts (trial indices), not per run.`
        : oneRun
          ? "Every arm has one run (trial index): no mean ± SE over runs."
          : '"runs" is what public leaderboards print: the mean of the per-run values (run = trial index) ± the SE ' +
            "over runs."),
    "",
    "| rank [95% CI] | joint rank set | arm | trajectories | tasks | value [95% CI] |" +
      `${oneRun ? "" : " runs: mean ± SE (k) |"} caveat |`,
    `|---|---|---|---|---|---|${oneRun ? "" : "---|"}---|`,
    ...r.rows.map(
      (x) =>
        `| ${x.rank} ${rankInterval(x.rank_ci)} | ${rankInterval(x.rank_ci_joint)} | ${escapeMarkdownCell(x.arm)} | ` +
        `${x.trajectories} | ${x.tasks} | ${value(x.value)} ${interval(x.ci, x.degenerate)} | ` +
        (oneRun
          ? ""
          : `${x.runs.mean === null ? "n/a" : `${value(x.runs.mean)} ± ${value(x.runs.se)} (${x.runs.k})`} | `) +
        `${escapeMarkdownCell(x.caveat ?? "")} |`,
    ),
    "",
    rankNote(r),
    "",
    ...correctedMarkdown(r),
    `Tie groups (runs of adjacent arms no pair of which the data separates, Holm-adjusted p ≥ 0.05): ` +
      r.tie_groups.map((g) => `{${g.map(escapeMarkdownCell).join("; ")}}`).join(" "),
    "",
    "p (sign-flip): the task-level sign-flip test of the task differences d_t, P(|Σ ±d_t| ≥ |Σ d_t|) over " +
      "the 2^T sign assignments (exact on their common grid, else Monte Carlo with its SE); p (sign test): the " +
      "binomial sign test of sign(d_t) beside it, which ignores the sizes; Holm over all pairs, of the sign-flip p.",
    "",
    ...(r.pairwise_scope.note ? [`**Note:** ${r.pairwise_scope.note}.`, ""] : []),
    "| row − column | tasks | Δ [95% CI] | p (sign-flip) | p (Holm) | p (sign test) |",
    "|---|---|---|---|---|---|",
    ...r.pairwise.map(
      (x) =>
        `| ${escapeMarkdownCell(x.row)} − ${escapeMarkdownCell(x.column)} | ${x.tasks} | ` +
        `${delta(x.delta)} ${deltaCi(x.ci, x.degenerate)} | ` +
        `${pv(x.p)}${x.test.mc_se === null ? "" : ` (MC SE ${pv(x.test.mc_se)})`} | ${pv(x.p_holm)} | ` +
        `${pv(x.sign_test_p)} |`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

const LEADERBOARD_CSV_COLUMNS = ["kind", "arm", "column", "estimate", "ci_low", "ci_high", "tasks", "rank", "rank_low"];
const LEADERBOARD_CSV_MORE = ["rank_high", "runs_mean", "runs_se", "p", "p_holm", "rank_joint_low", "rank_joint_high"];

export function leaderboardCsv(r: Leaderboard): string {
  const rows: (string | number | null)[][] = [
    [...LEADERBOARD_CSV_COLUMNS, ...LEADERBOARD_CSV_MORE, "p_sign_test", "p_mc_se", "caveat"],
  ];
  for (const x of r.rows)
    rows.push([
      "arm",
      x.arm,
      null,
      x.value,
      x.ci?.[0] ?? null,
      x.ci?.[1] ?? null,
      x.tasks,
      x.rank,
      x.rank_ci?.[0] ?? null,
      x.rank_ci?.[1] ?? null,
      x.runs.mean,
      x.runs.se,
      null,
      null,
      x.rank_ci_joint?.[0] ?? null,
      x.rank_ci_joint?.[1] ?? null,
      null,
      null,
      x.caveat,
    ]);
  for (const x of r.pairwise)
    rows.push([
      "pair",
      x.row,
      x.column,
      x.delta,
      x.ci?.[0] ?? null,
      x.ci?.[1] ?? null,
      x.tasks,
      null,
      null,
      null,
      null,
      null,
      x.p,
      x.p_holm,
      null,
      null,
      x.sign_test_p,
      x.test.mc_se,
      null,
    ]);
  rows.push(...correctedCsvRows(r, rows[0].length));
  return `${rows.map((row) => row.map(csvValue).join(",")).join("\n")}\n`;
}

/** `gcpc power --a --b`: the design, the tests and the power by tasks × attempts × effect, per metric. */
/** The store's own pass-rate Δ, or why there is none (no binary outcome: the score's power only). */
const storePassRate = (r: ArmPowerResult) =>
  r.store_effect.pass_rate === null ? "n/a (no binary outcome: the score's power only)" : pct(r.store_effect.pass_rate);

export function armPowerMarkdown(r: ArmPowerResult, name: string): string {
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
    `${r.matched_tasks} matched tasks; the store's own Δ (b − a): pass rate ${storePassRate(r)}, ` +
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
