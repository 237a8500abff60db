import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { changedFigures, GOLDEN_FIGURES_FILE, GOLDEN_FILE, goldenOutputs } from "./helpers/golden.js";

// Byte-identical reports across refactors: a restructuring that changes any output fails here, naming the
// figures that moved (test/golden/report-figures.json holds them readable). A deliberate change of a figure
// updates both files with `npm run golden:update`, which prints the figures that changed.
test("report outputs are byte-identical to the recorded digests, figure by figure", async () => {
  process.chdir(new URL("..", import.meta.url).pathname);
  const expected = JSON.parse(readFileSync(GOLDEN_FILE, "utf8"));
  const figures = JSON.parse(readFileSync(GOLDEN_FIGURES_FILE, "utf8"));
  const actual = await goldenOutputs();
  const changed = changedFigures(figures, actual.figures);
  assert.deepEqual(
    changed.slice(0, 40),
    [],
    `${changed.length} figure(s) changed: if on purpose, run \`npm run golden:update\``,
  );
  assert.deepEqual(actual.digests, expected, "a report output changed: if on purpose, run `npm run golden:update`");
});
