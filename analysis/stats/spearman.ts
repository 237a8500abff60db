import { argError } from "../errors.js";
import { midranks, sortedOrder } from "./ranks.js";

/**
 * Spearman's rank correlation ρ: Pearson's r of the midranks of x and y.
 * Ties get average ranks (the definition scipy.stats.spearmanr uses), so the
 * value is exact with ties rather than the 1 − 6Σd²/(n(n²−1)) shortcut,
 * which is only valid without ties.
 *
 * NaN when n < 2 or either variable is constant (ρ undefined).
 * Complexity O(n log n).
 * @example spearman([1, 2, 3, 4], [1, 3, 2, 4]) // → 0.8
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw argError("spearman", "y.length", y.length, `must equal x.length ${x.length}`);
  checkFinite("spearman", x, "x");
  checkFinite("spearman", y, "y");
  return pearson(midranks(x), midranks(y));
}

/** Pearson's r; NaN when n < 2 or a variable has zero variance. Two-pass for accuracy. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2) return NaN;
  let mx = 0,
    my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx,
      dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return NaN;
  return sxy / Math.sqrt(sxx * syy);
}

function checkFinite(fn: string, v: ArrayLike<number>, name: string): void {
  for (let i = 0; i < v.length; i++)
    if (!Number.isFinite(v[i])) throw argError(fn, `${name}[${i}]`, v[i], "must be finite");
}

/**
 * Spearman's ρ prepared for cluster-weighted evaluation (task-clustered
 * bootstrap). Sorts x and y once; a draw where cluster k appears w[k] times
 * is ranked by walking the tie levels (midrank of a level holding c copies
 * after C below = C + (c+1)/2), then a weighted Pearson r is taken. O(n) per draw.
 */
export class ClusteredSpearman {
  private readonly cluster: Int32Array;
  private readonly xLevel: Int32Array;
  private readonly yLevel: Int32Array;
  private readonly xLevelMembers: Int32Array[];
  private readonly yLevelMembers: Int32Array[];

  constructor(
    x: ArrayLike<number>,
    y: ArrayLike<number>,
    clusterOf: ArrayLike<number>,
    readonly clusters: number,
  ) {
    if (x.length !== y.length || x.length !== clusterOf.length)
      throw argError("ClusteredSpearman", "lengths", [x.length, y.length, clusterOf.length], "must be equal");
    checkFinite("ClusteredSpearman", x, "x");
    checkFinite("ClusteredSpearman", y, "y");
    this.cluster = Int32Array.from(clusterOf);
    [this.xLevel, this.xLevelMembers] = levels(x);
    [this.yLevel, this.yLevelMembers] = levels(y);
  }

  evaluate(w: Float64Array): number {
    const rx = this.levelRanks(this.xLevelMembers, w);
    const ry = this.levelRanks(this.yLevelMembers, w);
    let sw = 0,
      mx = 0,
      my = 0;
    const n = this.cluster.length;
    for (let i = 0; i < n; i++) {
      const wi = w[this.cluster[i]];
      sw += wi;
      mx += wi * rx[this.xLevel[i]];
      my += wi * ry[this.yLevel[i]];
    }
    if (sw < 2) return NaN;
    mx /= sw;
    my /= sw;
    let sxy = 0,
      sxx = 0,
      syy = 0;
    for (let i = 0; i < n; i++) {
      const wi = w[this.cluster[i]];
      if (wi === 0) continue;
      const dx = rx[this.xLevel[i]] - mx,
        dy = ry[this.yLevel[i]] - my;
      sxy += wi * dx * dy;
      sxx += wi * dx * dx;
      syy += wi * dy * dy;
    }
    if (sxx === 0 || syy === 0) return NaN;
    return sxy / Math.sqrt(sxx * syy);
  }

  estimate(): number {
    return this.evaluate(new Float64Array(this.clusters).fill(1));
  }

  private levelRanks(members: Int32Array[], w: Float64Array): Float64Array {
    const ranks = new Float64Array(members.length);
    let below = 0;
    for (let l = 0; l < members.length; l++) {
      let c = 0;
      for (const i of members[l]) c += w[this.cluster[i]];
      ranks[l] = below + (c + 1) / 2;
      below += c;
    }
    return ranks;
  }
}

function levels(v: ArrayLike<number>): [Int32Array, Int32Array[]] {
  const order = sortedOrder(v);
  const levelOf = new Int32Array(v.length);
  const members: Int32Array[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i + 1;
    while (j < order.length && v[order[j]] === v[order[i]]) j++;
    for (let k = i; k < j; k++) levelOf[order[k]] = members.length;
    members.push(order.slice(i, j) as unknown as Int32Array);
    i = j;
  }
  return [levelOf, members];
}
