import { test } from "node:test";
import assert from "node:assert/strict";
import { ci, DEGENERATE_TEXT, f3, isDegenerate, ZERO_SE_TEXT } from "../report/format.js";

// The site cannot import report/format.ts (Framework refuses page imports above src/), so
// src/components/number-format.js restates its interval texts: both must print the same.
test("the site's interval formats print what the report's print (texts, three decimals, degenerate marks)", async () => {
  const page = "../src/components/number-format.js"; // plain JavaScript served to the browser: no types
  const site = (await import(page)) as {
    DEGENERATE_TEXT: string;
    ZERO_SE_TEXT: string;
    fmt: (x: number | null) => string;
    fmtCI: (c: [number, number] | null, missing?: string, degenerate?: boolean) => string;
    fmtInterval: (c: [number, number] | null, f: (x: number) => string, missing?: string, d?: boolean) => string;
    isDegenerate: (b: { degenerate?: string[] } | null, stat?: string) => boolean;
  };
  assert.equal(site.DEGENERATE_TEXT, DEGENERATE_TEXT);
  assert.equal(site.ZERO_SE_TEXT, ZERO_SE_TEXT);
  for (const c of [
    [0.1234, 0.98765],
    [1, 1],
    [-0.0005, 0.25],
  ] as [number, number][])
    for (const degenerate of [false, true]) assert.equal(site.fmtCI(c, "n/a", degenerate), ci(c, degenerate));
  assert.equal(site.fmtCI(null), ci(null));
  assert.equal(site.fmt(0.6915961), f3(0.6915961));
  assert.equal(
    site.fmtInterval([0.5, 0.75], (x) => `${100 * x}%`),
    "[50%, 75%]",
  );
  assert.equal(site.fmtInterval(null, String, ""), "");
  for (const b of [null, {}, { degenerate: [] }, { degenerate: ["median"] }, { degenerate: ["auc", "median"] }])
    for (const stat of [undefined, "median", "improved"])
      assert.equal(site.isDegenerate(b, stat), isDegenerate(b, stat), `${JSON.stringify(b)} ${stat}`);
});
