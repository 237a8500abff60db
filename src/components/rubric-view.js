// Graded, weighted and hierarchical checklists (schema_version 2 stores), as the report's "Checklist credit" and
// "Judges against the reference judge" sections compute them (analysis/rq/rubric.ts): plain / weighted / gated
// credit compared by paired ΔAUC, and each judge against the reference judge item by item. Used by the
// overview (the user's store) and the Real evaluations page. Store text (judge and group names) goes through
// htl and Inputs.table, which escape it.
import { html } from "./vendor/htl.js";
import * as Inputs from "./vendor/inputs.js";
import { fixed, fmtP, pct } from "./number-format.js";

const f3 = (x) => (x === null || x === undefined || !Number.isFinite(x) ? "n/a" : fixed(x, 3));
const ci3 = (c) => (c ? `[${f3(c[0])}, ${f3(c[1])}]` : "n/a");
const ciPct = (c) => (c ? `[${pct(c[0])}, ${pct(c[1])}]` : "n/a");

function creditView(c) {
  if (c.available === false) return html`<p>Credit comparison not available: ${c.reason}.</p>`;
  const rows = c.pairs.map((d) =>
    d.available === false
      ? { pair: d.methods.join(" vs "), "ΔAUC [95% CI]": `not available: ${d.reason}` }
      : {
          pair: d.methods.join(" vs "),
          "AUC a": f3(d.auc_a),
          "AUC b": f3(d.auc_b),
          "ΔAUC [95% CI]": `${f3(d.delta)} ${ci3(d.ci)}`,
          trajectories: d.n,
          p: fmtP(d.test.p),
          "Holm p": fmtP(d.holm_p),
        },
  );
  const best = c.best
    ? html` Highest AUC: <strong>${c.best.method}</strong>, ${c.best.separated ? "" : "not "}separated from every
        other credit ${c.best.separated ? "(Holm p < 0.05)" : "at Holm p < 0.05"}.`
    : "";
  const table = Inputs.table(rows, { layout: "auto" });
  return html`<h3>Plain, weighted and gated credit against the outcome</h3>
    <div class="scroll-x">${table}</div>
    <p>Plain = mean grade over the applicable decided items; weighted = Σ w·grade / Σ w; gated: an item counts only
    when its prerequisites hold, transitively. ${c.estimator}.${best}</p>`;
}

function judgesView(judges) {
  if (judges.available === false)
    return html`<p>Judges against a reference judge: not available: ${judges.reason}.</p>`;
  const rows = judges.flatMap((j) =>
    [{ group: "all items", ...j.overall }, ...j.by_group].map((g) => ({
      "judge vs reference": `${j.judge} vs ${j.reference}`,
      group: g.group,
      units: g.units,
      tasks: g.tasks,
      "agreement [95% CI]": `${pct(g.percent)} ${ciPct(g.percent_ci)}`,
      "Cohen's κ [95% CI]": `${f3(g.kappa)} ${ci3(g.kappa_ci)}`,
      "quadratic κ [95% CI]": `${f3(g.kappa_quadratic)} ${ci3(g.kappa_quadratic_ci)}`,
      [`Krippendorff's α (${j.alpha_metric}) [95% CI]`]: `${f3(g.alpha)} ${ci3(g.alpha_ci)}`,
      "sensitivity [95% CI]": `${pct(g.sensitivity)} ${ciPct(g.sensitivity_ci)}`,
      "specificity [95% CI]": `${pct(g.specificity)} ${ciPct(g.specificity_ci)}`,
    })),
  );
  const auc = judges.map((j) =>
    j.auc.available === false
      ? html`<p>Per-judge AUC not available: ${j.auc.reason}.</p>`
      : html`<p>GCPC from the reference's (${j.reference}) labels: AUC <strong>${f3(j.auc.auc_a)}</strong>;
          from ${j.judge}'s: <strong>${f3(j.auc.auc_b)}</strong>; paired ΔAUC ${f3(j.auc.delta)} ${ci3(j.auc.ci)},
          Obuchowski p ${fmtP(j.auc.test.p)} (${j.auc.n} trajectories).</p>`,
  );
  const table = Inputs.table(rows, { layout: "auto", rows: 14 });
  return html`<h3>Judges against the reference judge, item by item</h3>
    <div class="scroll-x">${table}</div>
    <p>Units: (trajectory, item) both judges decided (Abstain and not applicable left out); κ with the grades as
    categories; task-clustered percentile intervals.</p>${auc}`;
}

/** The two views of a store's `rubric` result (report.rubric), or "" for a store without one. */
export function rubricView(r) {
  if (!r) return "";
  return html`${creditView(r.credit)}${judgesView(r.judges)}`;
}
