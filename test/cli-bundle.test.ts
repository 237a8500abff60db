import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const gcpc = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), ...args], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  });

test("bin/gcpc.js runs the CLI from the bundle it records, and gives what tsx gives", () => {
  // --resamples 100: what is tested is that both routes run the same code, not the interval.
  const bundled = gcpc({}, "report", "data/demo", "--format", "json", "--resamples", "100");
  assert.equal(bundled.status, 0, bundled.stderr);
  const current = JSON.parse(readFileSync(join(repo, "node_modules/.cache/gcpc-cli/current.json"), "utf8"));
  assert.ok(existsSync(join(repo, "node_modules/.cache/gcpc-cli", current.dir, "main.mjs")));
  assert.ok(existsSync(join(repo, "node_modules/.cache/gcpc-cli", current.dir, "job-worker-main.mjs")));
  for (const source of ["cli/main.ts", "cli/job-worker-main.ts", "analysis/stats/bootstrap.ts"])
    assert.match(current.inputs[source], /^\d+:\d/, source);
  const tsx = gcpc({ GCPC_NO_BUNDLE: "1" }, "report", "data/demo", "--format", "json", "--resamples", "100");
  assert.equal(tsx.status, 0, tsx.stderr);
  assert.ok(bundled.stdout.length > 1000);
  assert.equal(bundled.stdout, tsx.stdout);
});

test("the bundle is built again when a source changes, and kept while none does", async () => {
  // A repository of two sources beside a copy of bin/cli-bundle.js, with esbuild linked in.
  const root = tempDir("gcpc-bundle-");
  for (const dir of ["bin", "cli", "node_modules"]) mkdirSync(join(root, dir));
  copyFileSync(join(repo, "bin/cli-bundle.js"), join(root, "bin/cli-bundle.js"));
  symlinkSync(join(repo, "node_modules/esbuild"), join(root, "node_modules/esbuild"));
  writeFileSync(join(root, "cli/job-worker-main.ts"), "export function serve(): void {}\n");
  const main = join(root, "cli/main.ts");
  writeFileSync(main, 'export const answer: string = "first";\n');
  const { bundledCliUrl } = await import(pathToFileURL(join(root, "bin/cli-bundle.js")).href);
  const first: string = await bundledCliUrl();
  assert.equal((await import(first)).answer, "first");
  assert.equal(await bundledCliUrl(), first, "no source changed: the same build");
  writeFileSync(main, 'export const answer: string = "second";\n');
  utimesSync(main, new Date(), new Date(Date.now() + 5000));
  const second: string = await bundledCliUrl();
  assert.notEqual(second, first);
  assert.equal((await import(second)).answer, "second");
  assert.ok(existsSync(new URL(first)), "the earlier build stays for a process still running it");
});

test("a command starts without the packages only some commands use: the bundle imports them where they are used", async () => {
  const { bundledCliUrl } = await import(pathToFileURL(join(repo, "bin/cli-bundle.js")).href);
  const main = new URL(await bundledCliUrl()).pathname;
  // Every module the bundle's entry loads before its first line runs: its static imports, and theirs.
  const loaded = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/^import\s(?:[^;]*?\sfrom\s)?"([^"]+)";/gms))
      if (specifier.startsWith("./")) visit(join(file, "..", specifier));
      else
        packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
  };
  visit(main);
  // What every analysis command needs is loaded at the start (so the scan above sees the imports)…
  for (const needed of ["zod", "d3", "seedrandom"]) assert.ok(packages.has(needed), `${needed} among ${[...packages]}`);
  // …and what one kind of store or one command needs is not: DuckDB for a folder (a ClickHouse read spent 0.12 s of
  // its start loading it), the ClickHouse client for a ClickHouse store, Arrow, JSZip and esbuild for a site, fzstd
  // for an Inspect import.
  for (const lazy of ["@duckdb/node-api", "@clickhouse/client", "apache-arrow", "jszip", "esbuild", "fzstd"])
    assert.ok(!packages.has(lazy), `${lazy} is imported at the CLI's start`);
});
