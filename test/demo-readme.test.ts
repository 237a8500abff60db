// data/README.md states the demo generator's parameters and what the pipeline prints for the demo; both drift
// when the generator moves (issue 49: a figure in docs comes from a command shown beside it, and a test checks
// the figures that can drift). The demo's figures are read from test/golden/report-figures.json, which the
// golden test holds equal to `gcpc report data/demo --format json` at the default settings.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MODEL } from "../store/generate/demo-model.js";
import { GOLDEN_FIGURES_FILE } from "./helpers/golden.js";

const repo = new URL("..", import.meta.url).pathname;
const readme = readFileSync(`${repo}data/README.md`, "utf8").replaceAll("−", "-");
const figures: Record<string, string> = JSON.parse(readFileSync(GOLDEN_FIGURES_FILE, "utf8"))[
  "gcpc report data/demo --format json"
];

/** The numeric leaves of MODEL, named by path (nested records included). */
function numericParameters(o: object, prefix = ""): [string, number][] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === "number"
      ? [[`${prefix}${k}`, v] as [string, number]]
      : v && typeof v === "object" && !Array.isArray(v)
        ? numericParameters(v, `${prefix}${k}.`)
        : [],
  );
}

/** data/README.md's table "Every parameter, by name": name → value as written (− read as -). */
function parameterTable(): Map<string, number> {
  const section = readme.slice(readme.indexOf("#### Every parameter, by name"));
  const rows = [...section.matchAll(/^\| `([\w.]+)` \| (-?[\d.]+) \|/gm)];
  return new Map(rows.map((m) => [m[1], Number(m[2])]));
}

test("data/README.md's parameter table names every parameter of the demo generator's MODEL at its value, and no other", () => {
  const table = parameterTable();
  const model = new Map(numericParameters(MODEL));
  assert.ok(model.size > 50, `${model.size} parameters`);
  const wrong = [...model].filter(([k, v]) => table.get(k) !== v).map(([k, v]) => `${k}: ${table.get(k)} (MODEL ${v})`);
  assert.deepEqual(wrong, [], "parameters the table states at another value or not at all");
  assert.deepEqual(
    [...table.keys()].filter((k) => !model.has(k)),
    [],
    "table rows naming no parameter of MODEL",
  );
});

test("the prose of data/README.md's model states each parameter's current value (as a decimal or a percentage)", () => {
  // Only the model's prose, not the table above nor the figures below, so a value cannot be found by accident in
  // another figure of the file.
  const prose = readme.slice(
    readme.indexOf("### Latent-progress model"),
    readme.indexOf("#### Every parameter, by name"),
  );
  const missing = numericParameters(MODEL).filter(([, v]) => {
    const forms = [String(v), `${Number((v * 100).toFixed(1))}%`];
    return !forms.some((f) => new RegExp(`(^|[^\\d.])${f.replaceAll(".", "\\.")}($|[^\\d])`).test(prose));
  });
  assert.deepEqual(missing, [], "parameters whose value the model's prose does not state");
});

const figure = (path: string): number => {
  const v = figures[path];
  assert.ok(v !== undefined, `no figure ${path} in the golden demo report`);
  return Number(v);
};

/** The demo column's numbers of the "How close the pipeline lands" row whose label starts with `label`. */
function demoCell(label: string): number[] {
  const row = readme.split("\n").find((l) => l.startsWith(`| ${label}`));
  assert.ok(row, `data/README.md has no table row "${label}"`);
  const demo = row.split("|")[2];
  return [...demo.matchAll(/-?\d[\d,]*(\.\d+)?/g)].map((m) => Number(m[0].replaceAll(",", "")));
}

const f3 = (x: number) => Number(x.toFixed(3));
const pct = (x: number) => Number((100 * x).toFixed(1));

test("data/README.md's table of the demo's figures is what the report prints for the demo", () => {
  const rows: [string, number[]][] = [
    ["AUC GCPC", ["gcpc", "holistic", "generic", "tick", "tick_adapted"].map((m) => f3(figure(`rq1.auc[${m}].auc`)))],
    ["paired ΔAUC [95% CI]", ["rq1.paired.delta", "rq1.paired.ci[0]", "rq1.paired.ci[1]"].map((p) => f3(figure(p)))],
    [
      "FAIL→FAIL improve / regress",
      ["improved_share", "regressed_share"].map((s) => pct(figure(`rq3.transitions[FAIL→FAIL].${s}`))),
    ],
    [
      "median Δ FAIL→PASS",
      ["FAIL→PASS", "PASS→FAIL"].flatMap((g) =>
        ["median_delta", "median_delta_ci[0]", "median_delta_ci[1]"].map((s) =>
          f3(figure(`rq3.transitions[${g}].${s}`)),
        ),
      ),
    ],
    [
      "separation none",
      ["none", "endpoint", "propagation", "both"].map((v) => f3(figure(`rq4.outcome_step[${v}].separation`))),
    ],
    ["forced-verdict separation", [f3(figure("rq4.abstention[forced].separation"))]],
    [
      "Perfect agrees",
      [pct(figure("rq4.perfect_agreement.without_endpoint")), pct(figure("rq4.perfect_agreement.with_endpoint"))],
    ],
    ["pairwise agreement", ["gcpc", "holistic"].map((m) => f3(figure(`rq2.methods[${m}].agreement`)))],
    ["ρ with Q1", ["gcpc", "holistic"].map((m) => f3(figure(`rq2.methods[${m}].rho`)))],
    ["reliability α", ["alpha", "ci[0]", "ci[1]"].map((s) => f3(figure(`rq5.reliability.${s}`)))],
    [
      "judge substitution",
      ["rho_plain", "rho_outcome"].map((s) => f3(figure(`rq5.judge_substitution[claude-haiku-4.5].${s}`))),
    ],
  ];
  for (const [label, expected] of rows)
    assert.deepEqual(demoCell(label).slice(0, expected.length), expected, `data/README.md row "${label}"`);
  const q1 = demoCell("α Q1");
  assert.equal(q1[0], f3(figure("rq2.alpha_q1.alpha")), "data/README.md row α Q1");
});
