// Contract rule 16 (items.determines_outcome): GCPC counts the outcome-free items of a store that has both
// kinds, the all-items score is reported beside it flagged, and every RQ1 row says whether it is outcome-free.
import { test } from "node:test";
import assert from "node:assert/strict";
import seedrandom from "seedrandom";
import { analyzeStore } from "../analysis/rq/report.js";
import { prepareStore } from "../analysis/rq/prepared.js";
import { DEFAULT_SETTINGS } from "../analysis/estimates/bootstrap-interval.js";
import { smallStore, type SmallTrajectory } from "./helpers/small-store.js";

const settings = { ...DEFAULT_SETTINGS, resamples: 100, headline_resamples: 100 };

/** 12 tasks × 6 trajectories; item i1 is the verifier (Yes exactly on PASS), i2–i4 are judged from the log. */
function rows(): SmallTrajectory[] {
  const rng = seedrandom("outcome-free");
  const out: SmallTrajectory[] = [];
  for (let t = 0; t < 12; t++)
    for (let k = 0; k < 6; k++) {
      const pass = rng() < 0.5;
      const free = Array.from({ length: 3 }, () =>
        rng() < (pass ? 0.7 : 0.4) ? "Yes" : rng() < 0.8 ? "No" : "Abstain",
      );
      out.push({ task: `t${t}`, outcome: pass ? "PASS" : "FAIL", labels: [pass ? "Yes" : "No", ...free] as never });
    }
  return out;
}

test("a store of both kinds: GCPC counts the outcome-free items by hand, the all-items row is flagged", () => {
  const data = rows();
  const store = smallStore("both kinds (synthetic)", data);
  for (const it of store.items) it.determines_outcome = it.item_id === "i1";
  const p = prepareStore(store);
  assert.deepEqual(p.outcomeItems, { determining: 12, free: 36 });
  data.forEach((r, n) => {
    const free = r.labels.slice(1);
    const yes = free.filter((l) => l === "Yes").length;
    const decided = free.filter((l) => l !== "Abstain").length;
    const k = p.slots.get(`t${n}`)!;
    const m = p.metrics.atSlot(k);
    if (decided === 0) assert.equal(m.zero_evidence, true);
    else assert.equal(m.gcpc, yes / decided, `t${n}`);
    const all = r.labels.filter((l) => l === "Yes").length / r.labels.filter((l) => l !== "Abstain").length;
    assert.equal(p.allItemsGcpc![k], all);
  });
  const report = analyzeStore(store, settings);
  const gcpc = report.rq1.auc.find((a) => a.method === "gcpc")!;
  const allItems = report.rq1.auc.find((a) => a.method === "gcpc (all items)")!;
  assert.equal(gcpc.outcome_free, true);
  assert.equal(allItems.outcome_free, false);
  assert.match(allItems.note ?? "", /^not outcome-free: the outcome is computed from these items/);
  // The verifier item carries the outcome into the all-items score: its AUC exceeds the outcome-free one.
  assert.ok(allItems.auc! > gcpc.auc! + 0.1, `${allItems.auc} vs ${gcpc.auc}`);
  assert.ok(report.rq1.auc.every((a) => typeof a.outcome_free === "boolean"));
});

test("a store whose items all determine the outcome keeps GCPC over them, flagged; a store without the column is free", () => {
  const store = smallStore("all determining (synthetic)", rows());
  for (const it of store.items) it.determines_outcome = true;
  const report = analyzeStore(store, settings);
  const gcpc = report.rq1.auc.find((a) => a.method === "gcpc")!;
  assert.equal(gcpc.outcome_free, false);
  assert.match(gcpc.note ?? "", /not outcome-free/);
  assert.ok(!report.rq1.auc.some((a) => a.method === "gcpc (all items)"));
  assert.ok(report.rq4 && "outcome_step" in report.rq4 && Array.isArray(report.rq4.outcome_step));
  assert.ok(report.rq4.outcome_step.every((s) => !s.outcome_free));
  const plain = analyzeStore(smallStore("no column (synthetic)", rows()), settings);
  assert.equal(plain.rq1.auc.find((a) => a.method === "gcpc")!.outcome_free, true);
});
