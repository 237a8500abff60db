import type { AnalysisReport } from "../analysis/rq/report.js";

/** A rendered table: every output format (md, csv, latex, the site) is made from these. */
export interface Section {
  id: string;
  title: string;
  caption: string;
  columns: string[];
  rows: (string | number | null)[][];
}

export interface PaperFigures {
  figures: Record<string, { value: number; ci?: [number, number]; section: string; meaning: string }>;
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? "n/a" : x.toFixed(3));
const pct = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : `${(100 * x).toFixed(1)}%`);
const ci = (c: [number, number] | null | undefined) => (c ? `[${f3(c[0])}, ${f3(c[1])}]` : "n/a");
const pv = (p: number | null | undefined) => (p === null || p === undefined ? "n/a" : p < 1e-4 ? p.toExponential(1) : p.toFixed(4));
const na = (x: { available?: false; reason?: string } | unknown): string | null =>
  x && typeof x === "object" && (x as any).available === false ? `not available: ${(x as any).reason}` : null;

/** The paper's tables as sections, with the paper's value beside ours when `paper` is given. */
export function reportSections(r: AnalysisReport, paper?: PaperFigures): Section[] {
  const P = (key: string) => {
    const fig = paper?.figures[key];
    if (!fig) return paper ? "" : null;
    if (/share|agreement_|schema_audit|validity/.test(key)) return pct(fig.value);
    return fig.ci ? `${f3(fig.value)} ${ci(fig.ci)}` : Number.isInteger(fig.value) && fig.value > 1 ? String(fig.value) : f3(fig.value);
  };
  const withPaper = (cols: string[]) => (paper ? [...cols, "paper"] : cols);
  const row = (cells: (string | number | null)[], key: string) => (paper ? [...cells, P(key)] : cells);
  const s = r.settings;
  const boot = `${s.resamples} task-clustered bootstrap resamples, percentile ${Math.round(s.level * 100)}% CI (type-7), seed ${s.seed}`;
  const synthetic = r.store.synthetic ? " SYNTHETIC DATA (generated or hand-made, not real results)." : "";
  const sections: Section[] = [];
  const c = r.counts;
  sections.push({
    id: "counts", title: "Store", caption: `Store "${r.store.name}".${synthetic} Deduplication by log_hash (first trajectory_id kept).`,
    columns: withPaper(["quantity", "value"]),
    rows: [
      row(["tasks", c.tasks], ""), row(["checklist items", c.items], ""), row(["trajectories (rows)", c.trajectories], "counts.public_trajectories"),
      row(["duplicates dropped", c.duplicates_dropped], ""), row(["unique trajectories", c.unique_trajectories], ""),
      row(["binary outcome", c.binary], "counts.unique_binary"), row(["non-binary outcome", c.non_binary], ""), row(["zero-evidence (all Abstain)", c.zero_evidence], ""),
      row(["judgments", c.judgments], ""), row(["judges", c.judges.join(", ")], ""),
    ],
  });
  sections.push({
    id: "rq1_auc", title: "RQ1 · Figure 4B / Table 3A: AUC per method on its own available sample",
    caption: `Estimator: ${r.rq1.estimator}; ${boot}. Obuchowski (1997) analytic clustered CI beside it. Population: ${r.rq1.population}.${synthetic}`,
    columns: withPaper(["method", "n", "PASS", "FAIL", "tasks", "AUC", "bootstrap CI", "Obuchowski CI", "note"]),
    rows: r.rq1.auc.map((a) => row([a.method, a.n, a.n_pass, a.n_fail, a.tasks, f3(a.auc), ci(a.ci), ci(a.obuchowski?.ci), a.note ?? ""], `rq1.auc.${a.method}`)),
  });
  const pd = r.rq1.paired;
  sections.push({
    id: "rq1_paired", title: "RQ1 · Figure 4A: paired ΔAUC on identical trajectories",
    caption: `ΔAUC = AUC(gcpc) − AUC(holistic) on the shared subset; both AUCs recomputed on each draw; ${boot}.${synthetic}`,
    columns: withPaper(["quantity", "value"]),
    rows: "delta" in pd ? [
      row(["n (shared subset)", pd.n], ""), row(["tasks", pd.tasks], ""), row([`AUC ${pd.methods[0]}`, f3(pd.auc_a)], "rq1.auc.gcpc"), row([`AUC ${pd.methods[1]}`, f3(pd.auc_b)], "rq1.auc.holistic"),
      row(["ΔAUC [95% CI]", `${f3(pd.delta)} ${ci(pd.ci)}`], "rq1.paired.delta"), row(["share of draws with Δ > 0", pct(pd.positive_share)], "rq1.paired.positive_share"),
      row(["interval note", pd.ci_reason ? `CI ${pd.ci_reason}` : pd.few_clusters ? "few_clusters: fewer than 10 tasks, coverage below nominal" : ""], ""),
    ] : [row(["paired ΔAUC", na(pd)], "")],
  });
  sections.push({
    id: "rq1_condition", title: "RQ1: AUC of GCPC by skill condition", caption: `${boot}.${synthetic}`,
    columns: withPaper(["condition", "n", "AUC", "bootstrap CI"]),
    rows: r.rq1.by_condition.map((a) => row([a.method, a.n, f3(a.auc), ci(a.ci)], `rq1.condition.${a.method.replace(/^gcpc \((.*)\)$/, "$1")}`)),
  });
  const m2 = r.rq2.methods;
  sections.push({
    id: "rq2_table2", title: "RQ2 · Table 2: agreement with human judgments",
    caption: `Pairwise agreement = agreeing / comparable Q2 comparisons (ties and unscored excluded). ρ = Spearman (average ranks) with the mean Q1 rating; ${boot}.${synthetic}`,
    columns: paper ? ["method", "agreement", "comparable", "ρ vs Q1", "ρ 95% CI", "n", "paper agreement", "paper ρ"] : ["method", "agreement", "comparable", "ρ vs Q1", "ρ 95% CI", "n"],
    rows: Array.isArray(m2) ? m2.map((m) => {
      const cells: (string | number | null)[] = [m.method, f3(m.agreement), m.comparable, f3(m.rho), ci(m.rho_ci), m.rho_n];
      return paper ? [...cells, P(`rq2.agreement.${m.method}`), P(`rq2.rho.${m.method}`)] : cells;
    }) : [[na(m2), "", "", "", "", ""].concat(paper ? ["", ""] : [])],
  });
  const a1 = r.rq2.alpha_q1, a3 = r.rq2.alpha_q3, q1o = r.rq2.q1_by_outcome, q3j = r.rq2.q3_judge_agreement;
  sections.push({
    id: "rq2_reliability", title: "RQ2: human reliability and ratings by outcome",
    caption: `Krippendorff α: interval for Q1 ratings (coders = annotators), nominal for Q3 labels (Abstain a category).${synthetic}`,
    columns: withPaper(["quantity", "value"]),
    rows: [
      row(["α Q1 (interval)", "alpha" in a1 ? `${f3(a1.alpha)} (${a1.units} units, ${a1.annotators} annotators)` : na(a1)], "rq2.alpha_q1"),
      row(["α Q3 (nominal)", "alpha" in a3 ? `${f3(a3.alpha)} (${a3.pairable_units} doubly rated items)` : na(a3)], "rq2.alpha_q3"),
      row(["mean Q1, PASS", "pass_mean" in q1o ? `${f3(q1o.pass_mean)} (n ${q1o.n_pass})` : na(q1o)], "rq2.q1.pass_mean"),
      row(["mean Q1, FAIL", "fail_mean" in q1o ? `${f3(q1o.fail_mean)} (n ${q1o.n_fail})` : na(q1o)], "rq2.q1.fail_mean"),
      row(["Q3 labels equal to the judge's", "share" in q3j ? `${pct(q3j.share)} (${q3j.agreeing}/${q3j.n})` : na(q3j)], ""),
    ],
  });
  const r3 = r.rq3;
  sections.push({
    id: "rq3_figure5", title: "RQ3 · Figure 5: matched skill effects by outcome transition (without → with)",
    caption: `${r3.estimator}. Material change |Δ| > ${r3.threshold}; noise floor ${r3.noise_floor}. Pairs: ${r3.pairs_total} matched, ${r3.excluded_zero_evidence} excluded as zero-evidence, ${r3.unmatched} unmatched cells, ${r3.unmatched_no_trial} trajectories without a trial index (never matched), ${r3.duplicate_trials} duplicate trials.${synthetic}`,
    columns: paper ? ["transition", "n", "median Δ", "improved > 0.10", "regressed < −0.10", "sign test p", "paper n", "paper median Δ", "paper improved", "paper regressed"] : ["transition", "n", "median Δ", "improved > 0.10", "regressed < −0.10", "sign test p"],
    rows: !r3.available ? [[`not available: ${r3.reason}`, "", "", "", "", ""].concat(paper ? ["", "", "", ""] : [])] : [...r3.transitions, r3.all].map((t) => {
      const cells: (string | number | null)[] = [t.group === "any→any" ? "all pairs" : t.group, t.n, f3(t.median_delta), pct(t.improved_share), pct(t.regressed_share), pv(t.sign_test_p)];
      return paper ? [...cells, t.group === "any→any" ? P("rq3.pairs") : P(`rq3.${t.group}.n`), P(`rq3.${t.group}.median_delta`), P(`rq3.${t.group}.improved_share`), P(`rq3.${t.group}.regressed_share`)] : cells;
    }),
  });
  const os = r.rq4.outcome_step, ab = r.rq4.abstention;
  const sepRows = (x: typeof os, prefix: string) => Array.isArray(x)
    ? x.map((v) => row([v.design, v.n, f3(v.separation), v.increment === null ? "n/a" : (v.increment >= 0 ? "+" : "") + f3(v.increment), ci(v.ci)], `${prefix}.${v.variant}`))
    : [row([na(x), "", "", "", ""], "")];
  sections.push({ id: "rq4_outcome_step", title: "RQ4 · Table 3B: the official-outcome step (PASS–FAIL separation)", caption: `Separation = mean(PASS) − mean(FAIL) on the same trajectories (binary, plain GCPC defined); ${boot}.${synthetic}`, columns: withPaper(["variant", "n", "separation", "increment", "95% CI"]), rows: sepRows(os, "rq4.outcome_step") });
  sections.push({ id: "rq4_abstention", title: "RQ4 · Table 3C: abstention rule", caption: `Primary rule (Abstain excluded) vs forced verdict (Abstain → No); ${boot}.${synthetic}`, columns: withPaper(["variant", "n", "separation", "vs first row", "95% CI"]), rows: sepRows(ab, "rq4.abstention") });
  const er = r.rq4.evidence_replacement, idle = r.rq4.idle_floor, sa = r.rq4.schema_audit;
  sections.push({
    id: "rq4_checks", title: "RQ4 · Table 3C: stress and falsification checks", caption: `Shares of rows; no resampling.${synthetic}`,
    columns: withPaper(["check", "result"]),
    rows: [
      row(["evidence replacement: Yes → No", "n" in er ? `${pct(er.strict_share)} of ${er.n}` : na(er)], "rq4.evidence_replacement.strict_share"),
      row(["evidence replacement: Yes → No or Abstain", "n" in er ? `${pct(er.incl_abstain_share)} of ${er.n}` : na(er)], "rq4.evidence_replacement.incl_abstain_share"),
      row(["idle-agent floor: GCPC = 0", "n" in idle ? `${idle.zero}/${idle.n}` : na(idle)], "rq4.idle_floor.zero"),
      row(["Perfect agrees with the outcome, endpoint excluded (§3.4)", "n" in r.rq4.perfect_agreement ? `${pct(r.rq4.perfect_agreement.without_endpoint)} of ${r.rq4.perfect_agreement.n}` : na(r.rq4.perfect_agreement)], "perfect.agreement_without_endpoint"),
      row(["Perfect agrees with the outcome, endpoint included", "n" in r.rq4.perfect_agreement ? `${pct(r.rq4.perfect_agreement.with_endpoint)} of ${r.rq4.perfect_agreement.n}` : na(r.rq4.perfect_agreement)], "perfect.agreement_with_endpoint"),
      ...(Array.isArray(sa) ? sa.map((x) => row([`schema audit: ${x.scheme}`, `${pct(x.covered_share)} of ${x.n}`], `rq4.schema_audit.${x.scheme}`)) : [row(["schema audit", na(sa)], "")]),
    ],
  });
  const rel = r.rq5.reliability, js = r.rq5.judge_substitution;
  sections.push({
    id: "rq5_reliability", title: "RQ5: reliability and judge substitution",
    caption: `Krippendorff α (interval) of plain GCPC across scoring runs, units resampled (${s.resamples} resamples, seed ${s.seed}). Judge substitution: Spearman ρ, task-clustered CI.${synthetic}`,
    columns: withPaper(["quantity", "value"]),
    rows: [
      row(["α across runs [95% CI]", "unit_rule" in rel ? `${f3(rel.alpha)} ${ci(rel.ci)} (${rel.units} units, ${rel.runs} runs; ${rel.unit_rule})` : na(rel)], "rq5.reliability.alpha"),
      ...(Array.isArray(js) ? js.flatMap((j) => [
        row([`ρ plain GCPC, primary vs ${j.judge}`, `${f3(j.rho_plain)} ${ci(j.rho_plain_ci)} (n ${j.n_plain})`], "rq5.judge.rho_plain"),
        row([`ρ with official outcome, primary vs ${j.judge}`, `${f3(j.rho_outcome)} ${ci(j.rho_outcome_ci)} (n ${j.n_outcome})`], "rq5.judge.rho_outcome"),
      ]) : [row(["judge substitution", na(js)], "")]),
    ],
  });
  sections.push({
    id: "rq5_table4", title: "RQ5 · Table 4: checklist synthesis across benchmarks",
    caption: `Validity = share of items passing every mechanical gate (verbatim quote, assertion reference resolves, non-empty text).${synthetic}`,
    columns: paper ? ["benchmark", "tasks", "items", "items per task (min–median–max)", "routes assertion / generated / judge", "validity", "failed quote", "failed assertion ref", "paper tasks", "paper items", "paper validity"] : ["benchmark", "tasks", "items", "items per task (min–median–max)", "routes assertion / generated / judge", "validity", "failed quote", "failed assertion ref"],
    rows: r.rq5.transfer.map((t) => {
      const cells: (string | number | null)[] = [t.benchmark, t.tasks, t.items, `${t.items_min ?? "n/a"}–${t.items_median ?? "n/a"}–${t.items_max ?? "n/a"}`, `${pct(t.route_assertion)} / ${pct(t.route_generated)} / ${pct(t.route_judge)}`, pct(t.validity), t.failed_quote, t.failed_assertion];
      return paper ? [...cells, P(`rq5.transfer.${t.benchmark}.tasks`), P(`rq5.transfer.${t.benchmark}.items`), P(`rq5.transfer.${t.benchmark}.validity`)] : cells;
    }),
  });
  sections.push({
    id: "rq5_pair_check", title: "RQ5: same-task PASS vs FAIL pair check",
    caption: `First PASS and first FAIL trajectory per task (by trajectory_id); Δ = GCPC(PASS) − GCPC(FAIL); exact two-sided sign test over non-equal pairs.${synthetic}`,
    columns: paper ? ["benchmark", "decidable", "undecidable", "higher", "lower", "equal", "median Δ", "sign test p", "paper higher/lower/equal"] : ["benchmark", "decidable", "undecidable", "higher", "lower", "equal", "median Δ", "sign test p"],
    rows: r.rq5.pair_check.map((x) => {
      const cells: (string | number | null)[] = [x.benchmark, x.decidable, x.undecidable, x.higher, x.lower, x.equal, f3(x.median_delta), pv(x.sign_test_p)];
      const hk = `rq5.pair_check.${x.benchmark}`;
      return paper ? [...cells, paper.figures[`${hk}.higher`] ? `${P(`${hk}.higher`)}/${P(`${hk}.lower`)}/${P(`${hk}.equal`)}` : paper.figures[`${hk}.equal`] ? `equal ${P(`${hk}.equal`)} of ${P(`${hk}.decidable`)}` : ""] : cells;
    }),
  });
  const oc = r.outcomes;
  const upliftRow = (u: import("../analysis/rq/outcome-level.js").UpliftRow) => [u.group, u.tasks, `${u.passes_none}/${u.trials_none}`, `${pct(u.rate_none)} ${ciPct(u.rate_none_ci)}`, `${u.passes_curated}/${u.trials_curated}`, `${pct(u.rate_curated)} ${ciPct(u.rate_curated_ci)}`, `${signedPct(u.uplift)} ${ciPct(u.uplift_ci, true)}`, u.positive_share === null ? "n/a" : pct(u.positive_share)];
  const upliftCols = ["group", "tasks", "passes/trials without", "pass rate without [95% CI]", "passes/trials with", "pass rate with [95% CI]", "uplift [95% CI]", "draws with uplift > 0"];
  const ocCaption = `Binary view (the one GCPC refines): pooled pass rate = passes / trials; CIs resample tasks (${boot}).${synthetic}`;
  if ("overall" in oc) {
    sections.push({ id: "outcomes_overall", title: "Outcomes: pass rate without and with curated skills", caption: ocCaption, columns: upliftCols, rows: [upliftRow(oc.overall)] });
    if (oc.by_domain.length) sections.push({ id: "outcomes_domain", title: "Outcomes: pass-rate uplift by domain", caption: ocCaption, columns: upliftCols, rows: oc.by_domain.map(upliftRow) });
    sections.push({ id: "outcomes_model", title: "Outcomes: pass-rate uplift by harness / model", caption: ocCaption, columns: upliftCols, rows: oc.by_model.map(upliftRow) });
    sections.push({ id: "outcomes_task", title: "Outcomes: pass-rate uplift by task", caption: `Per task, the CI resamples the task's harness/model/source configurations (one task is one cluster); ${s.resamples} resamples, seed ${s.seed}.${synthetic}`, columns: upliftCols.map((c) => (c === "tasks" ? "configurations" : c)), rows: oc.by_task.map((u) => { const r = upliftRow(u); r[1] = u.clusters; return r; }) });
    sections.push({
      id: "outcomes_cells", title: "Outcomes: cell transitions without → with curated skills",
      caption: `Cell = (task, harness, model, source); state of its trials: FAIL-only (no pass), mixed, PASS-only. ${oc.cells_paired} cells have both conditions; ${oc.gained} go from FAIL-only to some PASS, ${oc.lost} lose passes (PASS-only → mixed/FAIL-only, mixed → FAIL-only).${synthetic}`,
      columns: ["without \\ with", "FAIL-only", "mixed", "PASS-only"],
      rows: (["FAIL-only", "mixed", "PASS-only"] as const).map((from) => [from, ...(["FAIL-only", "mixed", "PASS-only"] as const).map((to) => oc.cell_transitions.find((c) => c.from === from && c.to === to)!.cells)]),
    });
  } else sections.push({ id: "outcomes_overall", title: "Outcomes: pass rate without and with curated skills", caption: ocCaption, columns: ["quantity", "value"], rows: [["pass-rate uplift", na(oc)]] });
  return sections;
}

function ciPct(c: [number, number] | null | undefined, signed = false): string {
  if (!c) return "";
  const f = signed ? signedPct : pct;
  return `[${f(c[0])}, ${f(c[1])}]`;
}
function signedPct(x: number | null | undefined): string {
  if (x === null || x === undefined) return "n/a";
  return `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} pp`;
}
