import { gradeAt } from "../schema/grades.js";

/**
 * A points rubric's score of one trajectory (contract rule 21, docs/verdict-store.md), the rule of HealthBench
 * (Arora et al., "HealthBench", OpenAI 2025, §2; simple-evals' healthbench_eval.py): each criterion carries signed
 * points (−10 … +10 there), a response earns the points of every criterion it meets, and its score is the points
 * earned over the largest total it could earn, the sum of the positive points. A response's score may be below 0
 * (penalties met, little earned); HealthBench clips the mean of the scores to [0, 1], not each score
 * (pointsMean).
 *
 * Here a criterion is met to its grade (Yes 1, No 0, a graded item its grade), so earned = Σ points × grade over
 * the decided items. An Abstain, or an item the judge did not judge, earns nothing either way (neither the points
 * nor the penalty: a reader sees how many were undecided in the item figures). A NotApplicable item leaves the
 * trajectory's rubric: its points count neither in what was earned nor, when positive, in what could be.
 */
export interface PointsScore {
  /** Σ points × grade over the decided applicable items. */
  earned: number;
  /** Σ of the positive points over the applicable items. */
  possible: number;
  /** earned ÷ possible: below 0 when the penalties outweigh what was earned (null: nothing possible). */
  score: number | null;
  /** Some negative-points item applicable to the trajectory was met (grade > 0). */
  penalised: boolean;
}

/** The score of one run's label string (label-vectors.ts) under the task's items' points, in checklist order. */
export function pointsScore(labels: string, points: readonly number[]): PointsScore {
  let earned = 0;
  let possible = 0;
  let penalised = false;
  for (let k = 0; k < points.length; k++) {
    const grade = gradeAt(labels, k);
    if (grade === -1) continue; // NotApplicable
    const p = points[k];
    if (p > 0) possible += p;
    if (Number.isNaN(grade)) continue; // Abstain, not judged
    earned += p * grade;
    if (p < 0 && grade > 0) penalised = true;
  }
  return { earned, possible, score: possible > 0 ? earned / possible : null, penalised };
}

/** HealthBench's aggregate: the mean of the scores, and that mean clipped to [0, 1] (the reported score). */
export function pointsMean(scores: readonly number[]): { unclipped: number; clipped: number } | null {
  if (scores.length === 0) return null;
  let sum = 0;
  for (const s of scores) sum += s;
  const unclipped = sum / scores.length;
  return { unclipped, clipped: Math.min(1, Math.max(0, unclipped)) };
}
