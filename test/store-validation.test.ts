import { test } from "node:test";
import assert from "node:assert/strict";
import { readStore } from "../store/read-store.js";
import { StoreValidationError, formatProblem } from "../store/problems.js";
import { assertProblems, VALID_STORE, validStoreWithParquet } from "./parquet-fixture.js";

const root = new URL("./fixtures/stores/", import.meta.url).pathname;

/** Each malformed store (test/fixtures/make-malformed.ts) and the exact problem line(s) it must produce. */
const EXPECTED: Record<string, string[]> = {
  "missing-table": [
    'judgments.*: required table "judgments" is missing (expected judgments.jsonl, judgments.csv or judgments.parquet)',
  ],
  "missing-column": ['trajectories.csv, line 1, field "condition": required column "condition" is missing'],
  "unknown-label": [
    'judgments.jsonl, line 3, field "label": Invalid option: expected one of "Yes"|"No"|"Abstain"|"NotApplicable" (got "Maybe")',
  ],
  "duplicate-id": ['trajectories.jsonl, line 4, field "trajectory_id": duplicate trajectory_id "r1" (first at line 1)'],
  "dangling-reference": [
    'judgments.jsonl, line 6, field "trajectory_id": unknown trajectory "r9" (not in trajectories)',
  ],
  "item-of-another-task": [
    'judgments.jsonl, line 6, field "item_id": item "c2" is not in the checklist of task "t2" (the trajectory\'s task)',
  ],
  "two-files-one-table": ['tasks.csv, tasks.jsonl: two files for table "tasks": keep exactly one'],
  "empty-file": ["human_ratings.jsonl: file is empty"],
  "bad-utf8": ["items.jsonl, line 2: invalid UTF-8 byte sequence"],
  "csv-unbalanced-quote": ["tasks.csv, line 3: unbalanced double quote: a quoted cell opened here is never closed"],
  "nan-score": ['method_scores.csv, line 3, field "score": Invalid input: expected number, received NaN (got NaN)'],
  "infinite-score": [
    'method_scores.csv, line 2, field "score": Invalid input: expected number, received Infinity (got Infinity)',
  ],
  "score-out-of-range": ['method_scores.jsonl, line 2, field "score": must be in [0, 1] (got 1.5)'],
  "rating-out-of-range": ['human_ratings.jsonl, line 1, field "rating": must be in [0, 10] (got 11)'],
  "preference-across-tasks": [
    'human_preferences.jsonl, line 2, field "trajectory_b": preference between trajectories of different tasks ("t1" vs "t2")',
  ],
  "item-unknown-task": ['items.jsonl, line 4, field "task_id": unknown task "t7" (not in tasks)'],
  "trajectory-unknown-task": ['trajectories.jsonl, line 3, field "task_id": unknown task "t3" (not in tasks)'],
  "broken-json-line": [
    "trajectories.jsonl, line 2: not valid JSON (Expected ',' or '}' after property value in JSON at position 21)",
  ],
  "invalid-condition": [
    'trajectories.jsonl, line 2, field "condition": Invalid option: expected one of "none"|"curated"|"self_generated" (got "skills")',
  ],
  "run-zero": ['judgments.jsonl, line 1, field "run": must be an integer >= 1 (got 0)'],
  "unknown-field": ['judgments.jsonl, line 2, field "lable": unknown field(s) "lable" (not in the contract)'],
  "bad-manifest": ['store.json, field "synthetic": Invalid input: expected boolean, received string (got "yes")'],
  "csv-wrong-cell-count": ["trajectories.csv, line 3: expected 7 cells (as in the header), found 6"],
  "duplicate-judgment": [
    'judgments.jsonl, line 6, field "item_id": duplicate judgment (trajectory / item / run / judge, normalized) "r2 / c2 / 1 / primary" (first at line 4)',
  ],
  "duplicate-judgment-normalized": [
    'judgments.jsonl, line 6, field "item_id": duplicate judgment (trajectory / item / run / judge, normalized) "r1 / c2 / 1 / primary" (first at line 2)',
  ],
  "csv-bad-boolean": [
    'schema_audit.csv, line 3, field "covered": Invalid input: expected boolean, received string (got "yes")',
  ],
  "several-problems": [
    'judgments.jsonl, line 1, field "label": Invalid option: expected one of "Yes"|"No"|"Abstain"|"NotApplicable" (got "Maybe")',
    'method_scores.jsonl, line 1, field "score": must be in [0, 1] (got -0.1)',
    'judgments.jsonl, line 6, field "trajectory_id": unknown trajectory "r9" (not in trajectories)',
  ],
};

test("the valid base store reads without problems", async () => {
  const { store, rows } = await readStore(`${root}valid`);
  assert.equal(store.trajectories.length, 3);
  assert.equal(rows.judgments, 5);
});

for (const [name, lines] of Object.entries(EXPECTED)) {
  test(`malformed store "${name}" is rejected naming file, line/row and field`, async () => {
    await assert.rejects(readStore(`${root}malformed/${name}`), (e: unknown) => {
      assert.ok(e instanceof StoreValidationError);
      assert.deepEqual(e.problems.map(formatProblem), lines);
      return true;
    });
  });
}

test("the problem list is capped and says how many more there are", async () => {
  await assert.rejects(readStore(`${root}malformed/several-problems`, { maxProblems: 1 }), (e: unknown) => {
    assert.ok(e instanceof StoreValidationError);
    assert.equal(e.problems.length, 1);
    assert.equal(e.dropped, 2);
    assert.match(e.message, /and 2 more/);
    return true;
  });
});

test("Parquet tables: NaN, Infinity and a null in a required column are reported with their row", async () => {
  const dir = await validStoreWithParquet({
    method_scores: `SELECT * FROM (VALUES ('r1', 'holistic', 0.5), ('r2', 'holistic', 'nan'::DOUBLE),
       ('r3', 'holistic', 'inf'::DOUBLE), (NULL, 'holistic', 0.25)) v(trajectory_id, method, score)`,
  });
  await assertProblems(dir, [
    'method_scores.parquet, row 2, field "score": Invalid input: expected number, received NaN (got NaN)',
    'method_scores.parquet, row 3, field "score": Invalid input: expected number, received Infinity (got Infinity)',
    'method_scores.parquet, row 4, field "trajectory_id": missing required field',
  ]);
});

test("judgments.parquet, loaded while the other tables are read, keeps its problems' place in the list", async () => {
  // The judgments load in DuckDB from the start of the read (store/early-judgments.ts); their problems must
  // still come after the items' and before the trajectories', in file-name order, as when read in turn.
  const dir = await validStoreWithParquet({
    judgments: `SELECT * FROM (VALUES ('r1', 'c1', 'Yes'), ('r1', 'c2', 'Maybe'), ('r9', 'c1', 'No'),
       ('r1', 'c1', 'No')) v(trajectory_id, item_id, label)`,
    trajectories: `SELECT * FROM read_json('${VALID_STORE}trajectories.jsonl')
       UNION ALL SELECT 'r1', 't1', 'h', 'm', 'none', 2, 'FAIL'`,
    items: `SELECT * FROM read_json('${VALID_STORE}items.jsonl') UNION ALL SELECT * FROM read_json('${VALID_STORE}items.jsonl') LIMIT 4`,
  });
  await assertProblems(dir, [
    'judgments.parquet, row 2, field "label": Invalid option: expected one of "Yes"|"No"|"Abstain"|"NotApplicable" (got "Maybe")',
    'items.parquet, row 4, field "item_id": duplicate item (task_id / item_id) "t1 / c1" (first at row 1)',
    'trajectories.parquet, row 4, field "trajectory_id": duplicate trajectory_id "r1" (first at row 1)',
    'judgments.parquet, row 4, field "item_id": duplicate judgment (trajectory / item / run / judge, normalized) ' +
      '"r1 / c1 / 1 / primary" (first at row 1)',
    'judgments.parquet, row 3, field "trajectory_id": unknown trajectory "r9" (not in trajectories)',
  ]);
});
