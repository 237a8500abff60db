import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

// docs/architecture.md: the floors and what each may import. A file may import its own floor and
// the floors listed for it; nothing imports upward, and cli/ and src/ never import each other.
const ALLOWED: Record<string, string[]> = {
  analysis: ["analysis"],
  store: ["store", "analysis"],
  report: ["report", "store", "analysis"],
  cli: ["cli", "report", "store", "analysis"],
  src: ["src", "report", "store", "analysis"],
};
const repo = new URL("..", import.meta.url).pathname;
const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repo, encoding: "utf8" })
  .split("\n")
  .filter((f) => /\.(ts|js|md)$/.test(f) && f.split("/")[0] in ALLOWED && !f.includes(".observablehq"));

function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1]);
  return out;
}

/** Imports of `file` (a repo path) that leave the repo or go up or sideways across floors. */
function violations(file: string, text: string): string[] {
  const floor = file.split("/")[0];
  const out: string[] = [];
  for (const spec of importsOf(text)) {
    if (!spec.startsWith(".")) continue;
    const target = normalize(join(dirname(file), spec)).split("/")[0];
    if (target.startsWith("..")) out.push(`${file} imports ${spec} (outside the repo)`);
    else if (target in ALLOWED && !ALLOWED[floor].includes(target)) out.push(`${file} (${floor}/) imports ${spec}`);
  }
  return out;
}

test("imports go down the floors only: analysis ← store ← report ← {cli, src}", () => {
  assert.deepEqual(
    files.flatMap((f) => violations(f, readFileSync(join(repo, f), "utf8"))),
    [],
  );
});

test("the floor check fails on an upward or sideways import", () => {
  assert.equal(violations("analysis/rq/x.ts", 'import { readStore } from "../../store/read-store.js";').length, 1);
  assert.equal(violations("store/x.ts", 'import { reportSections } from "../report/sections.js";').length, 1);
  assert.equal(violations("src/data/x.ts", 'import { runCli } from "../../cli/main.js";').length, 1);
  assert.equal(violations("cli/x.ts", 'const m = await import("../src/data/site.zip.js");').length, 1);
  assert.equal(violations("report/x.ts", 'import { readStore } from "../store/read-store.js";').length, 0);
});

test("analysis/ is pure: no Node built-ins, no file or process access", () => {
  const impure = files
    .filter((f) => f.startsWith("analysis/"))
    .flatMap((f) => {
      const text = readFileSync(join(repo, f), "utf8");
      const bad = importsOf(text).filter((s) => s.startsWith("node:") || ["fs", "path", "child_process"].includes(s));
      if (/\bprocess\.(env|argv|stdout|exit)/.test(text)) bad.push("process.*");
      return bad.map((b) => `${f}: ${b}`);
    });
  assert.deepEqual(impure, []);
});

test("no line over 120 characters in the code (tests keep long expected messages whole)", () => {
  const long = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter(
      (f) => /\.(ts|js)$/.test(f) && !f.startsWith("test/") && !f.startsWith("data/") && !f.includes(".observablehq"),
    )
    .flatMap((f) =>
      readFileSync(join(repo, f), "utf8")
        .split("\n")
        .flatMap((line, i) => (line.length > 120 ? [`${f}:${i + 1} (${line.length})`] : [])),
    );
  assert.deepEqual(long, []);
});

/** The relative imports of each file, static, re-exported, side-effect only (`import "./x.js"`) or dynamic,
 * resolved to the files given (a `.js` specifier names a `.ts` source when no such `.js` file is given). */
export function moduleEdges(texts: Map<string, string>): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  const IMPORT =
    /(?:import|export)[^"';]*?from\s+["'](\.[^"']+)["']|\bimport\s*\(\s*["'](\.[^"']+)["']|\bimport\s+["'](\.[^"']+)["']/g;
  for (const [f, text] of texts) {
    const deps = [...text.matchAll(IMPORT)]
      .map((m) => normalize(join(dirname(f), m[1] ?? m[2] ?? m[3])))
      .map((d) => (texts.has(d) ? d : d.replace(/\.js$/, ".ts")))
      .filter((d) => texts.has(d));
    edges.set(f, deps);
  }
  return edges;
}

/** The import circles: Tarjan's strongly connected components of more than one module, and self-imports. */
export function importCircles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) circles.push(component.sort());
  };
  for (const f of edges.keys()) if (!index.has(f)) visit(f);
  return circles;
}

test("the circle check finds a circle closed by a side-effect import, a dynamic one, and one inside src/", () => {
  const circles = (files: Record<string, string>) => importCircles(moduleEdges(new Map(Object.entries(files))));
  assert.deepEqual(circles({ "store/a.ts": 'import "./b.js";', "store/b.ts": 'import { a } from "./a.js";' }), [
    ["store/a.ts", "store/b.ts"],
  ]);
  assert.deepEqual(circles({ "cli/a.ts": 'await import("./b.js");', "cli/b.ts": 'export { a } from "./a.js";' }), [
    ["cli/a.ts", "cli/b.ts"],
  ]);
  assert.deepEqual(
    circles({ "src/components/a.js": 'import "./b.js";', "src/components/b.js": 'import { x } from "./a.js";' }),
    [["src/components/a.js", "src/components/b.js"]],
  );
  assert.deepEqual(circles({ "store/a.ts": 'import "./b.js";', "store/b.ts": "export const b = 1;" }), []);
});

test("no import circle anywhere: type imports count too (a module's plan types live with the module, jobs.ts composes them)", () => {
  // The floors and the site's own modules (src/: not the vendored or bundled files, which import nothing of ours).
  const files = execFileSync("git", ["ls-files", "analysis", "store", "report", "cli", "src"], {
    cwd: repo,
    encoding: "utf8",
  })
    .split("\n")
    .filter(
      (f) =>
        /\.(ts|js)$/.test(f) &&
        !f.includes(".observablehq") &&
        !f.startsWith("src/components/vendor/") &&
        !/src\/components\/(gcpc-analysis|compare-worker)\.js$/.test(f),
    );
  const circles = importCircles(moduleEdges(new Map(files.map((f) => [f, readFileSync(join(repo, f), "utf8")]))));
  assert.deepEqual(circles, []);
});
