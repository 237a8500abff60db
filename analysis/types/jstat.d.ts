// jstat ships no type declarations (and @types/jstat is not on the registry): the one function used.
// The package is UMD (module.exports = the jStat object), so it is a default import.
declare module "jstat" {
  const jStat: { studentt: { inv(p: number, dof: number): number } };
  export default jStat;
}
