import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateDemoStore } from "../store/generate/demo-store.js";
import { writeShardedStore } from "../store/generate/sharded-store.js";
import { readStore } from "../store/read-store.js";
import { tempDir } from "./helpers/temp-dir.js";

// A store past what one piece can hold is written shard by shard. Small shards here stand in
// for the CLI's scale-25 shards of `gcpc generate --scale 430`.
test("a sharded store holds each shard's own demo store, ids prefixed per shard, and reads back valid", async () => {
  const dir = tempDir("gcpc-shards-");
  try {
    const counts = await writeShardedStore(join(dir, "pq"), {
      seed: 9,
      scale: 0.1,
      shardScale: 0.05,
      format: "parquet",
    });
    await writeShardedStore(join(dir, "jsonl"), { seed: 9, scale: 0.1, shardScale: 0.05, format: "jsonl" });
    const parts = [0, 1].map((k) => generateDemoStore({ seed: 9 * 1000 + k, scale: 0.05 }));
    assert.equal(counts.shards, 2);
    assert.equal(counts.trajectories, parts[0].trajectories.length + parts[1].trajectories.length);
    assert.equal(counts.judgments, parts[0].judgments.length + parts[1].judgments.length);
    const pq = await readStore(join(dir, "pq"));
    const jsonl = await readStore(join(dir, "jsonl"));
    assert.equal(pq.store.trajectories.length, counts.trajectories);
    assert.equal(pq.store.labels?.judgments, counts.judgments);
    assert.deepEqual(pq.store.trajectories, jsonl.store.trajectories, "Parquet and JSONL hold the same rows");
    // Shard k's rows are its own demo store's, with "sK." before every task and trajectory id.
    const shard1 = pq.store.trajectories.filter((t) => t.trajectory_id.startsWith("s1."));
    assert.deepEqual(
      shard1.map((t) => [t.trajectory_id, t.task_id, t.outcome]),
      parts[1].trajectories.map((t) => [`s1.${t.trajectory_id}`, `s1.${t.task_id}`, t.outcome]),
    );
    assert.match(JSON.parse(readFileSync(join(dir, "pq", "store.json"), "utf8")).name, /in 2 shards/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
