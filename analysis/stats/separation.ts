import { argError } from "../errors.js";

/** Per cluster: the PASS rows' score sum and count, the FAIL rows' score sum and count. */
export interface SeparationSums {
  sumPass: Float64Array;
  nPass: Float64Array;
  sumFail: Float64Array;
  nFail: Float64Array;
}

/**
 * PASS–FAIL mean separation (paper §4.5): mean score over PASS − mean over
 * FAIL, prepared for cluster-weighted evaluation. Per-cluster sums and counts
 * are computed once, so a draw costs O(clusters).
 * NaN when a class is empty.
 */
export class ClusteredSeparation {
  private readonly sumPass: Float64Array;
  private readonly nPass: Float64Array;
  private readonly sumFail: Float64Array;
  private readonly nFail: Float64Array;

  constructor(
    scores: ArrayLike<number>,
    pass: ArrayLike<boolean>,
    clusterOf: ArrayLike<number>,
    readonly clusters: number,
  ) {
    this.sumPass = new Float64Array(clusters);
    this.nPass = new Float64Array(clusters);
    this.sumFail = new Float64Array(clusters);
    this.nFail = new Float64Array(clusters);
    this.addRows(scores, pass, clusterOf);
  }

  /**
   * The per-cluster sums a draw reads: all a bootstrap needs, a few numbers a cluster instead of a row
   * each (what a job carries to another thread, analysis/rq/jobs.ts).
   */
  get sums(): SeparationSums {
    return { sumPass: this.sumPass, nPass: this.nPass, sumFail: this.sumFail, nFail: this.nFail };
  }

  /** The separation of per-cluster sums taken earlier (`sums`), evaluated as on the rows they summed. */
  static fromSums(sums: SeparationSums): ClusteredSeparation {
    const c = new ClusteredSeparation([], [], [], sums.sumPass.length);
    c.sumPass.set(sums.sumPass);
    c.nPass.set(sums.nPass);
    c.sumFail.set(sums.sumFail);
    c.nFail.set(sums.nFail);
    return c;
  }

  private addRows(scores: ArrayLike<number>, pass: ArrayLike<boolean>, clusterOf: ArrayLike<number>): void {
    for (let i = 0; i < scores.length; i++) {
      if (!Number.isFinite(scores[i]))
        throw argError("ClusteredSeparation", `scores[${i}]`, scores[i], "must be finite");
      const c = clusterOf[i];
      if (pass[i]) {
        this.sumPass[c] += scores[i];
        this.nPass[c]++;
      } else {
        this.sumFail[c] += scores[i];
        this.nFail[c]++;
      }
    }
  }

  evaluate(w: Float64Array): number {
    let sp = 0,
      np = 0,
      sf = 0,
      nf = 0;
    for (let c = 0; c < this.clusters; c++) {
      const wc = w[c];
      sp += wc * this.sumPass[c];
      np += wc * this.nPass[c];
      sf += wc * this.sumFail[c];
      nf += wc * this.nFail[c];
    }
    return np === 0 || nf === 0 ? NaN : sp / np - sf / nf;
  }

  estimate(): number {
    return this.evaluate(new Float64Array(this.clusters).fill(1));
  }
}
