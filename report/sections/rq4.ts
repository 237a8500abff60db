import type { AnalysisReport } from "../../analysis/rq/report.js";
import { ci, f3, isDegenerate, notAvailable, pct } from "../format.js";
import { mcNote, row, withPaper, type Cell, type Section, type SectionContext } from "./section.js";

const YES_TO_NO_OR_ABSTAIN = "evidence replacement: Yes → No or Abstain";

type Separations = AnalysisReport["rq4"]["outcome_step"];

export function rq4Sections(ctx: SectionContext): Section[] {
  const { report: r, boot, synthetic } = ctx;
  return [
    {
      id: "rq4_outcome_step",
      title: "RQ4 · Table 3B: the official-outcome step (PASS–FAIL separation)",
      caption:
        "Separation = mean(PASS) − mean(FAIL) on the same trajectories (binary, plain GCPC defined); " +
        `${boot}.${sepMc(r.rq4.outcome_step)}${synthetic}`,
      columns: withPaper(ctx, ["variant", "n", "separation", "increment", "95% CI"]),
      rows: separationRows(ctx, r.rq4.outcome_step, "rq4.outcome_step"),
    },
    {
      id: "rq4_abstention",
      title: "RQ4 · Table 3C: abstention rule",
      caption:
        "Primary rule (Abstain excluded) vs forced verdict (Abstain → No); " +
        `${boot}.${sepMc(r.rq4.abstention)}${synthetic}`,
      columns: withPaper(ctx, ["variant", "n", "separation", "vs first row", "95% CI"]),
      rows: separationRows(ctx, r.rq4.abstention, "rq4.abstention"),
    },
    {
      id: "rq4_checks",
      title: "RQ4 · Table 3C: stress and falsification checks",
      caption: `Shares of rows; no resampling.${synthetic}`,
      columns: withPaper(ctx, ["check", "result"]),
      rows: checkRows(ctx, r.rq4),
    },
  ];
}

function separationRows(ctx: SectionContext, x: Separations, prefix: string): Cell[][] {
  if (!Array.isArray(x)) return [row(ctx, [notAvailable(x), "", "", "", ""])];
  return x.map((v) => {
    const increment = v.increment === null ? "n/a" : (v.increment >= 0 ? "+" : "") + f3(v.increment);
    const interval = ci(v.ci, isDegenerate(v.bootstrap));
    return row(ctx, [v.design, v.n, f3(v.separation), increment, interval], `${prefix}.${v.variant}`);
  });
}

function checkRows(ctx: SectionContext, rq4: AnalysisReport["rq4"]): Cell[][] {
  const { evidence_replacement: er, idle_floor: idle, schema_audit: sa, perfect_agreement: pa } = rq4;
  const share = (x: number | null | undefined, n: number) => `${pct(x)} of ${n}`;
  return [
    row(
      ctx,
      ["evidence replacement: Yes → No", "n" in er ? share(er.strict_share, er.n) : notAvailable(er)],
      "rq4.evidence_replacement.strict_share",
    ),
    row(
      ctx,
      [YES_TO_NO_OR_ABSTAIN, "n" in er ? share(er.incl_abstain_share, er.n) : notAvailable(er)],
      "rq4.evidence_replacement.incl_abstain_share",
    ),
    row(
      ctx,
      ["idle-agent floor: GCPC = 0", "n" in idle ? `${idle.zero}/${idle.n}` : notAvailable(idle)],
      "rq4.idle_floor.zero",
    ),
    row(
      ctx,
      [
        "Perfect agrees with the outcome, endpoint excluded (§3.4)",
        "n" in pa ? share(pa.without_endpoint, pa.n) : notAvailable(pa),
      ],
      "perfect.agreement_without_endpoint",
    ),
    row(
      ctx,
      [
        "Perfect agrees with the outcome, endpoint included",
        "n" in pa ? share(pa.with_endpoint, pa.n) : notAvailable(pa),
      ],
      "perfect.agreement_with_endpoint",
    ),
    ...(Array.isArray(sa)
      ? sa.map((x) =>
          row(ctx, [`schema audit: ${x.scheme}`, share(x.covered_share, x.n)], `rq4.schema_audit.${x.scheme}`),
        )
      : [row(ctx, ["schema audit", notAvailable(sa)])]),
  ];
}

const sepMc = (x: Separations) => (Array.isArray(x) ? mcNote(x.map((v) => v.bootstrap)) : "");
