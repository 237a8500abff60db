import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importHarbor, conditionFromPath } from "../store/import/harbor.js";
import { importRegistry } from "../store/import/registry.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { outcomeLevel } from "../analysis/rq/outcome-level.js";
import { verifierTestShare } from "../analysis/rq/trajectory-frame.js";
import { analyzeStore } from "../analysis/rq/report.js";
import { tableContent as norm } from "./helpers/table-content.js";
import { tempDir } from "./helpers/temp-dir.js";

// Public fixtures vendored in the repo (data/real/raw/README.md says where they come from).
const raw = new URL("../data/real/raw/", import.meta.url).pathname;
const trialsRoot = join(raw, "harbor-trials");
const registryCsv = join(raw, "skillsbench-registry/results-registry.csv");
const settings = { seed: 3, resamples: 300, headline_resamples: 300, level: 0.95, interval: "percentile" as const };

/** INDEX.csv read independently of the importer (no quoted fields in it). */
function indexRows(): Record<string, string>[] {
  const [header, ...lines] = readFileSync(join(trialsRoot, "INDEX.csv"), "utf8").trim().split("\n");
  const cols = header.split(",");
  return lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
}

test("the vendored real-data fixtures are in the repo (data/real/raw)", () => {
  assert.ok(existsSync(join(trialsRoot, "INDEX.csv")), trialsRoot);
  assert.ok(existsSync(registryCsv), registryCsv);
});

test("Harbor import matches INDEX.csv trial by trial: count, outcome, tests, exceptions", () => {
  const { store, skipped, jobLevel } = importHarbor([trialsRoot]);
  const index = indexRows();
  assert.equal(store.trajectories.length, index.length);
  assert.deepEqual(skipped, []);
  assert.equal(jobLevel.length, 2, "the two shenghan job-level result.json files are recognised and ignored");
  for (const row of index) {
    const trialName = JSON.parse(readFileSync(join(trialsRoot, row.trial_dir, "result.json"), "utf8")).trial_name;
    const t = store.trajectories.find((x) => x.trajectory_id === trialName);
    assert.ok(t, `trajectory for ${row.trial_dir}`);
    assert.equal(t.task_id, row.task);
    assert.equal(t.harness, row.agent);
    assert.equal(t.model, row.model);
    assert.equal(t.condition, row.condition === "skills" ? "curated" : "none");
    const expectedOutcome = row.reward === "1.0" ? "PASS" : row.reward === "0.0" ? "FAIL" : undefined;
    assert.equal(t.outcome, expectedOutcome, row.trial_dir);
    assert.equal(t.reward, row.reward === "" ? undefined : Number(row.reward));
    const tests = (store.verifier_results ?? []).filter((v) => v.trajectory_id === trialName);
    assert.equal(tests.length, row.has_ctrf === "yes" ? Number(row.tests_total) : 0, `tests of ${row.trial_dir}`);
    assert.equal(
      tests.filter((v) => v.status === "passed").length,
      row.has_ctrf === "yes" ? Number(row.tests_passed) : 0,
    );
    assert.equal(
      t.tags!.some((g) => g.startsWith("exception:")),
      row.exception === "yes",
      `exception tag of ${row.trial_dir}`,
    );
    assert.equal(t.tags!.includes("no-ctrf"), row.has_ctrf === "no");
  }
  // a trial with an exception and no verifier result (setup failure) is kept, non-binary
  const setupFailure = store.trajectories.find((t) => t.trajectory_id === "dapt-intrusion-detection__V9bPmpB")!;
  assert.deepEqual(
    [setupFailure.outcome, setupFailure.tags],
    [undefined, ["harbor", "exception:RuntimeError", "no-verifier-result", "no-ctrf"]],
  );
});

test("condition comes from the path in all three layouts", () => {
  assert.equal(conditionFromPath("shenghan/terminus-2/gemini3flash/noskills/job/trial"), "none");
  assert.equal(conditionFromPath("minimax-m2.1+claude-code/no_skills/x__1"), "none");
  assert.equal(
    conditionFromPath("wenbo/claude-haiku-4-5-0126/claude-code-claude-haiku-4-5-skills-citation-check-efcde3"),
    "curated",
  );
  assert.equal(conditionFromPath("a/terminus-2-gemini3flash-noskills-citation-check-3f3e2c/t"), "none");
  assert.equal(conditionFromPath("plain/folder"), undefined);
});

test("broken and incomplete trial folders are listed and the import continues", () => {
  const dir = tempDir("gcpc-harbor-");
  cpSync(join(trialsRoot, "minimax-m2.1+claude-code"), join(dir, "minimax-m2.1+claude-code"), { recursive: true });
  writeFileSync(join(dir, "minimax-m2.1+claude-code/skills/citation-check__8t85Dy9/result.json"), "{ not json");
  rmSync(join(dir, "minimax-m2.1+claude-code/no_skills/citation-check__fQQ2Jum/result.json"));
  writeFileSync(join(dir, "minimax-m2.1+claude-code/skills/adaptive-cruise-control__RDMj95m/verifier/ctrf.json"), "[]");
  const { store, skipped } = importHarbor([dir, join(dir, "missing")]);
  const minimax = indexRows().filter((r) => r.trial_dir.startsWith("minimax-m2.1+claude-code/")).length;
  assert.equal(store.trajectories.length, minimax - 2, "all but the two broken trials");
  const reasons = skipped.map((s) => `${s.folder.slice(dir.length)}: ${s.reason}`);
  assert.ok(
    reasons.some((r) => /citation-check__8t85Dy9: result\.json is not valid JSON/.test(r)),
    reasons.join("\n"),
  );
  assert.ok(
    reasons.some((r) => /citation-check__fQQ2Jum: no result\.json/.test(r)),
    reasons.join("\n"),
  );
  assert.ok(
    reasons.some((r) => /adaptive-cruise-control__RDMj95m: verifier\/ctrf\.json has no results\.tests/.test(r)),
    reasons.join("\n"),
  );
  assert.ok(reasons.some((r) => /missing: not a directory/.test(r)));
  rmSync(dir, { recursive: true });
});

test("verifier-test partial credit is the share of counted tests passed (hand computed from INDEX.csv)", () => {
  const { store } = importHarbor([trialsRoot]);
  const share = verifierTestShare(prepareStore(store));
  assert.equal(share.get("dialogue-parser__EQnsKjZ"), 4 / 6);
  assert.equal(share.get("adaptive-cruise-control__RDMj95m"), 6 / 12);
  assert.equal(share.has("3d-scan-calc__3gFGaR5"), false, "no CTRF → no score");
});

test("registry import reproduces the CSV's rows, trials and passes per condition (recomputed from the CSV)", () => {
  const text = readFileSync(registryCsv, "utf8");
  const [header, ...lines] = text.trim().split("\n");
  const cols = header.split(",");
  const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
  const expect: Record<string, { trials: number; passes: number; rows: number }> = {};
  for (const r of rows) {
    const e = (expect[r.condition] ??= { trials: 0, passes: 0, rows: 0 });
    e.trials += Number(r.trials);
    e.passes += Number(r.passCount);
    e.rows++;
  }
  const { store, problems } = importRegistry(text, "results-registry.csv");
  assert.deepEqual(problems, []);
  assert.equal(rows.length, 3132);
  assert.equal(store.tasks.length, new Set(rows.map((r) => r.task)).size);
  for (const [label, condition] of [
    ["No Skills", "none"],
    ["With Skills", "curated"],
  ] as const) {
    const ts = store.trajectories.filter((t) => t.condition === condition);
    assert.equal(ts.length, expect[label].trials, `${label} trials`);
    assert.equal(ts.filter((t) => t.outcome === "PASS").length, expect[label].passes, `${label} passes`);
  }
  const out = outcomeLevel(prepareStore(store), settings);
  assert.ok("overall" in out);
  assert.equal(out.overall.trials_none, expect["No Skills"].trials);
  assert.equal(out.overall.passes_curated, expect["With Skills"].passes);
  assert.ok(
    Math.abs(
      out.overall.uplift! -
        (expect["With Skills"].passes / expect["With Skills"].trials -
          expect["No Skills"].passes / expect["No Skills"].trials),
    ) < 1e-12,
  );
  assert.ok(out.overall.uplift_ci![0] <= out.overall.uplift! && out.overall.uplift! <= out.overall.uplift_ci![1]);
  assert.equal(out.cells_paired, rows.length / 2);
  // FAIL-only → some PASS, recounted from the CSV's cells
  const cell = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const k = `${r.task}|${r.model}`;
    cell.set(k, { ...(cell.get(k) ?? {}), [r.condition]: Number(r.passCount) });
  }
  const gained = [...cell.values()].filter((c) => c["No Skills"] === 0 && c["With Skills"] > 0).length;
  assert.equal(out.gained, gained);
});

test("the report on an outcome-only store works and marks GCPC analyses not available", () => {
  const { store } = importRegistry(readFileSync(registryCsv, "utf8"), "results-registry.csv");
  const r = analyzeStore(store, {
    seed: 1,
    resamples: 100,
    headline_resamples: 100,
    level: 0.95,
    interval: "percentile" as const,
  });
  assert.equal(r.rq3.available, false);
  assert.equal((r.rq4.outcome_step as any).available, false);
  assert.equal((r.rq1.paired as any).available, false);
  assert.equal(r.rq1.auc.find((a) => a.method === "gcpc")!.auc, null);
  assert.ok("overall" in r.outcomes);
});

test("registry rows with bad counts are rejected naming line and field", () => {
  const { problems } = importRegistry(
    "task,model,modelShort,harness,family,condition,score,trials,passCount,perfectCount\nt,M (x),x,H,f,No Skills,0,3,4,0\n",
    "r.csv",
  );
  assert.deepEqual(
    problems.map((p) => `${p.line} ${p.field}`),
    ["2 passCount"],
  );
});

test("the committed real-data stores equal a fresh import of data/real/raw", async () => {
  const { readStore } = await import("../store/read-store.js");
  const repo = new URL("..", import.meta.url).pathname;
  const reg = await readStore(join(repo, "data/real/skillsbench-registry"));
  const freshReg = importRegistry(readFileSync(registryCsv, "utf8"), "results-registry.csv").store;
  const hb = await readStore(join(repo, "data/real/harbor-sample"));
  const freshHb = importHarbor([trialsRoot]).store;
  for (const table of ["tasks", "trajectories", "verifier_results"] as const) {
    assert.equal(norm(reg.store[table]), norm(freshReg[table]), `registry ${table}`);
    assert.equal(norm(hb.store[table]), norm(freshHb[table]), `harbor ${table}`);
  }
});

test("gcpc import harbor merges user checklists and verdicts, and names the user's file and line on bad rows", async () => {
  const { spawnSync } = await import("node:child_process");
  const repo = new URL("..", import.meta.url).pathname;
  const dir = tempDir("gcpc-verdicts-");
  const items = join(dir, "items.jsonl"),
    verdicts = join(dir, "verdicts.jsonl"),
    bad = join(dir, "bad.jsonl");
  writeFileSync(
    items,
    `${JSON.stringify({
      task_id: "citation-check",
      item_id: "c1",
      text: "Finds the fake citations",
      route: "assertion",
      assertion_ref: "test_outputs.py::TestAnswerFileExists::test_answer_file_exists",
    })}\n`,
  );
  writeFileSync(
    verdicts,
    `${["citation-check__fQQ2Jum", "citation-check__GKCxMCg"]
      .map((id, k) =>
        JSON.stringify({ trajectory_id: id, item_id: "c1", label: k ? "Yes" : "No", evidence: "<b>log</b>" }),
      )
      .join("\n")}\n`,
  );
  writeFileSync(
    bad,
    JSON.stringify({ trajectory_id: "citation-check__fQQ2Jum", item_id: "c1", label: "Maybe" }) +
      "\n\n" +
      JSON.stringify({ trajectory_id: "nope", item_id: "c1", label: "Yes" }) +
      "\n",
  );
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(repo, "bin/gcpc.js"), "import", "harbor", trialsRoot, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 26,
    });
  const ok = run("--out", join(dir, "store"), "--checklists", items, "--verdicts", verdicts, "--format", "jsonl");
  assert.equal(ok.status, 0, ok.stderr);
  const { readStore } = await import("../store/read-store.js");
  const { store } = await readStore(join(dir, "store"));
  assert.equal(store.labels?.judgments, 2);
  assert.equal(store.items.length, 1);
  const failed = run("--out", join(dir, "store2"), "--verdicts", bad);
  assert.equal(failed.status, 2);
  assert.match(failed.stderr, /bad\.jsonl, line 1, field "label": Invalid option/);
  assert.match(failed.stderr, /bad\.jsonl, line 3, field "trajectory_id": unknown trajectory "nope"/);
  assert.equal(existsSync(join(dir, "store2")), false, "no store is written");
  rmSync(dir, { recursive: true });
});
