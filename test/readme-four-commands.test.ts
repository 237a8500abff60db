// The README's "Your runs in four commands" run as printed: import, compare and leaderboard on the bundled
// synthetic table (the site command's build is what the site tests exercise on other stores).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

/** The commands of the first indented block after a heading: continuation lines joined, split into words. */
export function blockCommands(markdown: string, heading: string): string[][] {
  const lines = markdown.split("\n");
  let i = lines.indexOf(heading);
  assert.ok(i >= 0, `no heading ${heading}`);
  while (!lines[i].startsWith("    ")) i++;
  const block: string[] = [];
  for (; lines[i]?.startsWith("    "); i++) block.push(lines[i].trim());
  return block
    .join("\n")
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .map((line) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]));
}

test("the README's four commands: import table, compare and leaderboard run on the bundled synthetic table", async () => {
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const commands = blockCommands(readme, "## Your runs in four commands");
  assert.deepEqual(
    commands.map((c) => c.slice(0, 3).join(" ")),
    ["node bin/gcpc.js import", "node bin/gcpc.js compare", "node bin/gcpc.js leaderboard", "node bin/gcpc.js site"],
  );
  assert.ok(readme.split("\n").indexOf("## Your runs in four commands") < 80, "within the README's first 80 lines");
  const dir = tempDir("gcpc-readme-four-");
  try {
    // The repo's paths as the README gives them (run from the clone), the user's folders in a temporary one.
    const argv = (c: string[]) =>
      c.slice(2).map((a) => (a === "my-store" ? join(dir, "my-store") : a.startsWith("examples/") ? join(repo, a) : a));
    const imported = await cli(argv(commands[0]));
    assert.equal(imported.code, 0, imported.stderr);
    const compared = await cli(argv(commands[1]));
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /Over the matched units: pass rate a \d+\.\d%, b \d+\.\d%\. \*\*Pass-rate Δ/);
    const board = await cli(argv(commands[2]));
    assert.equal(board.code, 0, board.stderr);
    assert.match(board.stdout, /^# Leaderboard: example runs \(synthetic\)/);
    assert.equal((board.stdout.match(/^\| \d+ \[/gm) ?? []).length, 3, "three models ranked");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
