// The importers on mutated inputs, property-based (fast-check, fixed seed): each input is a file the importer
// must list (with its path) or import, never a crash, never a stack trace, never a partial store.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";
import { WEIRD_VALUES } from "./helpers/weird-values.js";

let work: string;
before(() => {
  work = tempDir("gcpc-fuzz-import-");
});
after(() => rmSync(work, { recursive: true, force: true }));

// 150 cases per importer. Every other case writes its store as JSON Lines instead of Parquet: the importers'
// parsing sees every case, and each writer half of them (a Parquet write is most of a small import's cost).
const formatOf = (n: number) => (n % 2 === 1 ? ["--format", "jsonl"] : []);
const TRIAL = {
  id: "t-1",
  trial_name: "task.1-of-1",
  task_id: "task",
  is_resolved: true,
  failure_mode: "unset",
  parser_results: { test_a: "passed", test_b: "failed" },
  trial_started_at: "2025-01-01T00:00:00Z",
};
const SIMULATION = {
  info: { agent_info: { implementation: "llm_agent", llm: "m" }, environment_info: { domain_name: "airline" } },
  simulations: [
    {
      id: "s-1",
      task_id: "1",
      trial: 0,
      reward_info: {
        reward: 1,
        reward_basis: ["DB"],
        db_check: { db_match: true },
        nl_assertions: [{ nl_assertion: "x", met: true }],
      },
    },
  ],
};
// τ² as some leaderboard submissions write it: no `info`, fields at the top level, task definitions with the
// outcome basis and the domain, an early termination with a stub reward_info, and reward_info null.
const SIMULATION_TOP_LEVEL = {
  agent: "llm_agent",
  model: "m",
  tasks: [
    {
      id: "1",
      evaluation_criteria: { reward_basis: ["ENV_ASSERTION"] },
      user_scenario: { instructions: { domain: "telecom" } },
    },
  ],
  simulations: [
    {
      id: "s-1",
      task_id: "1",
      trial: 0,
      termination_reason: "max_steps",
      reward_info: { reward: 0, reward_basis: ["DB"] },
    },
    { id: "s-2", task_id: "1", trial: 1, reward_info: null },
    { id: "s-3", task_id: "1", trial: 2, reward_info: { reward: 1, env_assertions: [{ met: true }] } },
  ],
};
// A Terminal-Bench run's own list (results[]), beside nothing else.
const RUN = { id: "run", results: [TRIAL, { ...TRIAL, id: "t-2", trial_name: "task.2-of-2" }], accuracy: 0.5 };
const INSPECT = {
  version: 2,
  eval: { eval_id: "e", task: "t", model: "m" },
  samples: [{ id: 1, epoch: 1, scores: { verdict: { value: "C" }, checklist: { value: { a: "C", b: "I" } } } }],
};

/** A JSON document with one value replaced by a weird one, or the text cut short, or a 300k-character string. */
const mutatedText = (doc: unknown) =>
  fc.oneof(
    fc.constantFrom(...WEIRD_VALUES).chain((weird) =>
      fc.nat().map((k) => {
        const copy = JSON.parse(JSON.stringify(doc));
        const paths: (string | number)[][] = [];
        const walk = (v: unknown, path: (string | number)[]) => {
          paths.push(path);
          if (v && typeof v === "object")
            for (const [key, x] of Object.entries(v)) walk(x, [...path, Array.isArray(v) ? Number(key) : key]);
        };
        walk(copy, []);
        const path = paths[k % paths.length];
        if (path.length === 0) return JSON.stringify(weird);
        let parent = copy;
        for (const p of path.slice(0, -1)) parent = parent[p];
        parent[path[path.length - 1]] = weird;
        return JSON.stringify(copy);
      }),
    ),
    fc.nat().map((cut) => JSON.stringify(doc).slice(0, cut % JSON.stringify(doc).length)),
    fc.constant(JSON.stringify({ ...(doc as object), long: "x".repeat(300_000) })),
  );

for (const [kind, doc, file] of [
  ["terminal-bench", TRIAL, "run/task/task.1-of-1/results.json"],
  ["tau2", SIMULATION, "results.json"],
  ["tau2", SIMULATION_TOP_LEVEL, "submission.json"],
  ["terminal-bench", RUN, "run/results.json"],
  ["inspect", INSPECT, "log.json"],
] as const) {
  test(`150 mutated ${kind} inputs (${file}): exit 0 or 2 listing the file, never exit 1, never a stack trace, never a partial store`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutatedText(doc), async (text) => {
        const dir = join(work, `${kind}-${n}`);
        const format = formatOf(n++);
        const input = join(dir, "in");
        mkdirSync(join(input, file, ".."), { recursive: true });
        writeFileSync(join(input, file), text);
        const out = join(dir, "out");
        const r = await cli(["import", kind, input, "--out", out, ...format]);
        assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
        if (r.code === 2) assert.equal(readdirSync(dir).includes("out"), false, "no partial store");
        if (r.code === 2 && !/needs|unknown/.test(r.stderr)) assert.match(r.stderr, /skipped .*in\/|nothing imported/);
        rmSync(dir, { recursive: true, force: true });
      }),
      { seed: 20261201, numRuns: 150 },
    );
  });
}

test("150 byte-mutated zstd .eval archives: exit 0 or 2 listing the file, never exit 1, never a partial store", async () => {
  const original = readFileSync(new URL("fixtures/inspect/log_formats-zstd.eval", import.meta.url));
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      fc.nat(),
      async (flips, cut) => {
        const bytes = Buffer.from(original);
        for (const [at, value] of flips) bytes[at % bytes.length] = value;
        const dir = join(work, `zstd-${n}`);
        const format = formatOf(n++);
        mkdirSync(join(dir, "in"), { recursive: true });
        // One case in five is also cut short (a log still being written).
        writeFileSync(join(dir, "in", "log.eval"), cut % 5 === 0 ? bytes.subarray(0, cut % bytes.length) : bytes);
        const r = await cli(["import", "inspect", join(dir, "in"), "--out", join(dir, "out"), ...format]);
        assert.ok(r.code === 0 || r.code === 2, `exit ${r.code}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
        if (r.code === 2) assert.equal(readdirSync(dir).includes("out"), false, "no partial store");
        rmSync(dir, { recursive: true, force: true });
      },
    ),
    { seed: 20261203, numRuns: 150 },
  );
});
