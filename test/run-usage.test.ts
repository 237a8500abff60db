// The contract's run fields (started_at, completed_at, duration_s, cost_usd, tokens; issue 56.1) as the importers
// fill them, each checked against the raw input read here directly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { simulationUsage } from "../store/import/tau2-results.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;

test("Inspect: a sample's tokens are its models' total_tokens, its duration total_time", async () => {
  const logs = join(repo, "data/real/raw/inspect-logs");
  const out = join(tempDir("gcpc-usage-"), "s");
  const r = await cli(["import", "inspect", join(logs, "2025-05-12T20-28-26-04-00_security-guide.json"), "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  const raw = JSON.parse(readFileSync(join(logs, "2025-05-12T20-28-26-04-00_security-guide.json"), "utf8"));
  const store = (await readStore(out)).store;
  assert.equal(store.trajectories.length, raw.samples.length);
  for (const s of raw.samples) {
    const t = store.trajectories.find((x) => x.trajectory_id.endsWith(`/${s.id}/epoch-${s.epoch}`))!;
    const tokens = Object.values(s.model_usage as Record<string, { total_tokens: number }>).reduce(
      (a, u) => a + u.total_tokens,
      0,
    );
    assert.equal(t.tokens, tokens);
    assert.equal(t.duration_s, s.total_time);
  }
});

test("τ²: start_time, end_time and duration of a SimulationRun, and the agent's cost", () => {
  // A simulation of τ²-bench's results format (sierra-research/tau2-bench, SimulationRun), its times zone-less.
  const u = simulationUsage({
    start_time: "2025-08-01T15:53:27.541447",
    end_time: "2025-08-01T15:53:41.684334",
    duration: 14.141035874999943,
    agent_cost: 0.0031,
    user_cost: 0.007422,
  });
  assert.deepEqual(u, {
    started_at: "2025-08-01T15:53:27.541Z",
    completed_at: "2025-08-01T15:53:41.684Z",
    duration_s: 14.141035874999943,
    cost_usd: 0.0031,
  });
  assert.deepEqual(simulationUsage({ duration: -1, agent_cost: "x" }), {});
});

test("Terminal-Bench: each trial's tokens are total_input_tokens + total_output_tokens, its times the trial's", async () => {
  const dir = tempDir("gcpc-tb-usage-");
  execFileSync("tar", ["-xzf", join(repo, "data/real/raw/terminal-bench/results.tar.gz"), "-C", dir]);
  const expected = new Map<string, number | null>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === "results.json" || name.endsWith("_results.json")) {
        const json = JSON.parse(readFileSync(p, "utf8"));
        for (const t of json.results ?? [json]) {
          if (typeof t.trial_started_at !== "string") continue;
          const tokens =
            typeof t.total_input_tokens === "number" && typeof t.total_output_tokens === "number"
              ? t.total_input_tokens + t.total_output_tokens
              : null;
          expected.set(`${t.task_id}\u0000${new Date(t.trial_started_at).toISOString()}`, tokens);
        }
      }
    }
  };
  walk(dir);
  const store = (await readStore(join(repo, "data/real/terminal-bench"))).store;
  let checked = 0;
  for (const t of store.trajectories) {
    if (!t.started_at) continue;
    const key = `${t.task_id}\u0000${t.started_at}`;
    assert.ok(expected.has(key), key);
    assert.equal(t.tokens ?? null, expected.get(key), key);
    assert.ok(t.duration_s! >= 0 && t.completed_at! >= t.started_at);
    checked++;
  }
  assert.ok(checked > 3000, `${checked} trials with times`);
});

test("Inspect's EvalSample start and completion times, and role_usage left out (it counts the same calls again)", async () => {
  const { sampleUsage } = await import("../store/import/inspect.js");
  // Fields as Inspect's EvalSample defines them (inspect_ai/log/_log.py): UTC datetime strings, usage per model.
  const u = sampleUsage({
    started_at: "2025-11-15T22:59:42.123456+00:00",
    completed_at: "2025-11-15T23:00:01+00:00",
    total_time: 19.2,
    model_usage: { "openai/gpt-4o": { input_tokens: 100, output_tokens: 20, total_tokens: 120, total_cost: 0.004 } },
    role_usage: { grader: { input_tokens: 100, output_tokens: 20, total_tokens: 120 } },
  } as Parameters<typeof sampleUsage>[0]);
  assert.deepEqual(u, {
    tokens: 120,
    cost_usd: 0.004,
    duration_s: 19.2,
    started_at: "2025-11-15T22:59:42.123Z",
    completed_at: "2025-11-15T23:00:01.000Z",
  });
});
