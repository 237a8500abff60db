/**
 * A cluster-bootstrap draw written out as data: w[c] copies of cluster c's observations, each copy
 * a cluster of its own. Tests compare the weighted (copy-free) estimators against this.
 */
export function materialiseDraw(
  d: { scores: readonly number[]; pass: readonly boolean[]; cluster: readonly number[] },
  w: ArrayLike<number>,
): { scores: number[]; pass: boolean[]; cluster: number[] } {
  const out = { scores: [] as number[], pass: [] as boolean[], cluster: [] as number[] };
  let next = 0;
  for (let c = 0; c < w.length; c++) {
    for (let copy = 0; copy < w[c]; copy++, next++) {
      d.cluster.forEach((ci, i) => {
        if (ci !== c) return;
        out.scores.push(d.scores[i]);
        out.pass.push(d.pass[i]);
        out.cluster.push(next);
      });
    }
  }
  return out;
}
