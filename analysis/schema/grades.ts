/**
 * Graded item labels (contract schema_version 2) inside a run's label string (label-vectors.ts).
 *
 * A run's labels are one character per checklist item, and every scorer reads them in place. A graded
 * label (a value in [0, 1] other than 0 and 1) is one more character: each distinct grade value is given
 * its own code point, from U+0100 up, in a process-wide table that only grows. The value is kept exactly
 * (a double), so scores read the grade itself, never a rounded one; the character is internal (no output
 * shows it), so the order in which grades were first seen changes no figure. Grade 1 is "Y", grade 0 is
 * "N": a graded store whose grades are all 0 or 1 scores exactly as a Yes/No store.
 *
 * "-" marks an item that does not apply to this trajectory (label NotApplicable): it leaves the
 * trajectory's checklist, unlike Abstain ("A"), which keeps it and means the judge could not decide.
 */

/** The character of an item that does not apply to the trajectory. */
export const NOT_APPLICABLE_CHAR = "-";

const FIRST_GRADE_CODE = 0x100;
// Below the surrogates: every grade character is one UTF-16 unit, so labels[k] is item k's.
const LAST_GRADE_CODE = 0xd7ff;

const codeOfGrade = new Map<number, number>();
const gradeOfCode: number[] = [];

/** The label character of grade g ∈ [0, 1]: "Y" for 1, "N" for 0, else g's own character. */
export function gradeChar(g: number): string {
  if (!(g >= 0 && g <= 1)) throw new RangeError(`grade ${g} is outside [0, 1]`);
  if (g === 1) return "Y";
  if (g === 0) return "N";
  let code = codeOfGrade.get(g);
  if (code === undefined) {
    code = FIRST_GRADE_CODE + gradeOfCode.length;
    if (code > LAST_GRADE_CODE)
      throw new RangeError(`more than ${LAST_GRADE_CODE - FIRST_GRADE_CODE + 1} distinct grades in one process`);
    codeOfGrade.set(g, code);
    gradeOfCode.push(g);
  }
  return String.fromCharCode(code);
}

/**
 * The grade of a label character: 1 for "Y", 0 for "N", the value of a grade character; NaN for Abstain
 * ("A") and not judged ("."), which count as Abstain; -1 for not applicable ("-").
 */
export function gradeOfCharCode(code: number): number {
  if (code === 89) return 1; // Y
  if (code === 78) return 0; // N
  if (code === 45) return -1; // "-"
  if (code >= FIRST_GRADE_CODE && code <= LAST_GRADE_CODE) {
    const g = gradeOfCode[code - FIRST_GRADE_CODE];
    if (g !== undefined) return g;
  }
  return NaN;
}

/** The grade of item k of a run's label string (see {@link gradeOfCharCode}). */
export const gradeAt = (labels: string, k: number): number =>
  k < labels.length ? gradeOfCharCode(labels.charCodeAt(k)) : NaN;

/**
 * Item k of a run's label string as shown to a reader: Yes, No, Abstain (also for not judged), NotApplicable, or
 * a grade strictly between 0 and 1 to three decimals.
 */
export function displayLabelAt(labels: string | undefined, k: number): string {
  const g = labels === undefined ? NaN : gradeAt(labels, k);
  if (g === 1) return "Yes";
  if (g === 0) return "No";
  if (g === -1) return "NotApplicable";
  return Number.isNaN(g) ? "Abstain" : g.toFixed(3);
}

/**
 * The grade of every grade character the label strings use (none: undefined): what a reader in another process
 * (the site's browser, which has no grade table) needs to read them (analysis/schema/label-vectors.ts,
 * readableLabels).
 */
export function gradeTableOf(labelStrings: readonly string[]): Record<string, number> | undefined {
  let table: Record<string, number> | undefined;
  for (const labels of labelStrings)
    for (let k = 0; k < labels.length; k++) {
      const code = labels.charCodeAt(k);
      if (code < FIRST_GRADE_CODE) continue;
      table ??= {};
      table[labels[k]] = gradeOfCharCode(code);
    }
  return table;
}
