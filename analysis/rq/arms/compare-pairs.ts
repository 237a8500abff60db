import { notAvailable, type NotAvailable } from "../../estimates/not-defined.js";
import { roundTo12 } from "../../stats/shares.js";
import { compareCodePoints } from "../../order.js";
import {
  armSides,
  pairArms,
  type ArmField,
  type ArmPairs,
  type ArmView,
  type Pairing,
  type Selector,
} from "./arm-pairs.js";
import { transitionGroups, type PairOutcome, type TransitionGroup } from "./transition-tests.js";

/** How the pairing was chosen (every format prints it). */
export interface PairingChoice {
  mode: Pairing;
  chosen: "given" | "automatic";
  reason: string;
}

export interface ComparePairsOptions {
  /** Trial or task pairing; without it, trial pairing when every arm holds one attempt per cell, else task. */
  pair?: Pairing;
  /** An arm compared with itself pairs each trajectory with itself (the site's and the CLI's compare). */
  selfPairs: boolean;
  outcome: (slot: number) => "PASS" | "FAIL";
  /** A trajectory's score (NaN: none, e.g. zero-evidence). */
  score: (slot: number) => number;
  /** Δ rounded to 12 decimals (the paper's RQ3, contract rule 6) rather than as computed. */
  roundDelta?: boolean;
  /** false: an empty side still pairs (nothing), so the other side's cells are counted as unmatched (RQ3). */
  requireBothSides?: boolean;
}

/** What a comparison of two arms pairs: the sides, the matched units, and (trial pairing) the transitions. */
export interface ComparedPairs {
  sides: { a: number[]; b: number[] };
  /** The fields a pair shares besides its task ("everything else equal"). */
  shared: ArmField[];
  pairing: PairingChoice;
  built: ArmPairs;
  /** Trial pairing: each pair's outcomes, task and score Δ (b − a), in pair order; task pairing: empty. */
  outcomes: PairOutcome[];
  /** Trial pairing: the four outcome transitions of the pairs with a Δ; task pairing: empty. */
  groups: TransitionGroup<PairOutcome>[];
}

/**
 * The comparison verb's core, for `gcpc compare` (on the arm table, in the CLI and the browser) and for the
 * paper's RQ3 (on the prepared store: a = condition none, b = curated, trial pairing, Δ rounded): the arms' sides
 * within the filter, the matched units (analysis/rq/arms/arm-pairs.ts) and, under trial pairing, each pair's Δ
 * grouped by outcome transition (analysis/rq/arms/transition-tests.ts). Each caller adds its own columns.
 */
export function comparePairs(
  view: ArmView,
  arms: { a: Selector; b: Selector; where?: Selector },
  o: ComparePairsOptions,
): ComparedPairs | NotAvailable {
  const chosen = armSides(view, arms, o.selfPairs);
  if ("available" in chosen) return chosen;
  const { sides, shared } = chosen;
  if (o.requireBothSides !== false && (sides.a.length === 0 || sides.b.length === 0)) {
    const side = sides.a.length === 0 ? "a" : "b";
    return notAvailable(`arm ${side} selects no binary trajectory${selectorHint(view, arms[side])}`);
  }
  const pairing = choosePairing(view, sides, shared, o.pair);
  const built = pairArms(view, sides, shared, pairing.mode);
  if (pairing.mode !== "trial") return { sides, shared, pairing, built, outcomes: [], groups: [] };
  const outcomes = built.pairs.map((x): PairOutcome => {
    const a = x.a[0];
    const b = x.b[0];
    const delta = o.score(b) - o.score(a);
    return { from: o.outcome(a), to: o.outcome(b), task: x.task, delta: o.roundDelta ? roundTo12(delta) : delta };
  });
  return { sides, shared, pairing, built, outcomes, groups: transitionGroups(outcomes) };
}

/** Trial pairing when every arm holds at most one attempt per cell, else task pairing (unless given). */
function choosePairing(
  view: ArmView,
  sides: { a: number[]; b: number[] },
  shared: readonly ArmField[],
  given?: Pairing,
): PairingChoice {
  if (given) return { mode: given, chosen: "given", reason: `--pair ${given}` };
  const cellKey = cellKeyOf(view, shared);
  const repeated = (slots: number[]) => {
    const seen = new Set<string>();
    for (const k of slots) {
      const key = cellKey(k);
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  };
  if (repeated(sides.a) || repeated(sides.b))
    return {
      mode: "task",
      chosen: "automatic",
      reason:
        "an arm holds several attempts per task: attempt k of one arm has no special relation to attempt k of " +
        "the other, so each matched task's mean over its attempts is compared",
    };
  return {
    mode: "trial",
    chosen: "automatic",
    reason: "one attempt per task and arm: the attempts pair by trial index",
  };
}

/**
 * The key of a slot's matching cell: its task and the shared fields (one attempt's cell under task pairing).
 * What the automatic pairing and compare's attempt floor group by.
 */
export function cellKeyOf(view: ArmView, shared: readonly ArmField[]): (slot: number) => string {
  const readers = shared.map((f) => view.column(f));
  return (k) => JSON.stringify([view.task(k), ...readers.map((read) => read(k))]);
}

/**
 * What a selector that matched nothing could have said: each of its fields' values among the trajectories
 * (at most 12 a field, in code-point order), e.g. "; model has: gpt-4.1, o3".
 */
function selectorHint(view: ArmView, selector: Selector): string {
  const parts = Object.entries(selector).map(([field, wanted]) => {
    const column = view.column(field as ArmField);
    const values = [...new Set(view.slots.map((k) => column(k)).filter((v): v is string => v !== null))];
    values.sort(compareCodePoints);
    if (values.includes(wanted as string)) return undefined;
    const shown = values.slice(0, 12).join(", ") + (values.length > 12 ? `, … (${values.length} values)` : "");
    return `${field} has: ${shown || "no value"}`;
  });
  const said = parts.filter((x) => x !== undefined);
  return said.length ? `; ${said.join("; ")}` : "";
}
