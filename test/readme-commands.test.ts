// The documented commands resolve to this repository's CLI only: no `npx gcpc` (npx asks the registry when
// its lookup misses, and would run a published package of that name), and the README's main command runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repo = new URL("..", import.meta.url).pathname;
/** A command (an indented code line, or an inline code span) running gcpc with arguments through npx / npm exec. */
const COMMAND = /(^\s{4,}|`)[^`\n]*\b(npx|npm exec)\b[^`\n]*\bgcpc\s+\S/;

test("no documented command runs gcpc through npx (or npm exec), which can resolve to a registry package", () => {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.md"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("node_modules/"));
  const offenders = files.flatMap((f) =>
    readFileSync(join(repo, f), "utf8")
      .split("\n")
      .flatMap((line, i) => (COMMAND.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(offenders, []);
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  assert.match(readme, /^ {4}npm ci && node bin\/gcpc\.js report data\/demo$/m);
});
