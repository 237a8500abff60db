import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { readStore, type ReadStoreOptions } from "../store/read-store.js";
import { judgmentPass } from "../store/judgment-pass.js";
import { StoreValidationError, formatProblem } from "../store/problems.js";
import { validStoreWithParquet, VALID_STORE } from "./parquet-fixture.js";

const DEMO = new URL("../data/demo", import.meta.url).pathname;

/** What a read gives: its label runs, or its problem lines. */
async function outcome(dir: string, options: ReadStoreOptions): Promise<unknown> {
  try {
    const labels = (await readStore(dir, options)).store.labels!;
    return { judgments: labels.judgments, runs: [...labels.runs] };
  } catch (e) {
    if (!(e instanceof StoreValidationError)) throw e;
    return e.problems.map(formatProblem);
  }
}

const passOf = (dir: string, alsoRequired: string[] = []) =>
  judgmentPass({
    judgments: join(dir, "judgments.parquet"),
    trajectories: join(dir, "trajectories.parquet"),
    items: join(dir, "items.parquet"),
    primaryJudge: "primary",
    required: ["trajectory_id", "item_id", "label", ...alsoRequired],
    temp: join(tmpdir(), "gcpc-duckdb"),
    memoryLimit: "256MB",
  });

/** The valid store with its trajectories, items and judgments as Parquet, judgments from `judgments`. */
const allParquet = (judgments: string, more: Record<string, string> = {}) =>
  validStoreWithParquet({
    trajectories: `SELECT * FROM read_json('${VALID_STORE}trajectories.jsonl')`,
    items: `SELECT * FROM read_json('${VALID_STORE}items.jsonl')`,
    judgments,
    ...more,
  });

const JUDGMENTS = `SELECT * FROM read_json('${VALID_STORE}judgments.jsonl')`;

test("the one pass gives the demo's label vectors as the row-by-row read does, runs in the same order", async () => {
  const pass = await passOf(DEMO);
  assert.ok(pass, "the pass holds on the demo");
  pass.close();
  const onePass = await outcome(DEMO, {});
  assert.deepEqual(onePass, await outcome(DEMO, { judgmentPass: false }));
  assert.ok((onePass as { runs: unknown[] }).runs.length > 5000);
});

test("the one pass holds on a valid store and gives its label vectors", async () => {
  const dir = await allParquet(JUDGMENTS);
  try {
    const pass = await passOf(dir);
    assert.equal(pass?.rows, 5);
    pass?.close();
    pass?.close(); // a second close does nothing
    // A column the row schema requires and the file lacks: the row-by-row read reports it, not the pass.
    assert.equal(await passOf(dir, ["judge"]), undefined);
    const read = await outcome(dir, {});
    assert.deepEqual(read, {
      judgments: 5,
      runs: [
        ["r1", [{ judge: "primary", run: 1, labels: "YN" }]],
        ["r2", [{ judge: "primary", run: 1, labels: "YA" }]],
        ["r3", [{ judge: "primary", run: 1, labels: "Y" }]],
      ],
    });
    assert.deepEqual(read, await outcome(dir, { judgmentPass: false }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Each store breaks one rule the pass must see: it does not hold, and the read names the same problems as
 * the row-by-row read of the same files.
 */
const BROKEN: Record<string, { judgments?: string; more?: Record<string, string> }> = {
  "a repeated row": { judgments: `${JUDGMENTS} UNION ALL SELECT 'r3', 'c1', 'No', NULL` },
  "a repeated key once normalised (judge named as the primary)": {
    judgments: `SELECT trajectory_id, item_id, label, evidence, NULL AS judge FROM (${JUDGMENTS})
      UNION ALL SELECT 'r1', 'c2', 'Yes', NULL, 'primary'`,
  },
  "an unknown trajectory": { judgments: `${JUDGMENTS} UNION ALL SELECT 'r9', 'c1', 'No', NULL` },
  "an item of another task": { judgments: `${JUDGMENTS} UNION ALL SELECT 'r3', 'c2', 'No', NULL` },
  "a label outside the contract": { judgments: `${JUDGMENTS} UNION ALL SELECT 'r3', 'c2', 'Maybe', NULL` },
  "run 0": {
    judgments: `SELECT *, 1 AS run FROM (${JUDGMENTS}) UNION ALL SELECT 'r1', 'c1', 'No', NULL, 0`,
  },
  "a null trajectory id": { judgments: `${JUDGMENTS} UNION ALL SELECT NULL, 'c1', 'No', NULL` },
  "a column outside the contract": { judgments: `SELECT *, 'x' AS note FROM (${JUDGMENTS})` },
  "a repeated item key and an unknown trajectory (the counts balance)": {
    judgments: `${JUDGMENTS} UNION ALL SELECT 'r9', 'c1', 'No', NULL`,
    more: {
      items: `SELECT * FROM read_json('${VALID_STORE}items.jsonl')
        UNION ALL SELECT * FROM read_json('${VALID_STORE}items.jsonl') WHERE task_id = 't2'`,
    },
  },
};

for (const [name, broken] of Object.entries(BROKEN)) {
  test(`the one pass does not hold with ${name}; the read names the row-by-row problems`, async () => {
    const dir = await allParquet(broken.judgments ?? JUDGMENTS, broken.more);
    try {
      const pass = await passOf(dir);
      assert.equal(pass, undefined);
      const read = await outcome(dir, {});
      assert.ok(Array.isArray(read) && read.some((p) => String(p).startsWith("judgments.parquet")), String(read));
      assert.deepEqual(read, await outcome(dir, { judgmentPass: false }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("when the pass holds but another table has problems, the read names the same problems", async () => {
  // r2's trajectory row and an item row are invalid: the judgments naming them are then not checked.
  const dir = await allParquet(JUDGMENTS, {
    trajectories: `SELECT * REPLACE (CASE WHEN trajectory_id = 'r2' THEN 'MAYBE' ELSE outcome END AS outcome)
      FROM read_json('${VALID_STORE}trajectories.jsonl')`,
    items: `SELECT * REPLACE (CASE WHEN item_id = 'c2' THEN 'nowhere' ELSE route END AS route)
      FROM read_json('${VALID_STORE}items.jsonl')`,
  });
  try {
    const pass = await passOf(dir);
    assert.ok(pass, "the pass reads the files as they are");
    pass.close();
    const read = await outcome(dir, {});
    assert.ok(Array.isArray(read) && read.length === 2, String(read));
    assert.deepEqual(read, await outcome(dir, { judgmentPass: false }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
