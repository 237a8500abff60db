import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { JudgmentRow } from "../analysis/schema/tables.js";
import { invalidJudgmentSql } from "../store/judgment-table.js";
import { readStore } from "../store/read-store.js";
import { tempDir } from "./helpers/temp-dir.js";

const DEMO = new URL("../data/demo", import.meta.url).pathname;

// Parquet judgment columns of many types and values: the SQL that picks the invalid rows must pick
// exactly the rows the zod schema rejects (read the way the row reader reads: null = absent).
const CASES: { name: string; select: string }[] = [
  {
    name: "run as DOUBLE",
    select: `SELECT 't' AS trajectory_id, 'c' AS item_id, 'Yes' AS label, x AS run
             FROM (VALUES (1.0), (1.5), (0.0), (-1.0), ('nan'::DOUBLE), ('inf'::DOUBLE), (NULL), (2.0 ^ 54), (3.0)) v(x)`,
  },
  {
    name: "run as BIGINT",
    select: `SELECT 't' AS trajectory_id, 'c' AS item_id, 'No' AS label, x AS run
             FROM (VALUES (0::BIGINT), (1), (2), (1152921504606846976), (NULL), (-5)) v(x)`,
  },
  {
    name: "run as VARCHAR",
    select: `SELECT 't' AS trajectory_id, 'c' AS item_id, 'No' AS label, x AS run FROM (VALUES ('1'), (NULL)) v(x)`,
  },
  {
    name: "ids and labels",
    select: `SELECT a AS trajectory_id, b AS item_id, l AS label, 'j' AS judge, e AS evidence
             FROM (VALUES ('t', 'c', 'Yes', 'x'), ('', 'c', 'No', NULL), ('t', '', 'Abstain', 'y'), (NULL, 'c', 'Yes', NULL),
                          ('t', 'c', 'Maybe', NULL), ('t', 'c', NULL, NULL), ('t', 'c', 'yes', NULL)) v(a, b, l, e)`,
  },
  {
    name: "an integer id column",
    select: `SELECT x AS trajectory_id, 'c' AS item_id, 'Yes' AS label FROM (VALUES (1), (NULL)) v(x)`,
  },
  {
    name: "typed optional columns and an unknown column",
    select: `SELECT 't' AS trajectory_id, 'c' AS item_id, 'Yes' AS label, j AS judge, k AS lable
             FROM (VALUES (NULL, NULL), (7, NULL), (NULL, 'No'), (NULL, NULL)) v(j, k)`,
  },
];

test("the SQL row check selects exactly the Parquet rows the zod schema rejects (6 column layouts)", async () => {
  const dir = tempDir("gcpc-jt-");
  const duck = await DuckDBInstance.create(":memory:");
  const conn = await duck.connect();
  try {
    for (const [i, c] of CASES.entries()) {
      const file = join(dir, `j${i}.parquet`);
      await conn.run(`COPY (${c.select}) TO '${file}' (FORMAT parquet)`);
      await conn.run(
        `CREATE OR REPLACE VIEW f AS SELECT * EXCLUDE (file_row_number), file_row_number + 1 AS _loc
         FROM read_parquet('${file}', file_row_number = true)`,
      );
      const d = (await conn.runAndReadAll("DESCRIBE f")).getColumnsObjectJS() as Record<string, string[]>;
      const types = new Map(d.column_name.map((n, k) => [n, d.column_type[k]]));
      const sqlBad = (await conn.runAndReadAll(`SELECT _loc FROM f WHERE ${invalidJudgmentSql(types)} ORDER BY _loc`))
        .getColumnsObjectJS()
        ._loc.map(Number);
      const rows = (await conn.runAndReadAll("SELECT * FROM f ORDER BY _loc")).getRowObjectsJS();
      const zodBad = rows
        .filter((r) => {
          const values: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(r))
            if (k !== "_loc" && v !== null) values[k] = typeof v === "bigint" ? Number(v) : v;
          return !JudgmentRow.safeParse(values).success;
        })
        .map((r) => Number(r._loc));
      assert.deepEqual(sqlBad, zodBad, c.name);
      assert.ok(zodBad.length > 0, `${c.name}: the case holds at least one invalid row`);
    }
  } finally {
    conn.closeSync();
    duck.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("label vectors built in hash buckets equal the one-query result, trajectories and runs in the same order", async () => {
  const whole = await readStore(DEMO, { evidence: true });
  const bucketed = await readStore(DEMO, { evidence: true, labelBucketJudgments: 5_000 });
  const w = whole.store.labels!;
  const b = bucketed.store.labels!;
  assert.ok(w.judgments > 5_000 * 5, "several buckets");
  assert.equal(b.judgments, w.judgments);
  assert.deepEqual([...b.runs.keys()], [...w.runs.keys()], "trajectories in file order");
  assert.deepEqual([...b.runs.values()], [...w.runs.values()], "runs, labels and evidence");
});
