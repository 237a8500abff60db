import type { AnalysisReport } from "../analysis/rq/report.js";
import { paperMarksOf, type PaperFigures } from "./paper.js";
import { isDegenerate } from "./format.js";

/**
 * The tidy export (`--format csv`): one row per figure, numbers as numbers, so the file
 * loads straight into pandas, R or d3-dsv. Columns are fixed; an empty cell is "not defined".
 */
export const TIDY_COLUMNS = [
  "section",
  "quantity",
  "group",
  "estimate",
  "ci_low",
  "ci_high",
  "n",
  "tasks",
  "resamples",
  "seed",
  "ci_low_mc_se",
  "ci_high_mc_se",
  "degenerate",
  "paper",
  "paper_mark",
] as const;
export type TidyRow = Record<(typeof TIDY_COLUMNS)[number], string | number | null>;

type Boot =
  | {
      resamples?: number;
      seed?: string;
      mc_se?: [number, number] | null;
      mc_se_by?: Record<string, [number, number] | null>;
      degenerate?: string[];
    }
  | null
  | undefined;
type Ci = [number, number] | null | undefined;

const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** Adds one tidy row (see TIDY_COLUMNS); `paper` is the id of the paper's printed value, if any. */
type Add = (
  section: string,
  quantity: string,
  group: string,
  estimate: unknown,
  o?: {
    ci?: Ci;
    n?: unknown;
    tasks?: unknown;
    boot?: Boot;
    /** The statistic of `boot` this row reports, when one bootstrap gave several (its own MC SE). */
    stat?: string;
    /** The interval is a point that says nothing of sampling error (set by the caller, or read from boot). */
    degenerate?: boolean;
    paper?: string;
  },
) => void;

/** The row's own endpoint MC SE: its statistic's, when the bootstrap gave several. */
function ownMcSe(boot: Boot, stat?: string): [number, number] | null | undefined {
  if (stat && boot?.mc_se_by && stat in boot.mc_se_by) return boot.mc_se_by[stat];
  return boot?.mc_se;
}

/** Every figure of the report as tidy rows; `paper` adds the paper's printed value where one exists. */
export function tidyFigures(
  r: AnalysisReport,
  paper?: PaperFigures,
  /** Told each figure the paper prints, with our estimate of it (the Markdown's calibration marks). */
  onPaperFigure?: (id: string, estimate: number | null) => void,
): TidyRow[] {
  const rows: TidyRow[] = [];
  const add: Add = (section, quantity, group, estimate, o = {}) => {
    if (o.paper) onPaperFigure?.(o.paper, num(estimate));
    const mc = ownMcSe(o.boot, o.stat);
    const printed = o.paper && paper?.figures[o.paper] ? paper.figures[o.paper] : undefined;
    rows.push({
      section,
      quantity,
      group,
      estimate: num(estimate),
      ci_low: num(o.ci?.[0]),
      ci_high: num(o.ci?.[1]),
      n: num(o.n),
      tasks: num(o.tasks),
      resamples: o.boot?.resamples ?? null,
      seed: o.boot?.seed ?? null,
      ci_low_mc_se: num(mc?.[0]),
      ci_high_mc_se: num(mc?.[1]),
      // A multi-statistic descriptor (mc_se_by) without a named statistic is not this row's.
      degenerate: o.degenerate || ((o.stat || !o.boot?.mc_se_by) && isDegenerate(o.boot, o.stat)) ? "true" : null,
      paper: printed ? printed.value : null,
      paper_mark: printed ? paperMarksOf(r, o.paper!, num(estimate)).join("; ") : null,
    });
  };
  for (const part of [tidyCounts, tidyRq1, tidyRq2, tidyRq3, tidyRq4, tidyRq5, tidyOutcomes]) part(r, add);
  return rows;
}

function tidyCounts(r: AnalysisReport, add: Add): void {
  const c = r.counts;
  for (const [k, v] of Object.entries(c))
    if (typeof v === "number")
      add("counts", k, "", v, {
        paper:
          k === "binary" ? "counts.unique_binary" : k === "trajectories" ? "counts.public_trajectories" : undefined,
      });
}

function tidyRq1(r: AnalysisReport, add: Add): void {
  for (const a of r.rq1.auc)
    add("rq1_auc", "auc", a.method, a.auc, {
      ci: a.ci,
      n: a.n,
      tasks: a.tasks,
      boot: a.bootstrap,
      paper: `rq1.auc.${a.method}`,
    });
  for (const a of r.rq1.auc)
    add("rq1_auc", "auc_obuchowski", a.method, a.auc, {
      ci: a.obuchowski?.ci,
      n: a.n,
      tasks: a.tasks,
      degenerate: a.obuchowski?.degenerate === true,
    });
  for (const a of r.rq1.auc) {
    const w = a.within_task;
    if (w)
      add("rq1_auc", "auc_within_task", a.method, w.auc, {
        ci: w.ci,
        n: a.n,
        tasks: w.tasks_with_both,
        boot: w.bootstrap,
      });
  }
  for (const a of r.rq1.by_condition)
    add("rq1_by_condition", "auc", a.method, a.auc, { ci: a.ci, n: a.n, tasks: a.tasks, boot: a.bootstrap });
  const pd = r.rq1.paired;
  if ("delta" in pd) {
    add("rq1_paired", "delta_auc", pd.methods.join(" - "), pd.delta, {
      ci: pd.ci,
      n: pd.n,
      tasks: pd.tasks,
      boot: pd.bootstrap,
      paper: "rq1.paired.delta",
    });
    add("rq1_paired", "positive_share", pd.methods.join(" - "), pd.positive_share, {
      n: pd.n,
      tasks: pd.tasks,
      boot: pd.bootstrap,
      paper: "rq1.paired.positive_share",
    });
    add("rq1_paired", "delta_auc_obuchowski", pd.methods.join(" - "), pd.delta, {
      ci: pd.test.ci,
      n: pd.n,
      tasks: pd.tasks,
      degenerate: pd.test.se === 0,
    });
    add("rq1_paired", "paired_test_p_obuchowski", pd.methods.join(" - "), pd.test.p, { n: pd.n, tasks: pd.tasks });
  }
  const ja = r.rq1.judge_agreement;
  if ("judges" in ja) {
    const o = { n: ja.units, tasks: ja.tasks, boot: ja.bootstrap };
    add("rq1_judge_agreement", "alpha_nominal", ja.judges.join(" "), ja.alpha, { ...o, ci: ja.ci, stat: "alpha" });
    const agreement = { ...o, ci: ja.pairwise_agreement_ci, stat: "agreement" };
    add("rq1_judge_agreement", "pairwise_agreement", ja.judges.join(" "), ja.pairwise_agreement, agreement);
  }
}

function tidyRq2(r: AnalysisReport, add: Add): void {
  for (const m of Array.isArray(r.rq2.methods) ? r.rq2.methods : []) {
    add("rq2_methods", "agreement", m.method, m.agreement, { n: m.comparable, paper: `rq2.agreement.${m.method}` });
    add("rq2_methods", "spearman_rho", m.method, m.rho, {
      ci: m.rho_ci,
      n: m.rho_n,
      boot: m.bootstrap,
      paper: `rq2.rho.${m.method}`,
    });
  }
  if ("alpha" in r.rq2.alpha_q1)
    add("rq2_alpha", "alpha_q1_interval", "", r.rq2.alpha_q1.alpha, { n: r.rq2.alpha_q1.units, paper: "rq2.alpha_q1" });
  if ("alpha" in r.rq2.alpha_q3)
    add("rq2_alpha", "alpha_q3_nominal", "", r.rq2.alpha_q3.alpha, { n: r.rq2.alpha_q3.units, paper: "rq2.alpha_q3" });
}

function tidyRq3(r: AnalysisReport, add: Add): void {
  if ("transitions" in r.rq3) {
    for (const t of [...r.rq3.transitions, r.rq3.all]) {
      const key = `rq3.${t.group}`;
      add("rq3_transitions", "n", t.group, t.n, { n: t.n, paper: `${key}.n` });
      const boot = t.bootstrap;
      const med = { n: t.n, tasks: t.tasks, ci: t.median_delta_ci, boot, stat: "median", paper: `${key}.median_delta` };
      add("rq3_transitions", "median_delta", t.group, t.median_delta, med);
      add("rq3_transitions", "mean_delta", t.group, t.mean_delta, { n: t.n });
      const imp = {
        n: t.n,
        tasks: t.tasks,
        ci: t.improved_share_ci,
        boot,
        stat: "improved",
        paper: `${key}.improved_share`,
      };
      add("rq3_transitions", "improved_share", t.group, t.improved_share, imp);
      const reg = {
        n: t.n,
        tasks: t.tasks,
        ci: t.regressed_share_ci,
        boot,
        stat: "regressed",
        paper: `${key}.regressed_share`,
      };
      add("rq3_transitions", "regressed_share", t.group, t.regressed_share, reg);
      add("rq3_transitions", "between_noise_and_material_share", t.group, t.between_share, { n: t.n });
      add("rq3_transitions", "material_share", t.group, t.material_share, { n: t.n });
      add("rq3_transitions", "clustered_sign_test_p", t.group, t.clustered_sign_test_p, { n: t.n, tasks: t.tasks });
      add("rq3_transitions", "clustered_p_holm", t.group, t.clustered_p_holm, { n: t.n, tasks: t.tasks });
      add("rq3_transitions", "clustered_p_bh", t.group, t.clustered_p_bh, { n: t.n, tasks: t.tasks });
      add("rq3_transitions", "within_noise_share", t.group, t.within_noise_share, { n: t.n });
      add("rq3_transitions", "sign_test_p_iid", t.group, t.sign_test_p, { n: t.positive + t.negative });
    }
    add("rq3_pairs", "pairs_total", "", r.rq3.pairs_total, { paper: "rq3.pairs" });
  }
}

function tidyRq4(r: AnalysisReport, add: Add): void {
  const rq4 = r.rq4;
  if ("outcome_step" in rq4 && Array.isArray(rq4.outcome_step)) {
    for (const s of rq4.outcome_step)
      add("rq4_outcome_step", "separation", s.variant, s.separation, {
        ci: s.ci,
        n: s.n,
        boot: s.bootstrap,
        paper: `rq4.outcome_step.${s.variant}`,
      });
    for (const s of Array.isArray(rq4.abstention) ? rq4.abstention : [])
      add("rq4_abstention", "separation", s.variant, s.separation, {
        ci: s.ci,
        n: s.n,
        boot: s.bootstrap,
        paper: `rq4.abstention.${s.variant}`,
      });
  }
  const er = rq4.evidence_replacement;
  if (er && "strict_share" in er)
    for (const q of ["strict_share", "incl_abstain_share"] as const)
      add("rq4_evidence_replacement", q, "", er[q], { n: er.n, paper: `rq4.evidence_replacement.${q}` });
  if (Array.isArray(rq4.schema_audit))
    for (const s of rq4.schema_audit)
      add("rq4_schema_audit", "covered_share", s.scheme, s.covered_share, {
        n: s.n,
        paper: `rq4.schema_audit.${s.scheme}`,
      });
  const pa = rq4.perfect_agreement;
  if (pa && "with_endpoint" in pa)
    for (const q of ["with_endpoint", "without_endpoint"] as const)
      add("rq4_perfect", `agreement_${q}`, "", pa[q], { n: pa.n, paper: `perfect.agreement_${q}` });
}

function tidyRq5(r: AnalysisReport, add: Add): void {
  const rel = r.rq5.reliability;
  if ("alpha" in rel)
    add("rq5_reliability", "alpha_interval", rel.unit_rule, rel.alpha, {
      ci: rel.ci,
      n: rel.units,
      boot: rel.bootstrap,
      paper: "rq5.reliability.alpha",
    });
  for (const j of Array.isArray(r.rq5.judge_substitution) ? r.rq5.judge_substitution : []) {
    add("rq5_judge_substitution", "rho_plain", j.judge, j.rho_plain, {
      ci: j.rho_plain_ci,
      n: j.n_plain,
      paper: "rq5.judge.rho_plain",
    });
    add("rq5_judge_substitution", "rho_outcome", j.judge, j.rho_outcome, {
      ci: j.rho_outcome_ci,
      n: j.n_outcome,
      paper: "rq5.judge.rho_outcome",
    });
  }
  for (const t of r.rq5.transfer)
    for (const q of ["tasks", "items", "validity", "route_assertion", "route_generated", "route_judge"] as const) {
      add("rq5_transfer", q, t.benchmark, t[q], { n: t.items, paper: `rq5.transfer.${t.benchmark}.${q}` });
    }
  for (const pc of r.rq5.pair_check)
    for (const q of [
      "decidable",
      "higher",
      "lower",
      "equal",
      "median_delta",
      "sign_test_p",
      "sign_test_p_holm",
      "sign_test_p_bh",
    ] as const) {
      add("rq5_pair_check", q, pc.benchmark, pc[q], { n: pc.decidable, paper: `rq5.pair_check.${pc.benchmark}.${q}` });
    }
}

function tidyOutcomes(r: AnalysisReport, add: Add): void {
  if ("overall" in r.outcomes) {
    const o = r.outcomes;
    for (const [scope, list] of [
      ["overall", [o.overall]],
      ["domain", o.by_domain],
      ["model", o.by_model],
      ["task", o.by_task],
    ] as const) {
      for (const u of list) {
        const group = scope === "overall" ? "all" : `${scope}: ${u.group}`;
        add("outcomes", "pass_rate_none", group, u.rate_none, {
          ci: u.rate_none_ci,
          n: u.trials_none,
          tasks: u.tasks,
          boot: u.bootstrap,
          stat: "none",
        });
        add("outcomes", "pass_rate_curated", group, u.rate_curated, {
          ci: u.rate_curated_ci,
          n: u.trials_curated,
          tasks: u.tasks,
          boot: u.bootstrap,
          stat: "curated",
        });
        add("outcomes", "uplift", group, u.uplift, {
          ci: u.uplift_ci,
          n: u.trials_none + u.trials_curated,
          tasks: u.tasks,
          boot: u.bootstrap,
          stat: "uplift",
        });
      }
    }
  }
}
