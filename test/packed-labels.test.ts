import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readStore } from "../store/read-store.js";
import { labelVectorsFromRows } from "../analysis/schema/label-vectors.js";
import type { Judgment } from "../analysis/schema/tables.js";
import { tempDir } from "./helpers/temp-dir.js";

const DEMO = new URL("../data/demo", import.meta.url).pathname;

/** Runs without evidence, for comparing the packed (no evidence) and listed (evidence) paths. */
const plain = (runs: Map<string, { judge: string; run: number; labels: string }[]>) =>
  [...runs].map(([id, list]) => [id, list.map(({ judge, run, labels }) => ({ judge, run, labels }))]);

test("packed label vectors (no evidence) equal the listed ones (evidence) on the demo", async () => {
  const packed = (await readStore(DEMO)).store.labels!;
  const listed = (await readStore(DEMO, { evidence: true })).store.labels!;
  assert.equal(packed.judgments, listed.judgments);
  assert.ok(packed.runs.size > 1000);
  assert.deepEqual(plain(packed.runs), plain(listed.runs));
});

/**
 * A store with gaps, two judges, two runs, rows in shuffled file order and a checklist of `items` items:
 * 30 fills both packed numbers (items 27–30 in the second); 60 is past the packed limit (52), where the
 * listed path is used. Both must give the in-memory vectors (analysis/schema/label-vectors.ts).
 */
for (const items of [30, 60]) {
  test(`label vectors of a ${items}-item checklist with gaps equal the in-memory ones`, async () => {
    const dir = tempDir("gcpc-packed-");
    try {
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const checklists = { big: items, small: 3 };
      const tasks = Object.keys(checklists).map((task_id) => ({ task_id, benchmark: "b", instruction: "Do it." }));
      const itemRows = Object.entries(checklists).flatMap(([task_id, n]) =>
        Array.from({ length: n }, (_, k) => ({
          task_id,
          item_id: `i${String(k + 1).padStart(2, "0")}`,
          text: "t",
          quote: "Do it.",
          route: "judge",
        })),
      );
      const trajectories = Array.from({ length: 8 }, (_, k) => ({
        trajectory_id: `r${k}`,
        task_id: k % 2 === 0 ? "big" : "small",
        harness: "h",
        model: "m",
        condition: "none",
        trial: k + 1,
        outcome: k % 3 === 0 ? "PASS" : "FAIL",
      }));
      const judgments: Judgment[] = [];
      for (const t of trajectories)
        for (const judge of ["primary", "second"])
          for (const run of [1, 2])
            for (const it of itemRows.filter((i) => i.task_id === t.task_id))
              if (random() < 0.8 && (judge === "primary" || run === 1))
                judgments.push({
                  trajectory_id: t.trajectory_id,
                  item_id: it.item_id,
                  label: (["Yes", "No", "Abstain"] as const)[Math.floor(random() * 3)],
                  ...(run === 2 ? { run } : {}),
                  ...(judge === "second" ? { judge } : {}),
                });
      for (let k = judgments.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [judgments[k], judgments[j]] = [judgments[j], judgments[k]];
      }
      const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;
      writeFileSync(join(dir, "tasks.jsonl"), jsonl(tasks));
      writeFileSync(join(dir, "items.jsonl"), jsonl(itemRows));
      writeFileSync(join(dir, "trajectories.jsonl"), jsonl(trajectories));
      writeFileSync(join(dir, "judgments.jsonl"), jsonl(judgments));
      const checklist = (id: string) => {
        const task = trajectories.find((t) => t.trajectory_id === id)!.task_id;
        return itemRows.filter((i) => i.task_id === task);
      };
      const expected = labelVectorsFromRows(judgments, checklist, "primary");
      const packed = (await readStore(dir)).store.labels!;
      const listed = (await readStore(dir, { evidence: true })).store.labels!;
      assert.ok(
        [...expected.runs.values()].some((runs) => runs.some((r) => r.labels.includes("."))),
        "gaps",
      );
      assert.ok([...expected.runs.values()].some((runs) => runs.some((r) => r.labels.length === items)));
      assert.deepEqual(plain(packed.runs), plain(expected.runs));
      assert.deepEqual(plain(listed.runs), plain(expected.runs));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
