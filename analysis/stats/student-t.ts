import jStat from "jstat";
import { argError } from "../errors.js";

/**
 * Quantile of Student's t distribution with `df` degrees of freedom (jStat's inverse
 * regularized incomplete beta; checked against R's qt in test/expanded-percentile.test.ts).
 * A library rather than our own series: jstat is one dependency-free package, where
 * @stdlib's t quantile pulls in 227 packages.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw argError("studentTQuantile", "p", p, "must be in (0, 1)");
  if (!(df > 0)) throw argError("studentTQuantile", "df", df, "must be positive");
  return jStat.studentt.inv(p, df);
}
