// Property-based: mutated stores never crash the CLI, never leak a stack trace, never get written to.
// fast-check, fixed seed, ≥ 1,000 cases per run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { cli, treeHash } from "./helpers/run-cli.js";
import { writeParquet } from "../store/write-store.js";
import { tableColumns } from "../analysis/schema/columns.js";
import { duckdbColumns } from "../store/columns.js";
import { tempDir } from "./helpers/temp-dir.js";
import { WEIRD_VALUES } from "./helpers/weird-values.js";

const repo = new URL("..", import.meta.url).pathname;
const BASES = { jsonl: join(repo, "examples/jsonl-store"), csv: join(repo, "examples/csv-store"), parquet: "" };
let work: string;

before(async () => {
  work = tempDir("gcpc-fuzz-");
  // A third base with Parquet tables, so the DuckDB reader is fuzzed too.
  BASES.parquet = join(work, "parquet-base");
  cpSync(BASES.jsonl, BASES.parquet, { recursive: true });
  for (const table of ["tasks", "trajectories"] as const) {
    const rows = readFileSync(join(BASES.parquet, `${table}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    await writeParquet(join(BASES.parquet, `${table}.parquet`), rows, duckdbColumns(tableColumns()[table]));
    rmSync(join(BASES.parquet, `${table}.jsonl`));
  }
});
after(() => rmSync(work, { recursive: true, force: true }));

type Files = Map<string, Buffer>;

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("truncate"), file: fc.nat(), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant("wrong-type"),
    file: fc.nat(),
    line: fc.nat(),
    field: fc.nat(),
    value: fc.constantFrom(...WEIRD_VALUES),
  }),
  fc.record({
    kind: fc.constant("bad-utf8"),
    file: fc.nat(),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => b.map((x) => x | 0x80)),
  }),
  fc.record({ kind: fc.constant("swap-columns"), file: fc.nat(), a: fc.nat(), b: fc.nat() }),
  fc.record({
    kind: fc.constant("huge-string"),
    file: fc.nat(),
    line: fc.nat(),
    field: fc.nat(),
    size: fc.integer({ min: 1_000, max: 300_000 }),
  }),
  fc.record({ kind: fc.constant("missing-file"), file: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-line"), file: fc.nat(), line: fc.nat() }),
  fc.record({ kind: fc.constant("duplicate-json-key"), file: fc.nat(), line: fc.nat() }),
  fc.record({
    kind: fc.constant("random-bytes"),
    file: fc.nat(),
    line: fc.nat(),
    bytes: fc.uint8Array({ minLength: 0, maxLength: 40 }),
  }),
  fc.record({ kind: fc.constant("empty-file"), file: fc.nat() }),
  fc.record({
    kind: fc.constant("rename-file"),
    file: fc.nat(),
    to: fc.constantFrom("tasks.csv", "judgments.parquet", "notes.jsonl", "items.jsonl", "store.json"),
  }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function applyMutation(files: Files, m: Mutation): void {
  const names = [...files.keys()].sort();
  const name = names[m.file % names.length];
  const data = files.get(name)!;
  const lines = data.toString("utf8").split("\n");
  const lineIx = "line" in m ? m.line % Math.max(1, lines.length) : 0;
  switch (m.kind) {
    case "truncate":
      files.set(name, data.subarray(0, Math.floor(m.at * data.length)));
      break;
    case "bad-utf8": {
      const at = Math.floor(m.at * data.length);
      files.set(name, Buffer.concat([data.subarray(0, at), Buffer.from(m.bytes), data.subarray(at)]));
      break;
    }
    case "missing-file":
      files.delete(name);
      break;
    case "empty-file":
      files.set(name, Buffer.alloc(0));
      break;
    case "rename-file":
      files.delete(name);
      files.set(m.to, data);
      break;
    case "duplicate-line":
      lines.splice(lineIx, 0, lines[lineIx]);
      files.set(name, Buffer.from(lines.join("\n")));
      break;
    case "random-bytes":
      files.set(
        name,
        Buffer.concat([
          Buffer.from(`${lines.slice(0, lineIx).join("\n")}\n`),
          Buffer.from(m.bytes),
          Buffer.from(`\n${lines.slice(lineIx + 1).join("\n")}`),
        ]),
      );
      break;
    case "swap-columns": {
      if (!name.endsWith(".csv")) break;
      const header = lines[0].split(",");
      const a = m.a % header.length,
        b = m.b % header.length;
      [header[a], header[b]] = [header[b], header[a]];
      lines[0] = header.join(",");
      files.set(name, Buffer.from(lines.join("\n")));
      break;
    }
    case "wrong-type":
    case "huge-string":
    case "duplicate-json-key": {
      if (!name.endsWith(".jsonl") && name !== "store.json") break;
      let obj: Record<string, unknown>;
      try {
        obj = JSON.parse(lines[lineIx]);
      } catch {
        break;
      }
      if (!obj || typeof obj !== "object") break;
      const keys = Object.keys(obj);
      const key = keys.length ? keys[("field" in m ? m.field : 0) % keys.length] : "x";
      if (m.kind === "wrong-type") obj[key] = m.value;
      if (m.kind === "huge-string") obj[key] = "A".repeat(m.size);
      lines[lineIx] =
        m.kind === "duplicate-json-key"
          ? JSON.stringify(obj).replace(/}$/, `,${JSON.stringify(key)}:"again"}`)
          : JSON.stringify(obj);
      files.set(name, Buffer.from(lines.join("\n")));
      break;
    }
  }
}

const FILE_NAMED =
  /^gcpc: (invalid store .*\n {2}\S+\.(jsonl|csv|parquet|json|\*)[,:]|\S+: (no such file or directory|is a folder))/;

test("1,000 mutated stores: exit 0 or exit 2 naming a file, never exit 1, never a stack trace, never a write into the store", async () => {
  let case_ = 0;
  const outcomes = { ok: 0, invalid: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("jsonl", "csv", "parquet") as fc.Arbitrary<keyof typeof BASES>,
      fc.array(mutation, { minLength: 1, maxLength: 3 }),
      async (base, mutations) => {
        const dir = join(work, `case-${case_++}`);
        const files: Files = new Map(readdirSync(BASES[base]).map((n) => [n, readFileSync(join(BASES[base], n))]));
        for (const m of mutations) applyMutation(files, m);
        mkdirSync(dir);
        for (const [n, d] of files) writeFileSync(join(dir, n), d);
        const before = treeHash(dir);
        const v = await cli(["validate", dir, "--max-problems", "5"]);
        assert.ok(
          v.code === 0 || v.code === 2,
          `exit ${v.code} for ${JSON.stringify(mutations).slice(0, 300)}:\n${v.stderr.slice(0, 2000)}`,
        );
        assert.doesNotMatch(v.stderr, /^\s+at /m);
        if (v.code === 2) {
          outcomes.invalid++;
          assert.match(v.stderr, FILE_NAMED, v.stderr.slice(0, 500));
        } else {
          outcomes.ok++;
          const r = await cli(["report", dir, "--format", "json", "--resamples", "5"]);
          assert.equal(r.code, 0, r.stderr.slice(0, 2000));
        }
        assert.equal(treeHash(dir), before, "the store was not modified");
        rmSync(dir, { recursive: true, force: true });
      },
    ),
    { seed: 20261130, numRuns: 1000, endOnFailure: true, includeErrorInReport: true },
  );
  assert.ok(outcomes.invalid > 500 && outcomes.ok > 10, JSON.stringify(outcomes));
});
