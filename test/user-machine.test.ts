// A user's machine with a user's data. Each test names the finding it guards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { csvParse, autoType } from "d3";
import { cli, treeHash } from "./helpers/run-cli.js";
import { importHarbor } from "../store/import/harbor.js";
import { TIDY_COLUMNS } from "../report/tidy.js";
import { LATEX_PREAMBLE } from "../report/latex.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const example = join(repo, "examples/jsonl-store");
const csvExample = join(repo, "examples/csv-store");
const tmp = () => tempDir("gcpc-user-");
const noStack = (stderr: string) => assert.doesNotMatch(stderr, /^\s+at /m, `stack trace on stderr:\n${stderr}`);

// The folder beside the repo that a user's clone never has; spelt in pieces so this file does not match itself.
const BESIDE = ["..", "shared"].join("/");

test("finding 1: no tracked file refers to the folder beside the repo; the contract, paper page and examples are in it", () => {
  const r = spawnSync(
    "git",
    ["grep", "-n", "-F", "-e", BESIDE, "-e", ["GCPC", "SHARED", "DATA"].join("_"), "--", "."],
    { cwd: repo, encoding: "utf8" },
  );
  assert.equal(r.stdout, "", `references to ${BESIDE}`);
  for (const f of [
    "docs/verdict-store.md",
    "docs/paper.md",
    "examples/jsonl-store/judgments.jsonl",
    "examples/csv-store/judgments.csv",
    "data/real/raw/harbor-trials/INDEX.csv",
    "data/real/raw/skillsbench-registry/results-registry.csv",
  ]) {
    assert.ok(existsSync(join(repo, f)), f);
  }
  assert.match(readFileSync(join(repo, "docs/verdict-store.md"), "utf8"), /schema_version 2/);
});

test("finding 2: report --out into a store or onto a store folder is refused, exit 2, the user's file unchanged", async () => {
  const dir = tmp();
  const store = join(dir, "store");
  cpSync(example, store, { recursive: true });
  const before = treeHash(store);
  for (const out of [join(store, "judgments.jsonl"), store, join(store, "new-report.md"), example]) {
    const r = await cli(["report", store, "--resamples", "50", "--out", out]);
    assert.equal(r.code, 2, `${out}: ${r.stderr}`);
    assert.match(
      r.stderr,
      /^gcpc: refusing to write .*: it (is an input|is inside the input|is inside the store|is an existing store folder)/,
    );
    noStack(r.stderr);
  }
  const folder = join(dir, "a-folder");
  mkdirSync(folder);
  const r = await cli(["report", store, "--resamples", "50", "--out", folder]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /it is a folder \(give a file path\)/);
  assert.equal(treeHash(store), before, "the store is byte-identical");
  const ok = await cli(["report", store, "--resamples", "50", "--out", join(dir, "report.md")]);
  assert.equal(ok.code, 0, ok.stderr);
  rmSync(dir, { recursive: true });
});

test("finding 2: generate and import refuse existing stores, inputs and folders inside stores", async () => {
  const dir = tmp();
  const store = join(dir, "store");
  cpSync(example, store, { recursive: true });
  const before = treeHash(store);
  const cases: string[][] = [
    ["generate", store, "--seed", "1", "--scale", "0.05"],
    ["generate", join(store, "inner"), "--seed", "1", "--scale", "0.05"],
    [
      "import",
      "skillsbench-registry",
      join(repo, "data/real/raw/skillsbench-registry/results-registry.csv"),
      "--out",
      store,
    ],
    [
      "import",
      "harbor",
      join(repo, "data/real/raw/harbor-trials"),
      "--out",
      join(repo, "data/real/raw/harbor-trials/x"),
    ],
  ];
  for (const argv of cases) {
    const r = await cli(argv);
    assert.equal(r.code, 2, `${argv.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, /refusing to write/);
    noStack(r.stderr);
  }
  assert.equal(treeHash(store), before);
  rmSync(dir, { recursive: true });
});

test("finding 6: a judgment with the judge omitted and one naming the primary judge are one key: a validation error naming both rows", async () => {
  const dir = tmp();
  cpSync(example, join(dir, "s"), { recursive: true });
  const lines = readFileSync(join(dir, "s/judgments.jsonl"), "utf8").trimEnd().split("\n");
  const first = JSON.parse(lines[0]);
  lines.push(JSON.stringify({ ...first, label: first.label === "Yes" ? "No" : "Yes", judge: "judge-1", run: 1 }));
  writeFileSync(join(dir, "s/judgments.jsonl"), `${lines.join("\n")}\n`);
  const r = await cli(["validate", join(dir, "s")]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `judgments\\.jsonl, line ${lines.length}, field "item_id": duplicate judgment .*normalized.*judge-1" \\(first at line 1\\)`,
    ),
  );
  rmSync(dir, { recursive: true });
});

test("finding 7: import harbor lists symlink loops and dangling links, imports a folder reached twice once, never crashes", async () => {
  const dir = tmp();
  const root = join(dir, "trials");
  cpSync(join(repo, "data/real/raw/harbor-trials/shenghan"), join(root, "shenghan"), { recursive: true });
  symlinkSync(join(root, "shenghan"), join(root, "again")); // the same trials through a link
  symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
  symlinkSync(join(root, "loop-b"), join(root, "loop-a")); // a link loop
  symlinkSync(join(dir, "nowhere"), join(root, "dangling"));
  symlinkSync(root, join(root, "shenghan", "up")); // a link back up the tree
  const direct = importHarbor([join(repo, "data/real/raw/harbor-trials/shenghan")]).store.trajectories.length;
  const { store, skipped } = importHarbor([root]);
  assert.equal(store.trajectories.length, direct, "each trial once");
  const reasons = skipped.map((s) => `${s.folder}: ${s.reason}`).join("\n");
  assert.match(reasons, /loop-a: symbolic link loop/);
  assert.match(reasons, /dangling: dangling symbolic link/);
  assert.match(reasons, /reached twice through a symbolic link/);
  const r = await cli(["import", "harbor", root, "--out", join(dir, "out"), "--format", "jsonl"]);
  assert.equal(r.code, 0, r.stderr);
  noStack(r.stderr);
  rmSync(dir, { recursive: true });
});

test("finding 8: --format csv is tidy and loads with d3-dsv into numeric columns", async () => {
  const r = await cli(["report", example, "--format", "csv", "--resamples", "100"]);
  assert.equal(r.code, 0, r.stderr);
  const rows = csvParse(r.stdout, autoType) as unknown as Record<string, unknown>[] & { columns: string[] };
  assert.deepEqual(rows.columns, [...TIDY_COLUMNS]);
  for (const col of ["estimate", "ci_low", "ci_high", "n", "tasks", "resamples"]) {
    for (const row of rows)
      assert.ok(row[col] === null || typeof row[col] === "number", `${col} = ${JSON.stringify(row[col])}`);
  }
  const auc = rows.find((x) => x.section === "rq1_auc" && x.quantity === "auc" && x.group === "gcpc")! as Record<
    string,
    number
  >;
  const json = JSON.parse((await cli(["report", example, "--format", "json", "--resamples", "100"])).stdout);
  const gcpc = json.rq1.auc.find((a: { method: string }) => a.method === "gcpc");
  assert.equal(auc.estimate, gcpc.auc);
  assert.deepEqual([auc.ci_low, auc.ci_high], gcpc.ci);
  assert.equal(auc.resamples, 100);
  assert.ok(
    rows.some((x) => typeof x.estimate === "number" && x.estimate < 0),
    "negative numbers stay numbers (no apostrophe)",
  );
});

test("finding 8: every LaTeX table compiles with pdflatex (booktabs, longtable, math-mode symbols)", async (t) => {
  const which = spawnSync("sh", ["-c", "command -v pdflatex"], { encoding: "utf8" });
  assert.equal(which.status, 0, "pdflatex is installed by scripts/setup.sh");
  const r = await cli(["report", join(repo, "data/demo"), "--format", "latex", "--resamples", "50"]);
  assert.equal(r.code, 0, r.stderr);
  const tables = r.stdout.split(/(?=^% table )/m).filter((s) => s.trim());
  assert.ok(tables.length >= 15, `${tables.length} tables`);
  assert.ok(!/\\begin\{tabular\}\{l+\}/.test(r.stdout), "numeric columns are not left-aligned");
  const dir = tmp();
  // One document per table: each fragment compiles on its own.
  for (const [i, table] of tables.entries()) {
    const tex = [
      "\\documentclass{article}",
      ...LATEX_PREAMBLE,
      "\\usepackage[margin=2cm]{geometry}",
      "\\begin{document}",
      table,
      "\\end{document}",
      "",
    ].join("\n");
    writeFileSync(join(dir, `t${i}.tex`), tex);
    const run = spawnSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", `t${i}.tex`], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.equal(
      run.status,
      0,
      `table ${i} (${table.split("\n")[0]}):\n${run.stdout
        .split("\n")
        .filter((l) => l.startsWith("!"))
        .join("\n")}`,
    );
    assert.doesNotMatch(run.stdout, /^! /m);
    // Every table fits the text block: no line of it runs past the margin.
    const overfull =
      readFileSync(join(dir, `t${i}.log`), "latin1").match(/Overfull \\hbox \([\d.]+pt too wide\)/g) ?? [];
    assert.deepEqual(overfull, [], `table ${i} (${table.split("\n")[0].slice(0, 40)}) runs past the margin`);
  }
  t.diagnostic(`${tables.length} tables compiled`);
  rmSync(dir, { recursive: true });
});

test("finding 9: --version, help per command (exit 2 for an unknown one), missing paths, flags that do not apply", async () => {
  const v = await cli(["--version"]);
  assert.equal(v.code, 0);
  assert.equal(v.stdout, `gcpc ${JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).version}\n`);
  for (const c of ["validate", "report", "site", "generate", "import"]) {
    const h = await cli(["help", c]);
    assert.equal(h.code, 0);
    assert.match(h.stdout, new RegExp(`^gcpc ${c} `));
  }
  const cases: [string[], RegExp][] = [
    [["help", "harbor"], /no help for "harbor"/],
    [["help", "foo"], /no help for "foo"/],
    [[], /Usage:/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [["validate", "/no/such/store"], /\/no\/such\/store: no such file or directory/],
    [["validate", join(repo, "package.json")], /not a folder/],
    [["report", "/no/such/store"], /no such file or directory/],
    [["report", example, "--per-trajectory"], /--per-trajectory applies to --format json only/],
    [["report", example, "--format", "json", "--paper"], /--paper \/ --no-paper apply to md, csv and latex/],
    [["report", example, "--paper", "--no-paper"], /contradict/],
    [["report", example, "--format", "xml"], /--format must be md, json, csv, latex/],
    [["report", example, "--resamples", "0"], /--resamples must be an integer >= 1/],
    [
      ["report", example, "--resamples", "-5"],
      /--resamples needs a value, got "-5" \(a value may not start with "-"\)/,
    ],
    [["report", example, "--benchmark", "x"], /--benchmark "x": the store's benchmarks are/],
    [
      ["site", example, "--out", join(tmpdir(), "gcpc-never"), "--benchmark", "x"],
      /unknown option --benchmark \(try gcpc help site\)/,
    ],
    [["report", example, csvExample], /exactly one store \(a folder or clickhouse:\/\/…/],
    [["validate", example, "--seed", "3"], /unknown option --seed \(try gcpc help validate\)/],
    [["generate", join(tmpdir(), "gcpc-never")], /needs --seed/],
    [
      ["generate", join(tmpdir(), "gcpc-never"), "--seed", "1", "--scale", "5000"],
      /--scale must be a number in \(0, 1000\]/,
    ],
    [["generate", join(tmpdir(), "gcpc-never"), "--seed", "1", "--format", "csv"], /--format must be parquet, jsonl/],
    [["import", "nothing", "x", "--out", "y"], /unknown import kind "nothing"/],
    [
      ["import", "harbor", "/no/such/dir", "--out", join(tmpdir(), "gcpc-never")],
      /\/no\/such\/dir: no such file or directory/,
    ],
    [["import", "harbor", example], /import needs --out/],
    [
      [
        "import",
        "harbor",
        join(repo, "data/real/raw/harbor-trials"),
        "--out",
        join(tmpdir(), "gcpc-never"),
        "--verdicts",
        "/no/verdicts.jsonl",
      ],
      /\/no\/verdicts\.jsonl: no such file or directory/,
    ],
    [
      ["import", "skillsbench-registry", join(repo, "data/real/raw"), "--out", join(tmpdir(), "gcpc-never")],
      /is a folder, not a CSV file/,
    ],
    [
      [
        "import",
        "skillsbench-registry",
        join(repo, "data/real/raw/skillsbench-registry/results-registry.csv"),
        "--out",
        join(tmpdir(), "gcpc-never"),
        "--verdicts",
        example,
      ],
      /--verdicts applies to import harbor, not import skillsbench-registry/,
    ],
    [["site", example], /site needs --out/],
    [["site", example, "--out", example], /refusing to write/],
    [["site", example, "--out", join(repo, "data")], /not empty \(and is not a previous site build\)/],
    [
      ["validate", join(repo, "test/fixtures/stores/malformed/unknown-label")],
      /judgments\.jsonl, line 3, field "label"/,
    ],
  ];
  for (const [argv, message] of cases) {
    const r = await cli(argv);
    assert.equal(r.code, 2, `${argv.join(" ")} → ${r.code}: ${r.stderr}`);
    assert.match(r.stderr, message, argv.join(" "));
    noStack(r.stderr);
  }
  assert.equal(existsSync(join(tmpdir(), "gcpc-never")), false);
  // The real process too: exit status and no stack for a usage error.
  const p = spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "help", "harbor"], { encoding: "utf8" });
  assert.equal(p.status, 2);
  noStack(p.stderr);
});

test("finding 9: store text is escaped in markdown (headings included) and control characters never reach the output", async () => {
  const dir = tmp();
  cpSync(example, join(dir, "s"), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, "s/store.json"), "utf8"));
  manifest.name = "evil \u001b[31mred\u001b[0m <script>alert(1)</script> | # _x_";
  writeFileSync(join(dir, "s/store.json"), JSON.stringify(manifest));
  const md = await cli(["report", join(dir, "s"), "--resamples", "50"]);
  assert.equal(md.code, 0, md.stderr);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for an escape character
  assert.doesNotMatch(md.stdout, /\u001b/);
  assert.doesNotMatch(md.stdout, /<script>/);
  assert.match(md.stdout, /^# GCPC report: evil \[31mred\[0m &lt;script>alert\(1\)&lt;\/script> \\\| \\# \\_x\\_$/m);
  const v = await cli(["validate", join(dir, "s")]);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for an escape character
  assert.doesNotMatch(v.stdout + v.stderr, /\u001b/);
  rmSync(dir, { recursive: true });
});

test("finding 9: progress lines with counts on stderr when it is a terminal, none otherwise", async () => {
  const quiet = await cli(["report", example, "--resamples", "50", "--format", "json"]);
  assert.equal(quiet.stderr, "");
  const tty = await cli(["report", example, "--resamples", "50", "--format", "json"], true);
  assert.match(tty.stderr, /^gcpc \[\d+\.\d s\] read 96 rows in 5 tables$/m);
  assert.match(tty.stderr, /RQ1 discrimination/);
});
