/**
 * Dawid–Skene latent-class estimation for binary verdicts (Dawid & Skene, "Maximum likelihood estimation of
 * observer error-rates using the EM algorithm", Applied Statistics 28, 1979), the two-class case: each unit (a
 * trajectory's checklist item) has an unseen true verdict, Yes or No; each judge says Yes on a true Yes with its
 * sensitivity and No on a true No with its specificity, independently given the truth; the share of true Yes is
 * the prior. Error rates are estimated per stratum (an item category), each with its own prior.
 *
 * Where a unit carries a reference label (a human's), its truth is taken as known: those units anchor the
 * estimate (semi-supervised Dawid–Skene), the rest are inferred. EM starts from the majority vote (ties Yes with
 * probability ½), as crowd-kit's implementation does, and stops when no parameter moves by more than 1e-10, or
 * after 1,000 rounds. A unit no judge decided carries no information and is left out.
 *
 * Written here because no maintained JavaScript implementation exists; test/dawid-skene.test.ts holds it equal to
 * a NumPy implementation of the same updates (test/fixtures/dawid_skene_reference.py) and checks recovery on
 * simulated judges with known error rates.
 */

export interface DsUnits {
  /** Per unit and judge: 1 Yes, 0 No, −1 not decided. units × judges, unit-major. */
  labels: Int8Array;
  judges: number;
  /** Per unit: its stratum (0 … strata − 1). */
  stratum: Int32Array;
  strata: number;
  /** Per unit: 1 or 0 where the reference label is known, −1 where not. */
  reference: Int8Array;
}

export interface DsFit {
  /** [stratum][judge]: P(judge says Yes | true Yes), and P(judge says No | true No); NaN where never observed. */
  sensitivity: number[][];
  specificity: number[][];
  /** [stratum]: the share of true Yes. */
  prior: number[];
  /** Per unit: P(true Yes | its labels) (the reference label itself where known; NaN for a unit nobody decided). */
  posterior: Float64Array;
  rounds: number;
  converged: boolean;
}

const TOLERANCE = 1e-10;
const MAX_ROUNDS = 1000;

/**
 * The Dawid–Skene fit; `weights` (per unit, default 1) let a bootstrap draw count a unit several times. `start`:
 * begin from these parameters instead of the majority vote (a bootstrap draw starts from the sample's fit, the
 * usual warm start: it converges in a few rounds to the draw's own maximum).
 */
export function dawidSkene(u: DsUnits, weights?: Float64Array, start?: DsParameters): DsFit {
  const n = u.stratum.length;
  const posterior = new Float64Array(n);
  for (let i = 0; i < n; i++) posterior[i] = u.reference[i] >= 0 ? u.reference[i] : majority(u, i);
  if (start) eStep(u, start, posterior);
  let fit = mStep(u, posterior, weights);
  let rounds = 0;
  let converged = false;
  while (rounds < MAX_ROUNDS) {
    rounds++;
    eStep(u, fit, posterior);
    const next = mStep(u, posterior, weights);
    const moved = largestMove(fit, next);
    fit = next;
    if (moved <= TOLERANCE) {
      converged = true;
      break;
    }
  }
  eStep(u, fit, posterior);
  return { ...fit, posterior, rounds, converged };
}

/** A unit's majority vote: 1 or 0, ½ on a tie, NaN when no judge decided. */
export function majority(u: DsUnits, i: number): number {
  let yes = 0;
  let decided = 0;
  for (let j = 0; j < u.judges; j++) {
    const y = u.labels[i * u.judges + j];
    if (y < 0) continue;
    decided++;
    yes += y;
  }
  if (decided === 0) return Number.NaN;
  return yes * 2 > decided ? 1 : yes * 2 < decided ? 0 : 0.5;
}

export type DsParameters = Pick<DsFit, "sensitivity" | "specificity" | "prior">;
type Parameters = DsParameters;

/** Error rates and priors from the units' current P(true Yes), weighted. */
function mStep(u: DsUnits, t: Float64Array, weights?: Float64Array): Parameters {
  const zeros = () => Array.from({ length: u.strata }, () => new Array<number>(u.judges).fill(0));
  const [yesGivenYes, yesSeen, noGivenNo, noSeen] = [zeros(), zeros(), zeros(), zeros()];
  const mass = new Array<number>(u.strata).fill(0);
  const units = new Array<number>(u.strata).fill(0);
  for (let i = 0; i < t.length; i++) {
    const p = t[i];
    if (Number.isNaN(p)) continue;
    const w = weights ? weights[i] : 1;
    if (w === 0) continue;
    const s = u.stratum[i];
    mass[s] += w * p;
    units[s] += w;
    for (let j = 0; j < u.judges; j++) {
      const y = u.labels[i * u.judges + j];
      if (y < 0) continue;
      yesSeen[s][j] += w * p;
      noSeen[s][j] += w * (1 - p);
      if (y === 1) yesGivenYes[s][j] += w * p;
      else noGivenNo[s][j] += w * (1 - p);
    }
  }
  const ratio = (a: number[][], b: number[][]) => a.map((row, s) => row.map((x, j) => x / b[s][j]));
  return {
    sensitivity: ratio(yesGivenYes, yesSeen),
    specificity: ratio(noGivenNo, noSeen),
    prior: mass.map((m, s) => m / units[s]),
  };
}

/**
 * Each unit's P(true Yes) under the parameters (reference units keep their label). Units of one stratum whose
 * judges said the same get the same value by the same operations, so it is computed once per round for each
 * such pattern (the memo) and copied: the values are those of the unit-by-unit loop, bit for bit.
 */
function eStep(u: DsUnits, f: Parameters, t: Float64Array): void {
  const span = 3 ** u.judges;
  const keys = patternKeys(u);
  const memo = keys ? new Float64Array(u.strata * span).fill(Number.NaN) : undefined;
  for (let i = 0; i < t.length; i++) {
    if (u.reference[i] >= 0 || Number.isNaN(t[i])) continue;
    if (!keys || !memo) {
      t[i] = unitPosterior(u, f, i);
      continue;
    }
    // posteriorOf never returns NaN, so NaN marks a pattern not yet computed this round.
    const slot = u.stratum[i] * span + keys[i];
    if (Number.isNaN(memo[slot])) memo[slot] = unitPosterior(u, f, i);
    t[i] = memo[slot];
  }
}

/**
 * The memo's largest size (strata × 3^judges slots), and never more slots than units: it is filled anew each round,
 * which must not cost more than the round it saves. Beyond that every unit is computed on its own.
 */
const MEMO_SLOTS = 1 << 16;
const keysOf = new WeakMap<DsUnits, Int32Array | null>();

/** Per unit: its judges' labels as one base-3 number (−1, 0, 1 as 0, 1, 2); null when the memo would be too big. */
function patternKeys(u: DsUnits): Int32Array | null {
  let keys = keysOf.get(u);
  if (keys !== undefined) return keys;
  keys = null;
  if (u.strata * 3 ** u.judges <= Math.min(MEMO_SLOTS, u.stratum.length)) {
    keys = new Int32Array(u.stratum.length);
    for (let i = 0; i < keys.length; i++) {
      let k = 0;
      for (let j = 0; j < u.judges; j++) k = k * 3 + u.labels[i * u.judges + j] + 1;
      keys[i] = k;
    }
  }
  keysOf.set(u, keys);
  return keys;
}

/** One unit's P(true Yes) from its judges' labels. */
function unitPosterior(u: DsUnits, f: Parameters, i: number): number {
  const s = u.stratum[i];
  // In logs: a judge whose rate is 0 or 1 makes one class impossible (log 0 = −∞), as the likelihood says.
  let yes = Math.log(f.prior[s]);
  let no = Math.log(1 - f.prior[s]);
  for (let j = 0; j < u.judges; j++) {
    const y = u.labels[i * u.judges + j];
    if (y < 0) continue;
    // A rate never observed (no mass in that class) says nothing: its term is left out.
    const py = y === 1 ? f.sensitivity[s][j] : 1 - f.sensitivity[s][j];
    const pn = y === 1 ? 1 - f.specificity[s][j] : f.specificity[s][j];
    if (!Number.isNaN(py)) yes += Math.log(py);
    if (!Number.isNaN(pn)) no += Math.log(pn);
  }
  return posteriorOf(yes, no);
}

/** exp(yes) / (exp(yes) + exp(no)) computed stably; ½ when both classes are impossible. */
function posteriorOf(yes: number, no: number): number {
  if (yes === Number.NEGATIVE_INFINITY && no === Number.NEGATIVE_INFINITY) return 0.5;
  if (Number.isNaN(yes) || Number.isNaN(no)) return 0.5;
  const top = Math.max(yes, no);
  const a = Math.exp(yes - top);
  const b = Math.exp(no - top);
  return a / (a + b);
}

/** The largest absolute change of any parameter (NaN rates, never observed, count as unchanged). */
function largestMove(a: Parameters, b: Parameters): number {
  let m = 0;
  const d = (x: number, y: number) => {
    if (Number.isNaN(x) && Number.isNaN(y)) return;
    const v = Math.abs(x - y);
    m = Number.isNaN(v) ? Number.POSITIVE_INFINITY : Math.max(m, v);
  };
  a.prior.forEach((x, s) => {
    d(x, b.prior[s]);
    for (let j = 0; j < a.sensitivity[s].length; j++) {
      d(a.sensitivity[s][j], b.sensitivity[s][j]);
      d(a.specificity[s][j], b.specificity[s][j]);
    }
  });
  return m;
}
