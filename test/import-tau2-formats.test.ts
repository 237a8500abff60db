// τ²-bench results written from the format's definition (tau2's data model: info.agent_info,
// info.environment_info, tasks[].evaluation_criteria.reward_basis, tasks[].user_scenario.instructions.domain,
// simulations[].reward_info, TerminationReason), in the shapes that broke on unseen files: no `info`, fields at
// the top level, the domain only in the task definitions or nowhere, early terminations with a stub
// reward_info, and reward_info null.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTau2 } from "../store/import/tau2.js";
import { tempDir } from "./helpers/temp-dir.js";

const checked = (met: boolean) => ({ nl_assertion: "the agent confirms", met, justification: "quoted" });
const sim = (id: string, task: string, o: Record<string, unknown> = {}) => ({
  id,
  task_id: task,
  trial: 0,
  termination_reason: "user_stop",
  reward_info: {
    reward: 1,
    db_check: { db_match: true, db_reward: 1 },
    nl_assertions: [checked(true)],
    reward_basis: ["DB"],
  },
  ...o,
});
const task = (id: string, basis: string[], domain?: string) => ({
  id,
  evaluation_criteria: { reward_basis: basis },
  ...(domain ? { user_scenario: { instructions: { domain } } } : {}),
});

function write(dir: string, name: string, doc: unknown): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

test("a file without domain information never shares tasks with another file, and says so", () => {
  const dir = tempDir("gcpc-tau2-nodomain-");
  // Two submissions, neither with info nor a domain anywhere: both hold task "7".
  const a = write(dir, "submission-a.json", { simulations: [sim("a1", "7")] });
  const b = write(dir, "submission-b.json", { simulations: [sim("b1", "7")] });
  const r = importTau2([a, b]);
  const tasks = r.store.tasks.map((t) => t.task_id);
  assert.equal(tasks.length, 2, `tasks kept apart: ${tasks}`);
  assert.ok(tasks.every((t) => t.startsWith("unknown-domain:submission-")));
  assert.equal(r.notes.filter((n) => n.startsWith("warning:")).length, 2);
});

test("domain, agent and model from the top level, the task definitions, or the file name; the source is said", () => {
  const dir = tempDir("gcpc-tau2-sources-");
  const top = write(dir, "x.json", {
    domain: "airline",
    agent: "llm_agent",
    model: "m1",
    simulations: [sim("t1", "7")],
  });
  const tasks = write(dir, "y.json", {
    tasks: [task("7", ["DB"], "medical_triage")],
    simulations: [sim("t2", "7")],
  });
  const named = write(dir, "gpt_telecom_default.json", { simulations: [sim("t3", "7")] });
  const r = importTau2([top, tasks, named]);
  const byId = new Map(r.store.trajectories.map((t) => [t.trajectory_id, t]));
  assert.equal(byId.get("t1")!.task_id, "airline/7");
  assert.equal(byId.get("t1")!.harness, "llm_agent");
  assert.equal(byId.get("t1")!.model, "m1");
  assert.equal(byId.get("t2")!.task_id, "medical_triage/7");
  assert.equal(byId.get("t3")!.task_id, "telecom/7");
  const text = r.notes.join("\n");
  assert.match(text, /domain from top-level fields, agent from top-level fields, model from top-level fields/);
  assert.match(text, /domain from task definitions/);
  assert.match(text, /domain from file name/);
});

test("the outcome basis is the task definition's; an early termination is a FAIL with no verdicts; reward_info null is a FAIL", () => {
  const dir = tempDir("gcpc-tau2-basis-");
  const file = write(dir, "telecom.json", {
    info: { agent_info: { implementation: "llm_agent", llm: "m" }, environment_info: { domain_name: "telecom" } },
    tasks: [task("1", ["ENV_ASSERTION"])],
    simulations: [
      sim("ok", "1", {
        reward_info: {
          reward: 1,
          db_check: { db_match: true },
          env_assertions: [{ env_assertion: { func_name: "f", arguments: {} }, met: true }],
          reward_basis: ["ENV_ASSERTION"],
        },
      }),
      // τ²'s evaluator on max_steps: reward 0, no check evaluated, a placeholder basis.
      sim("early", "1", { termination_reason: "max_steps", reward_info: { reward: 0, reward_basis: ["DB"] } }),
      sim("infra", "1", { reward_info: null }),
    ],
  });
  const r = importTau2([file]);
  const items = new Map(r.store.items.map((i) => [i.item_id, i.determines_outcome]));
  assert.equal(items.get("DB"), false, "the stub's DB basis is not the task's");
  assert.equal(items.get("ENV_ASSERTION:0"), true);
  const t = new Map(r.store.trajectories.map((x) => [x.trajectory_id, x]));
  assert.equal(t.get("early")!.outcome, "FAIL");
  assert.ok(t.get("early")!.tags!.some((x) => x.startsWith("premature")));
  assert.equal(t.get("infra")!.outcome, "FAIL", "τ²'s pass rate counts it as a failure");
  assert.ok(t.get("infra")!.tags!.some((x) => x.startsWith("infrastructure")));
  assert.equal(r.store.judgments.filter((j) => j.trajectory_id !== "ok").length, 0, "no verdicts for either");
});

test("with no task definitions in the file, an early termination's stub basis does not count; the evaluated ones do", () => {
  const dir = tempDir("gcpc-tau2-stub-");
  const file = write(dir, "telecom.json", {
    info: { agent_info: { implementation: "llm_agent", llm: "m" }, environment_info: { domain_name: "telecom" } },
    simulations: [
      sim("ok", "1", {
        reward_info: {
          reward: 1,
          db_check: { db_match: true },
          env_assertions: [{ env_assertion: { func_name: "f", arguments: {} }, met: true }],
          reward_basis: ["ENV_ASSERTION"],
        },
      }),
      // Evaluated nothing: its reward_basis ["DB"] is τ²'s placeholder, not the task's basis.
      sim("early", "1", { termination_reason: "max_steps", reward_info: { reward: 0, reward_basis: ["DB"] } }),
    ],
  });
  const items = new Map(importTau2([file]).store.items.map((i) => [i.item_id, i.determines_outcome]));
  assert.equal(items.get("ENV_ASSERTION:0"), true, "the evaluated simulation's basis decides");
  assert.equal(items.get("DB"), false, "the stub's DB basis is not counted");
});

test("a file of simulations without task ids is one skip line with a count, not one per simulation", () => {
  const dir = tempDir("gcpc-tau2-noid-");
  const sims = Array.from({ length: 164 }, (_, i) => ({ id: `s${i}`, reward_info: { reward: 1 } }));
  const file = write(dir, "no-task-ids.json", { info: {}, simulations: [...sims, sim("good", "1")] });
  const r = importTau2([file]);
  assert.equal(r.skipped.length, 1);
  assert.match(r.skipped[0].reason, /^164 simulation\(s\) without an id or task_id/);
  assert.equal(r.store.trajectories.length, 1);
});
