// The site's CSV downloads (src/components/csv.js) follow the CLI's rule for untrusted text (report/render.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { csvValue } from "../report/render.js";
import { WEIRD_VALUES } from "./helpers/weird-values.js";
// @ts-expect-error: a plain JS component of the site, untyped
import { csvCell, toCsv } from "../src/components/csv.js";

test("csv.js cells equal the CLI's csvValue on hostile text and numbers", () => {
  const texts = [
    ...WEIRD_VALUES.filter((v) => typeof v === "string"),
    "-1",
    "-1.5e-3",
    "+1",
    "@sum",
    "\tx",
    'say "hi", then\nleave',
    "\u001b[31mred\u001b[0m",
    '=HYPERLINK("http://x")',
  ] as string[];
  for (const t of texts) assert.equal(csvCell(t), csvValue(t), JSON.stringify(t));
  for (const n of [0, -1, 1.5, 1e308, 0.1 + 0.2]) assert.equal(csvCell(n), csvValue(n));
  assert.equal(csvCell(null), csvValue(null));
});

test("toCsv: a header, one line per row, cells in column order", () => {
  assert.equal(
    toCsv([
      { task: "=x", delta: -0.5 },
      { task: "a,b", delta: null },
    ]),
    'task,delta\n\'=x,-0.5\n"a,b",\n',
  );
});

test("the guard by value, on both sides: a leading - is guarded unless the whole cell is a number (issue 55.5)", () => {
  // Written out, not compared with each other: a guard dropping "-", or a numeric exemption not anchored at both
  // ends ("-1+HYPERLINK(…)" starts like a number), fails here on whichever side has it.
  const expected: [string, string][] = [
    ['-1+HYPERLINK("x")', `"'-1+HYPERLINK(""x"")"`],
    ["-cmd|calc", "'-cmd|calc"],
    ["-1.5", "-1.5"],
    ["-2e3", "-2e3"],
    ["+1", "'+1"],
    ["=1", "'=1"],
    ["@x", "'@x"],
  ];
  for (const [text, cell] of expected) {
    assert.equal(csvCell(text), cell, `site: ${text}`);
    assert.equal(csvValue(text), cell, `CLI: ${text}`);
  }
});
