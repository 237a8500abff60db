import type { PreparedStore } from "./prepared.js";
import { compareCodePoints } from "../order.js";
import { ScoreColumn, type ScoreLookup } from "./score-column.js";
import type { MethodScoreColumns } from "../schema/method-score-columns.js";

/** Paper baselines first (Table 3A order), then any other stored method by name. */
const PAPER_ORDER = ["holistic", "generic", "tick", "tick_adapted"];

/**
 * Score of every scorer for every deduplicated trajectory: plain GCPC
 * (`gcpc`, undefined when zero-evidence), GCPC with official outcome
 * (`gcpc_outcome`) and each stored method_scores method.
 */
export function methodScoreMaps(p: PreparedStore): ReadonlyMap<string, ScoreLookup> {
  // Built once per prepared store (RQ1, RQ2, the site's power grid and Compare columns all read it):
  // one score per method score row, 1.5 M at scale 100, 10 M at 100× the paper.
  let maps = built.get(p);
  if (!maps) built.set(p, (maps = buildMethodScoreMaps(p)));
  return maps;
}

const built = new WeakMap<PreparedStore, ReadonlyMap<string, ScoreLookup>>();

function buildMethodScoreMaps(p: PreparedStore): Map<string, ScoreLookup> {
  const maps = new Map<string, ScoreLookup>();
  const slots = p.slots;
  const gcpc = new ScoreColumn(slots),
    gcpcOutcome = new ScoreColumn(slots);
  for (const [id, m] of p.metrics) {
    if (!m.zero_evidence) {
      gcpc.set(id, m.gcpc);
      gcpcOutcome.set(id, m.gcpc_outcome);
    }
  }
  maps.set("gcpc", gcpc);
  maps.set("gcpc_outcome", gcpcOutcome);
  const stored = new Map<string, ScoreColumn>();
  for (const row of p.store.method_scores ?? []) {
    if (!slots.has(row.trajectory_id)) continue;
    let m = stored.get(row.method);
    if (!m) stored.set(row.method, (m = new ScoreColumn(slots)));
    m.set(row.trajectory_id, row.score);
  }
  const columns = p.store.method_score_columns;
  if (columns) storedFromColumns(columns, p, stored);
  for (const name of baselineOrder([...stored.keys()])) maps.set(name, stored.get(name)!);
  const tests = verifierTestShare(p);
  if (tests.size > 0 && !maps.has("verifier_tests")) maps.set("verifier_tests", tests);
  return maps;
}

/**
 * The same from a store's method score columns: each trajectory's slot is looked up once per trajectory
 * rather than once per score row (a Map lookup of its id each), and a method's column is created at its
 * first row, as the row loop above creates it.
 */
function storedFromColumns(c: MethodScoreColumns, p: PreparedStore, stored: Map<string, ScoreColumn>): void {
  const trajectories = p.store.trajectories;
  const slotOf = new Int32Array(trajectories.length);
  for (let k = 0; k < trajectories.length; k++) slotOf[k] = p.slots.get(trajectories[k].trajectory_id) ?? -1;
  const byMethod: (ScoreColumn | undefined)[] = c.methods.map(() => undefined);
  for (let k = 0; k < c.length; k++) {
    const slot = slotOf[c.trajectory[k]];
    if (slot < 0) continue;
    const m = c.method[k];
    let column = byMethod[m];
    if (!column) stored.set(c.methods[m], (column = byMethod[m] = new ScoreColumn(p.slots)));
    column.setSlot(slot, c.score[k]);
  }
}

export function baselineOrder(names: string[]): string[] {
  const known = PAPER_ORDER.filter((n) => names.includes(n));
  const rest = names.filter((n) => !PAPER_ORDER.includes(n)).sort(compareCodePoints);
  return [...known, ...rest];
}

/**
 * Log-free partial credit from the official verifier (issue 5): share of the
 * trajectory's verifier tests that passed, passed / (passed + failed + other);
 * skipped tests are not counted. Only trajectories with at least one counted
 * test get a score. Note: it reads the verifier, so it is not outcome-free.
 */
export function verifierTestShare(p: PreparedStore): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, tests] of p.testResults) {
    let passed = 0,
      counted = 0;
    for (const status of tests.values()) {
      if (status === "skipped") continue;
      counted++;
      if (status === "passed") passed++;
    }
    if (counted > 0) out.set(id, passed / counted);
  }
  return out;
}
