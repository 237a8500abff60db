// jstat ships no type declarations (and @types/jstat is not on the registry): the functions used
// (the normal CDF and the binomial CDF by tests only, as independent references; ibeta for the endpoints' MC SE).
// The package is UMD (module.exports = the jStat object), so it is a default import.
declare module "jstat" {
  const jStat: {
    studentt: { inv(p: number, dof: number): number };
    normal: { cdf(x: number, mean: number, sd: number): number };
    binomial: { cdf(k: number, n: number, p: number): number };
    /** The regularized incomplete beta function I_x(a, b). */
    ibeta(x: number, a: number, b: number): number;
  };
  export default jStat;
}
