import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { sortByCodePoints } from "../../order.js";

/** The descriptive fields an arm, a filter or the matching can name (benchmark and domain are the task's). */
export const ARM_FIELDS = ["harness", "model", "source", "condition", "benchmark", "domain"] as const;
export type ArmField = (typeof ARM_FIELDS)[number];
export type Selector = Partial<Record<ArmField, string>>;
export type Pairing = "trial" | "task";

/**
 * Fields that belong to the task: a pair shares them through its task, so they add nothing to a cell's key
 * (and leaving them out keeps RQ3's cells [task, harness, model, source, trial], contract rule 6).
 */
const TASK_FIELDS: ReadonlySet<ArmField> = new Set<ArmField>(["benchmark", "domain"]);

/**
 * The binary trajectories a comparison of arms reads, by slot: the CLI's prepared store and the site's arm
 * table both answer through this, so RQ3, `gcpc compare` and the browser pair with one function.
 */
export interface ArmView {
  /** The candidate slots in ascending order (= trajectory_id order): the binary trajectories. */
  slots: readonly number[];
  id(slot: number): string;
  task(slot: number): string;
  /** A field's value by slot (one reader per field, so a loop over slots makes no field-name dispatch). */
  column(f: ArmField): (slot: number) => string | null;
  trial(slot: number): number | null;
}

/** A matched unit: its task and each side's slots (trial pairing: one each, the first by trajectory_id). */
export interface ArmPair {
  task: string;
  a: number[];
  b: number[];
}

export interface ArmPairs {
  /** Matched cells in the order of their key texts JSON.stringify([task, shared fields..., trial]). */
  pairs: ArmPair[];
  /** Trajectories of each side whose cell the other side does not reach, and those cells. */
  unmatched: { a: number; b: number; cells: number };
  /** Trial pairing: extra trajectories sharing a cell and trial index on one side (the first by id is used). */
  duplicates: number;
  /** Trial pairing: trajectories without a trial index, never matched (contract rule 12). */
  noTrial: number;
}

/** Whether a slot holds every field value of a selector (its entries listed once, not per slot). */
function matches(slot: number, tests: readonly [(slot: number) => string | null, string][]): boolean {
  for (const [read, v] of tests) if (read(slot) !== v) return false;
  return true;
}

/**
 * Each arm's slots (within `where`) and the fields a pair must share: every descriptive field that neither arm
 * nor the filter names ("everything else equal"). With `selfPairs`, an arm compared with itself pairs each
 * trajectory with itself (every Δ is 0); any other overlap of the arms is refused.
 */
export function armSides(
  view: ArmView,
  o: { a: Selector; b: Selector; where?: Selector },
  selfPairs: boolean,
): { sides: { a: number[]; b: number[] }; shared: ArmField[] } | NotAvailable {
  const where = o.where ?? {};
  const named = new Set<string>([...Object.keys(o.a), ...Object.keys(o.b), ...Object.keys(where)]);
  const itself = selfPairs && JSON.stringify(o.a) === JSON.stringify(o.b);
  const sides = { a: [] as number[], b: [] as number[] };
  const [inWhere, ofA, ofB] = [where, o.a, o.b].map((s) =>
    (Object.entries(s) as [ArmField, string][]).map(([f, v]): [(slot: number) => string | null, string] => [
      view.column(f),
      v,
    ]),
  );
  for (const k of view.slots) {
    if (!matches(k, inWhere)) continue;
    const inA = matches(k, ofA);
    const inB = matches(k, ofB);
    if (inA && inB && !itself) return notAvailable(`trajectory ${view.id(k)} matches both arms: the arms overlap`);
    if (inA) sides.a.push(k);
    if (inB && (!inA || itself)) sides.b.push(k);
  }
  return { sides, shared: ARM_FIELDS.filter((f) => !named.has(f)) };
}

/**
 * The matched units of two arms (paper §4.3's with/without-skill pairs, generalised): a cell is the task, the
 * shared fields and, under trial pairing, the trial index; a cell holding both sides is a unit. Trial pairing
 * uses the first trajectory of each side (slot order = trajectory_id order) and counts the rest; task pairing
 * keeps every attempt of the cell. RQ3 is this call with a = condition none, b = condition curated.
 */
export function pairArms(
  view: ArmView,
  sides: { a: readonly number[]; b: readonly number[] },
  shared: readonly ArmField[],
  mode: Pairing,
): ArmPairs {
  const trial = mode === "trial";
  // Members: side a's slots, then side b's, each ascending; `aCount` of them are a's.
  const members: number[] = [];
  let aCount = 0;
  let noTrial = 0;
  for (const side of [sides.a, sides.b]) {
    for (const k of side)
      if (trial && view.trial(k) === null) noTrial++;
      else members.push(k);
    if (side === sides.a) aCount = members.length;
  }
  const parts: ((slot: number) => string | number | null)[] = [
    (k) => view.task(k),
    ...shared.filter((f) => !TASK_FIELDS.has(f)).map((f) => view.column(f)),
    ...(trial ? [(k: number) => view.trial(k)] : []),
  ];
  const order = cellOrder(parts, members);
  const out: ArmPairs = { pairs: [], unmatched: { a: 0, b: 0, cells: 0 }, duplicates: 0, noTrial };
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && order.cell[end] === order.cell[start]) end++;
    // Within a cell the members come in member order: a's (ascending slots) before b's, so each side's first
    // is its first by trajectory_id. Arrays only for task pairing's cells (no allocation per trial cell).
    let split = start;
    while (split < end && order.member[split] < aCount) split++;
    const nA = split - start;
    const nB = end - split;
    const cellStart = start;
    start = end;
    if (trial) out.duplicates += Math.max(nA - 1, 0) + Math.max(nB - 1, 0);
    if (nA === 0 || nB === 0) {
      out.unmatched.a += nA;
      out.unmatched.b += nB;
      out.unmatched.cells++;
      continue;
    }
    const a = trial ? [members[order.member[cellStart]]] : slotsOf(order.member, members, cellStart, split);
    const b = trial ? [members[order.member[split]]] : slotsOf(order.member, members, split, end);
    out.pairs.push({ task: view.task(a[0]), a, b });
  }
  return out;
}

/** The slots of sorted members from..to. */
function slotsOf(member: Int32Array, members: readonly number[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(members[member[i]]);
  return out;
}

/**
 * The members sorted by cell, then by member index, with each one's cell as a number. Cells are ordered as
 * their keys' text JSON.stringify([part values...]) in code-point order (the order the pairs were always
 * listed in), without building that text per trajectory (a million keys and their sort took 5 s at 100×
 * the paper). The texts compare as their first differing part does, each part's JSON text followed by the
 * character after it in the key ("," or the closing "]"): a JSON string literal is never a proper prefix of
 * another, and a number's can be ("1" of "10"), where the next character decides. So each part's distinct
 * values are ranked by that text, and a cell is its ranks' mixed-radix number (tested against the text keys).
 */
export function cellOrder(
  parts: readonly ((slot: number) => string | number | null)[],
  members: readonly number[],
  /** Where the parts' ranks stop being numbered (a test lowers it to reach the text keys). */
  limit = 2 ** 53 / Math.max(members.length, 1),
) {
  const n = members.length;
  // cell · n + member index, one native sort: exact while below 2⁵³, else the cells are numbered by their texts.
  const cell = partRanks(parts, members, limit) ?? textRanks(parts, members);
  const keyed = new Float64Array(n);
  for (let i = 0; i < n; i++) keyed[i] = cell[i] * n + i;
  keyed.sort();
  const member = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    member[i] = keyed[i] % n;
    cell[i] = (keyed[i] - member[i]) / n;
  }
  return { length: n, member, cell };
}

/** Each member's cell as the mixed-radix number of its parts' ranks; undefined when they reach `limit`. */
function partRanks(
  parts: readonly ((slot: number) => string | number | null)[],
  members: readonly number[],
  limit: number,
) {
  const n = members.length;
  const cell = new Float64Array(n);
  let radix = 1;
  for (const [j, part] of parts.entries()) {
    const codes = new Map<string | number | null, number>();
    const code = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = part(members[i]);
      let c = codes.get(v);
      if (c === undefined) codes.set(v, (c = codes.size));
      code[i] = c;
    }
    radix *= codes.size || 1;
    if (radix >= limit) return undefined;
    const next = j === parts.length - 1 ? "]" : ",";
    const rank = new Int32Array(codes.size);
    sortByCodePoints([...codes.keys()], (v) => JSON.stringify(v) + next).forEach((v, r) => {
      rank[codes.get(v)!] = r;
    });
    for (let i = 0; i < n; i++) cell[i] = cell[i] * (codes.size || 1) + rank[code[i]];
  }
  return cell;
}

/** Each member's cell as the rank of its key text among the distinct keys (the order the parts' ranks give). */
function textRanks(parts: readonly ((slot: number) => string | number | null)[], members: readonly number[]) {
  const keys = members.map((slot) => JSON.stringify(parts.map((part) => part(slot))));
  const rank = new Map(sortByCodePoints([...new Set(keys)], (k) => k).map((k, r) => [k, r]));
  return Float64Array.from(keys, (k) => rank.get(k)!);
}
