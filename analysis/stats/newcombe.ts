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
