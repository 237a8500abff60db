// The documented commands resolve to this repository's CLI only: no `npx gcpc` (npx asks the registry when
// its lookup misses, and would run a published package of that name), and the README's main command runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repo = new URL("..", import.meta.url).pathname;
/** npx or npm exec running gcpc with arguments. */
const NPX_GCPC = /\b(npx|npm exec)\b[^`\n]*\bgcpc\s+\S/;
/** The same in an indented code line or an inline code span. */
const COMMAND = /(^\s{4,}|`)[^`\n]*\b(npx|npm exec)\b[^`\n]*\bgcpc\s+\S/;

/** The lines of a Markdown text that run gcpc through npx: in a fenced block (``` or ~~~, at any indent), an
 * indented code line or an inline code span. Numbered from 1. */
export function npxGcpcLines(text: string): number[] {
  let fence: string | undefined;
  const out: number[] = [];
  text.split("\n").forEach((line, i) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence !== undefined ? NPX_GCPC.test(line) : COMMAND.test(line)) out.push(i + 1);
  });
  return out;
}

test("the check finds npx gcpc in a fenced block at column 0, an indented line and a code span, not in prose", () => {
  const text = [
    "Run it:", // 1
    "```sh", // 2
    "npx gcpc report data/demo", // 3: fenced, column 0
    "```", // 4
    "    npm exec gcpc -- validate x", // 5: indented
    "or `npx gcpc leaderboard x`.", // 6: code span
    "Never type npx to run gcpc here.", // 7: prose, no arguments after gcpc
    "~~~", // 8
    "node bin/gcpc.js report data/demo", // 9: the repository's own CLI
    "~~~", // 10
  ].join("\n");
  assert.deepEqual(npxGcpcLines(text), [3, 5, 6]);
});

test("no documented command runs gcpc through npx (or npm exec), which can resolve to a registry package", () => {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.md"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.startsWith("node_modules/"));
  const offenders = files.flatMap((f) => {
    const text = readFileSync(join(repo, f), "utf8");
    const lines = text.split("\n");
    return npxGcpcLines(text).map((n) => `${f}:${n}: ${lines[n - 1].trim()}`);
  });
  assert.deepEqual(offenders, []);
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  assert.match(readme, /^ {4}npm ci && node bin\/gcpc\.js report data\/demo$/m);
});
