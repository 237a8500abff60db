import { wilsonInterval, Z95 } from "./wilson.js";

/**
 * Newcombe's hybrid score interval for a difference of two independent proportions p_b − p_a (Newcombe 1998,
 * "Interval estimation for the difference between independent proportions", method 10): from the Wilson score
 * intervals [l_a, u_a] and [l_b, u_b] of each proportion,
 *   lower = d − √((p_b − l_b)² + (u_a − p_a)²),  upper = d + √((u_b − p_b)² + (p_a − l_a)²),  d = p_b − p_a.
 * No draws, defined at 0 and 1 (where the Wald interval collapses), and close to nominal coverage for small n
 * in Newcombe's evaluation. The counts may be fractional (a standardised rate times its trials). Null when either
 * side has no trial. Checked against Newcombe's Table II and a scipy-based reference (test/newcombe.test.ts).
 */
export function newcombeDifference(
  successesA: number,
  trialsA: number,
  successesB: number,
  trialsB: number,
  z = Z95,
): [number, number] | null {
  const a = wilsonInterval(successesA, trialsA, z);
  const b = wilsonInterval(successesB, trialsB, z);
  if (!a || !b) return null;
  const pa = successesA / trialsA;
  const pb = successesB / trialsB;
  const d = pb - pa;
  return [d - Math.hypot(pb - b[0], a[1] - pa), d + Math.hypot(b[1] - pb, pa - a[0])];
}

/**
 * The 2 × 2 table of paired binary outcomes (A, B) on the same units: `both` pass, `onlyB` (B passes, A fails),
 * `onlyA`, `neither`. Counts may be fractional (expected counts of a cell, see analysis/rq/uplift-row.ts).
 */
export interface PairedTable {
  both: number;
  onlyB: number;
  onlyA: number;
  neither: number;
}

/**
 * Newcombe's square-and-add interval for a difference of paired proportions p_B − p_A (Newcombe 1998b,
 * "Improved confidence intervals for the difference between binomial proportions based on paired data", method
 * 10; written as in Fagerland, Lydersen & Laake 2014, "Statistical Analysis of Contingency Tables", §8.5.4):
 * the independent-samples interval above with the Wilson intervals' squared distances combined less twice ψ
 * times their product, ψ the estimated correlation of the two outcomes, (ad − bc − N/2)/√(margins) when
 * ad − bc > N/2, 0 when 0 ≤ ad − bc ≤ N/2, (ad − bc)/√(margins) when negative, 0 when a margin is empty.
 * A positive ψ narrows the interval: units that pass or fail alike in both conditions say little about the
 * difference. Null without pairs. Checked against the book's worked example and a scipy-based reference
 * (test/newcombe.test.ts).
 */
export function newcombePairedDifference(t: PairedTable, z = Z95): [number, number] | null {
  const n = t.both + t.onlyB + t.onlyA + t.neither;
  if (!(n > 0)) return null;
  const passB = t.both + t.onlyB;
  const passA = t.both + t.onlyA;
  const b = wilsonInterval(passB, n, z)!;
  const a = wilsonInterval(passA, n, z)!;
  const pb = passB / n;
  const pa = passA / n;
  const margins = passB * (n - passB) * passA * (n - passA);
  const cross = t.both * t.neither - t.onlyB * t.onlyA;
  const psi = !(margins > 0)
    ? 0
    : cross > n / 2
      ? (cross - n / 2) / Math.sqrt(margins)
      : cross >= 0
        ? 0
        : cross / Math.sqrt(margins);
  const d = pb - pa;
  const spread = (x: number, y: number) => Math.sqrt(Math.max(0, x * x + y * y - 2 * psi * x * y));
  return [d - spread(pb - b[0], a[1] - pa), d + spread(pa - a[0], b[1] - pb)];
}
