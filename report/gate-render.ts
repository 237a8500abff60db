// How `gcpc gate` prints: Markdown for a pull-request comment (the verdict first, then a compact table), and JUnit
// XML with one test case per metric and slice, so CI systems show each check natively. JSON is the result itself.
import type { GateCheck, GateResult, GateVerdict } from "../analysis/rq/arms/gate.js";
import type { SequentialGateResult } from "../analysis/rq/arms/sequential-gate.js";
import { ci, f3, pv } from "./format.js";
import { escapeMarkdownCell } from "./render.js";

const ICON: Record<GateVerdict, string> = {
  better: "✅ better",
  "not worse": "✅ not worse",
  worse: "❌ worse",
  inconclusive: "⚠️ inconclusive",
  "insufficient data": "⚠️ insufficient data",
};

export function gateMarkdown(r: GateResult, name: string, selectors: { baseline: string; candidate: string }): string {
  return [
    `## Gate: **${ICON[r.verdict]}**`,
    "",
    `Candidate \`${escapeMarkdownCell(selectors.candidate)}\` against ` +
      `baseline \`${escapeMarkdownCell(selectors.baseline)}\` ` +
      `on ${escapeMarkdownCell(name)}; margin ${r.margin}, α ${r.alpha}.`,
    "",
    "| metric | slice | verdict | Δ (candidate − baseline) | interval | p | tasks | why |",
    "|---|---|---|---|---|---|---|---|",
    ...r.checks.map(
      (c) =>
        `| ${c.metric} | ${escapeMarkdownCell(c.slice)} | ${ICON[c.verdict]} | ${f3(c.estimate)} | ` +
        `${ci(c.ci)} | ` +
        `${pv(c.p)} | ${c.tasks} | ${escapeMarkdownCell(c.reason)} |`,
    ),
    "",
    `<details><summary>How</summary>\n\n${escapeMarkdownCell(r.familywise)}. Intervals: ` +
      `${escapeMarkdownCell(r.checks[0]?.interval ?? "none")}. ` +
      `Tests: ${[...new Set(r.checks.map((c) => escapeMarkdownCell(c.test)))].join("; ")}. ` +
      `${escapeMarkdownCell(r.decision_table)}\n\n</details>`,
    "",
  ].join("\n");
}

/** XML text escaped for an attribute or element (store text is untrusted). */
const xml = (s: string) =>
  s
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    // XML 1.0 has no way to write most control characters: they are dropped.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/** JUnit XML: a test case per check; worse is a failure, inconclusive and insufficient data are skipped. */
export function gateJunit(r: GateResult, name: string): string {
  const failures = r.checks.filter((c) => c.verdict === "worse").length;
  const skipped = r.checks.filter((c) => c.verdict === "inconclusive" || c.verdict === "insufficient data").length;
  const caseOf = (c: GateCheck) => {
    const detail = `Δ ${f3(c.estimate)} ${ci(c.ci)}, p ${pv(c.p)}, ${c.tasks} tasks: ${c.reason}`;
    const head = `    <testcase classname="gcpc.gate.${xml(c.metric)}" name="${xml(`${c.metric} ${c.slice}`)}">`;
    const body =
      c.verdict === "worse"
        ? `      <failure message="${xml(`worse: ${c.reason}`)}">${xml(detail)}</failure>\n`
        : c.verdict === "inconclusive" || c.verdict === "insufficient data"
          ? `      <skipped message="${xml(`${c.verdict}: ${c.reason}`)}"/>\n`
          : "";
    return `${head}\n${body}      <system-out>${xml(`${c.verdict}: ${detail}`)}</system-out>\n    </testcase>`;
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gcpc gate" tests="${r.checks.length}" failures="${failures}" skipped="${skipped}">`,
    `  <testsuite name="${xml(`gcpc gate: ${name}`)}" tests="${r.checks.length}" failures="${failures}" ` +
      `skipped="${skipped}">`,
    ...r.checks.map(caseOf),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

/** `gcpc gate --sequential`: the decision and where it stopped, then the looks (every tenth, and the decisive one). */
export function sequentialMarkdown(
  r: SequentialGateResult,
  name: string,
  selectors: { baseline: string; candidate: string },
): string {
  const stop = r.stopped_at;
  const shown = r.looks.filter((l, i) => (i + 1) % 10 === 0 || l.tasks === stop || i === r.looks.length - 1);
  const waited = r.goal === "better" ? " The goal was better (stopping at better or worse only)." : "";
  const used =
    stop === null
      ? `No ${r.goal === "better" ? "better or worse" : "decision"} after all ${r.fixed_design_tasks} matched ` +
        `tasks: the last look says ${r.decision}.${waited}`
      : `The fixed design would use all ${r.fixed_design_tasks} matched tasks; the sequence decided after ${stop}.` +
        waited;
  return [
    `## Sequential gate: **${r.decision}**${stop === null ? "" : ` after ${stop} of ${r.fixed_design_tasks} tasks`}`,
    "",
    `Candidate \`${escapeMarkdownCell(selectors.candidate)}\` against baseline ` +
      `\`${escapeMarkdownCell(selectors.baseline)}\` on ${escapeMarkdownCell(name)}; ${r.metric}, ` +
      `margin ${r.margin}, α ${r.alpha}. ${used}`,
    "",
    "| tasks | last task | completed | mean Δ | confidence sequence | decision |",
    "|---|---|---|---|---|---|",
    ...shown.map(
      (l) =>
        `| ${l.tasks} | ${escapeMarkdownCell(l.task)} | ${escapeMarkdownCell(l.completed_at ?? "n/a")} | ` +
        `${f3(l.mean)} | ${ci([l.lower, l.upper])} | ${l.decision} |`,
    ),
    "",
    `${escapeMarkdownCell(r.method)}; ${escapeMarkdownCell(r.order)}. ` +
      "Decisions: worse when the upper end is below 0, better when the lower end is above 0, equivalent when " +
      "both lie within ±D, not worse when the lower end is above −D; continue otherwise.",
    "",
  ].join("\n");
}
