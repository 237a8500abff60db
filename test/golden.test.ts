import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GOLDEN_FILE, goldenDigests } from "./helpers/golden.js";

// Byte-identical reports across refactors: a restructuring that changes any output fails here.
// A deliberate change of a figure updates the file with `npm run golden:update`.
test("report outputs are byte-identical to the recorded digests", async () => {
  process.chdir(new URL("..", import.meta.url).pathname);
  const expected = JSON.parse(readFileSync(GOLDEN_FILE, "utf8"));
  const actual = await goldenDigests();
  assert.deepEqual(actual, expected, "a report output changed: if on purpose, run `npm run golden:update`");
});
