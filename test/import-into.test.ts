// gcpc import KIND … --into STORE: runs added to an existing store atomically, deduplicated by the store's rules;
// a conflict is refused with the store left byte for byte as it was.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { mergeStores } from "../store/import/merge-store.js";
import type { Store } from "../analysis/schema/store.js";
import { cli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp-dir.js";

const repo = new URL("..", import.meta.url).pathname;
const sft = join(repo, "data/real/raw/tau2-bench/sft-results");
const logs = join(repo, "data/real/raw/inspect-logs");

/** Every file of a folder with its bytes (to prove nothing changed). */
const snapshot = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f)).toString("base64")]));

for (const format of ["parquet", "jsonl"] as const)
  test(`--into (${format}): a second source adds its rows; the same runs again add nothing (kept once)`, async () => {
    const store = join(tempDir("gcpc-into-"), "store");
    assert.equal((await cli(["import", "tau2", sft, "--out", store, "--format", format])).code, 0);
    const before = (await readStore(store)).store;
    const add = await cli(["import", "inspect", logs, "--into", store]);
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stdout, /added to .*: 14 tasks, 30 trajectories/);
    const after = (await readStore(store)).store;
    assert.equal(after.trajectories.length, before.trajectories.length + 30);
    assert.ok(readdirSync(store).every((f) => !f.endsWith(format === "parquet" ? ".jsonl" : ".parquet")));
    const again = await cli(["import", "tau2", sft, "--into", store]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      /nothing new; already there \(identical, kept once\): 100 tasks, 642 items, 280 trajectories/,
    );
    assert.equal((await readStore(store)).store.trajectories.length, after.trajectories.length);
    assert.deepEqual(
      readdirSync(join(store, "..")).filter((f) => f.includes("gcpc-")),
      [],
      "no staging or aside folder left",
    );
  });

test("--into refuses a conflicting row, naming it, and leaves the store byte for byte as it was", async () => {
  const dir = tempDir("gcpc-into-conflict-");
  const store = join(dir, "store");
  assert.equal((await cli(["import", "tau2", sft, "--out", store, "--format", "jsonl"])).code, 0);
  // The same simulation ids with another reward: the store and the import disagree about trajectories.
  const changed = join(dir, "changed");
  mkdirSync(changed);
  cpSync(join(sft, "gpt-4.1_airline_default_gpt-4.1_1trials.json.gz"), join(changed, "a.json.gz"));
  const text = JSON.parse(
    (await import("node:zlib")).gunzipSync(readFileSync(join(changed, "a.json.gz"))).toString("utf8"),
  );
  text.simulations[0].reward_info.reward = text.simulations[0].reward_info.reward === 1 ? 0 : 1;
  writeFileSync(join(changed, "a.json"), JSON.stringify(text));
  const before = snapshot(store);
  const r = await cli(["import", "tau2", join(changed, "a.json"), "--into", store]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--into: trajectories \["[^"]+"\] is in the store and in the import with different values/);
  assert.match(
    r.stderr,
    /nothing was written\. The same run imported again with other values: import it into a new store/,
  );
  // The refusal is all it prints: no summary of an import that did not happen.
  assert.equal(r.stdout, "");
  assert.deepEqual(snapshot(store), before);
  assert.deepEqual(readdirSync(dir).sort(), ["changed", "store"], "no staging folder left");
});

test("--into: a CSV store, a missing store, --format and another importer's flags are refused", async () => {
  const dir = tempDir("gcpc-into-refuse-");
  const csv = join(dir, "csv-store");
  cpSync(join(repo, "examples/csv-store"), csv, { recursive: true });
  const r1 = await cli(["import", "tau2", sft, "--into", csv]);
  assert.equal(r1.code, 2);
  assert.match(r1.stderr, /holds CSV tables/);
  const r2 = await cli(["import", "tau2", sft, "--into", join(dir, "nope")]);
  assert.equal(r2.code, 2);
  // A folder that is not a store is never replaced by one (the merge swaps the store folder whole).
  const notes = join(dir, "notes");
  mkdirSync(notes);
  writeFileSync(join(notes, "todo.txt"), "keep me");
  const r6 = await cli(["import", "tau2", sft, "--into", notes]);
  assert.equal(r6.code, 2);
  assert.match(r6.stderr, /--into needs an existing store folder/);
  assert.deepEqual(readdirSync(notes), ["todo.txt"]);
  assert.equal(readFileSync(join(notes, "todo.txt"), "utf8"), "keep me");
  const r3 = await cli(["import", "tau2", sft, "--into", csv, "--format", "jsonl"]);
  assert.equal(r3.code, 2);
  assert.match(r3.stderr, /--format applies to --out/);
  const r4 = await cli(["import", "tau2", sft, "--out", join(dir, "x"), "--items", "checklist"]);
  assert.equal(r4.code, 2);
  assert.match(r4.stderr, /--items applies to import inspect, import table, not import tau2/);
  const r5 = await cli(["import", "tau2", sft, "--out", join(dir, "x"), "--into", csv]);
  assert.equal(r5.code, 2);
});

test("--into keys judgments by (trajectory, item, judge, run): an omitted run is 1, an omitted judge the primary", () => {
  const manifest = { name: "s", schema_version: 1, primary_judge: "llm-a" } as unknown as Store["manifest"];
  const row = (extra: Record<string, unknown>) => ({ trajectory_id: "t", item_id: "i", ...extra });
  const existing = {
    manifest,
    judgments: [row({ judge: "llm-a", run: 1, label: "Yes" }), row({ judge: "llm-a", run: 2, label: "No" })],
  } as unknown as Store;
  // The same two verdicts, the first written without run and judge (rule 13's defaults), in the other order.
  const imported = {
    manifest,
    judgments: [row({ judge: "llm-a", run: 2, label: "No" }), row({ label: "Yes" })],
  } as unknown as Store;
  const { store, counts } = mergeStores(existing, imported);
  assert.equal(counts.added.judgments, 0);
  assert.equal(counts.duplicates.judgments, 2);
  assert.equal(store.judgments.length, 2);
  // A second run of another verdict is a new row, not a conflict with run 1.
  const third = { manifest, judgments: [row({ judge: "llm-a", run: 3, label: "No" })] } as unknown as Store;
  assert.equal(mergeStores(existing, third).counts.added.judgments, 1);
  // Run 1 with another label is a conflict, named.
  const clash = { manifest, judgments: [row({ label: "No" })] } as unknown as Store;
  assert.throws(() => mergeStores(existing, clash), /judgments .*"t","i","llm-a",1.* different values/);
});
